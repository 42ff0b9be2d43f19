"""Jobs: caching by content, failures and retries, stale claims, the task path, the API."""

from __future__ import annotations

import datetime
import weakref

import pytest
from celery.signals import worker_init
from django.utils import timezone
from rest_framework.test import APIClient

from common.pdf import RefusedURL, local_url_fetcher
from documents import services, tasks
from documents.models import ORPHANED_AFTER, DocumentJob
from documents.services import document_render, document_request, documents_for_round_paired
from tests.documents.conftest import wait_for
from tests.factories import UserFactory
from tournaments.enums import StaffRole
from tournaments.models import Match, Staff


def client_for(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user=user)
    return client


def new_job(event, kind="pairings_by_table") -> DocumentJob:
    return DocumentJob.objects.create(kind=kind, tournament=event.tournament, round=event.round)


@pytest.mark.django_db
def test_same_content_reuses_the_file_and_a_changed_result_makes_a_new_one(event):
    first = document_render(job_id=new_job(event).id)
    second = document_render(job_id=new_job(event).id)

    assert second.status == "done"
    assert second.content_hash == first.content_hash
    assert second.file.name == first.file.name

    match = Match.objects.filter(round=event.round).exclude(table=None).first()
    match.team_a.name = "Renamed Giants"
    match.team_a.save()
    third = document_render(job_id=new_job(event).id)

    assert third.content_hash != first.content_hash
    assert third.file.name != first.file.name


@pytest.mark.django_db
def test_a_failing_render_is_recorded_and_a_retry_succeeds(event, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("out of paper")

    monkeypatch.setattr(services, "render_pdf", broken)
    job = document_render(job_id=new_job(event).id)

    assert (job.status, job.error, job.file.name) == ("failed", "RuntimeError: out of paper", "")

    monkeypatch.undo()
    job = document_render(job_id=job.id)

    assert (job.status, job.error, job.attempts) == ("done", "", 2)
    assert job.file.name.endswith(".pdf")


@pytest.mark.django_db
def test_a_running_job_whose_worker_stopped_beating_is_claimed_again(event):
    job = new_job(event)
    DocumentJob.objects.filter(pk=job.pk).update(
        status="running",
        claim_token="dead-worker",
        started_at=timezone.now() - datetime.timedelta(seconds=50),
        heartbeat_at=timezone.now() - ORPHANED_AFTER - datetime.timedelta(seconds=1),
    )

    job = document_render(job_id=job.id, claim_token="new-delivery")

    assert job.status == "done"
    assert job.claim_token == "new-delivery"


@pytest.mark.django_db
def test_a_job_running_elsewhere_is_left_alone_but_its_own_redelivery_takes_it_back(event):
    job = new_job(event)
    DocumentJob.objects.filter(pk=job.pk).update(
        status="running", claim_token="task-1", started_at=timezone.now(), heartbeat_at=timezone.now()
    )

    assert document_render(job_id=job.id, claim_token="task-2").status == "running"
    assert document_render(job_id=job.id, claim_token="task-1").status == "done"


def test_url_fetcher_refuses_network_and_local_files():
    fetcher = local_url_fetcher()
    for url in (
        "http://example.org/x.css",
        "https://example.org/static/pdf/print.css",
        "file:///etc/passwd",
        "https://documents.invalid/static/../config/settings.py",
        "https://documents.invalid/etc/passwd",
    ):
        with pytest.raises(RefusedURL):
            fetcher.fetch(url)
    assert b"@page" in fetcher.fetch("https://documents.invalid/static/pdf/print.css").read()


@pytest.mark.django_db(transaction=True)
def test_pairing_a_round_queues_both_pairings_and_the_slips_through_the_task():
    from tests.documents.conftest import build_event

    event = build_event(team_count=4)
    jobs = documents_for_round_paired(round_id=event.round.id)

    assert sorted(job.kind for job in jobs) == ["pairings_by_name", "pairings_by_table", "result_slips"]
    for job in jobs:
        job = wait_for(job)
        assert job.status == "done", job.error
        assert job.page_count == 1


@pytest.mark.django_db(transaction=True)
def test_api_request_poll_and_download():
    from tests.documents.conftest import build_event

    event = build_event(team_count=4)
    client = client_for(event.organizer)

    response = client.post(
        f"/api/v1/tournaments/{event.tournament.id}/documents/", {"kind": "pairings_by_table"}, format="json"
    )

    assert response.status_code == 202
    assert response.json()["status"] == "pending"
    job = wait_for(DocumentJob.objects.get(pk=response.json()["id"]))
    body = client.get(f"/api/v1/documents/{job.id}/").json()
    assert (body["status"], body["progress"], body["error"]) == ("done", 100, "")
    download = client.get(body["url"])
    assert download.status_code == 200
    assert download["Content-Type"] == "application/pdf"
    assert download["Content-Disposition"].startswith("inline; filename=")
    assert b"".join(download.streaming_content).startswith(b"%PDF")


@pytest.mark.django_db
def test_api_rejects_bad_kind_and_round_naming_the_field(event):
    client = client_for(event.organizer)
    url = f"/api/v1/tournaments/{event.tournament.id}/documents/"

    bad_kind = client.post(url, {"kind": "menu"}, format="json")
    bad_round = client.post(url, {"kind": "result_slips", "round": 9}, format="json")

    assert bad_kind.status_code == 400
    assert bad_kind.json()["errors"][0]["field"] == "kind"
    assert bad_round.status_code == 400
    assert bad_round.json()["errors"][0]["field"] == "round"
    assert (
        client.post("/api/v1/tournaments/999999/documents/", {"kind": "standings"}, format="json").status_code
        == 404
    )
    assert client.get("/api/v1/documents/999999/").status_code == 404


@pytest.mark.django_db
def test_file_permissions_staff_public_after_publishing_and_private_kinds(event):
    outsider = UserFactory()
    judge = UserFactory()
    Staff.objects.create(tournament=event.tournament, user=judge, role=StaffRole.JUDGE)
    pairings = document_render(job_id=new_job(event, "pairings_by_table").id)
    slips = document_render(job_id=new_job(event, "result_slips").id)

    def status(user, job):
        return client_for(user).get(f"/api/v1/documents/{job.id}/file/").status_code

    assert status(judge, slips) == 200
    assert status(outsider, pairings) == 403
    assert status(None, pairings) in (401, 403)
    assert (
        client_for(outsider)
        .post(f"/api/v1/tournaments/{event.tournament.id}/documents/", {"kind": "standings"}, format="json")
        .status_code
        == 403
    )

    event.round.status = "published"
    event.round.published_at = timezone.now()
    event.round.save(update_fields=["status", "published_at"])

    assert status(outsider, pairings) == 200
    assert status(None, pairings) == 200
    assert status(outsider, slips) == 403


@pytest.mark.django_db
def test_print_panel_lists_jobs_for_staff_only(event, client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        document_request(tournament=event.tournament, actor=event.organizer, kind="pairings_by_name")
    client.force_login(event.organizer)

    page = client.get(f"/events/{event.tournament.id}/print/")

    assert page.status_code == 200
    assert b"Pairings by name" in page.content and b"js/print" in page.content
    client.force_login(UserFactory())
    assert client.get(f"/events/{event.tournament.id}/print/").status_code == 403


def test_a_starting_worker_warms_the_pdf_renderer_before_forking_its_pool(monkeypatch):
    calls = []
    monkeypatch.setattr(tasks, "warm_up", lambda: calls.append("warm"))
    receivers = [r() if isinstance(r, weakref.ref) else r for _, r in worker_init.receivers]

    tasks.warm_pdf_renderer(sender=None)

    assert tasks.warm_pdf_renderer in receivers
    assert calls == ["warm"]


def test_a_worker_starts_even_if_the_pdf_renderer_cannot_warm(monkeypatch, caplog):
    def broken():
        raise OSError("cannot load library 'libpango-1.0-0'")

    monkeypatch.setattr(tasks, "warm_up", broken)

    tasks.warm_pdf_renderer(sender=None)

    assert "could not warm the PDF renderer" in caplog.text


@pytest.mark.django_db
def test_pairings_of_a_round_finished_without_publishing_stay_staff_only(event):
    outsider = UserFactory()
    pairings = document_render(job_id=new_job(event, "pairings_by_table").id)
    Match.objects.filter(round=event.round).update(confirmed=True)
    event.round.status = "finished"
    event.round.save(update_fields=["status"])

    assert event.round.published_at is None
    assert client_for(outsider).get(f"/api/v1/documents/{pairings.id}/file/").status_code == 403
    assert client_for(None).get(f"/api/v1/documents/{pairings.id}/file/").status_code in (401, 403)


def make_running(job: DocumentJob, *, started_ago: float, last_beat_ago: float) -> None:
    now = timezone.now()
    DocumentJob.objects.filter(pk=job.pk).update(
        status="running",
        claim_token="dead-worker",
        progress=40,
        started_at=now - datetime.timedelta(seconds=started_ago),
        heartbeat_at=now - datetime.timedelta(seconds=last_beat_ago),
    )


@pytest.mark.django_db(transaction=True)
def test_api_retries_a_job_whose_worker_stopped_at_once_but_not_a_live_one(event):
    """A long render still beating is left alone; one whose worker went silent a minute ago is
    retryable then, not after the task's six-minute time limit. Committed data (transaction=True):
    in the service run the retried job renders on the live worker."""
    client = client_for(event.organizer)
    live, stuck = new_job(event), new_job(event, "pairings_by_name")
    make_running(live, started_ago=300, last_beat_ago=5)
    make_running(stuck, started_ago=60, last_beat_ago=ORPHANED_AFTER.total_seconds() + 1)

    assert client.get(f"/api/v1/documents/{live.id}/").json()["retryable"] is False
    assert client.get(f"/api/v1/documents/{stuck.id}/").json()["retryable"] is True
    refused = client.post(f"/api/v1/documents/{live.id}/retry/")
    accepted = client.post(f"/api/v1/documents/{stuck.id}/retry/")

    assert refused.status_code == 409
    assert "whose worker stopped (30 s without a sign of life)" in refused.json()["detail"]
    assert accepted.status_code == 202
    assert accepted.json()["id"] == stuck.id
    assert accepted.json()["status"] in {"pending", "done"}
    stuck = wait_for(stuck)
    assert (stuck.status, stuck.progress, stuck.claim_token != "dead-worker") == ("done", 100, True)
    live.refresh_from_db()
    assert (live.status, live.claim_token) == ("running", "dead-worker")


@pytest.mark.django_db(transaction=True)
def test_print_panel_offers_retry_for_a_stuck_job(event, client):
    """Committed data (transaction=True): in the service run the retried job renders on the live worker."""
    job = new_job(event)
    make_running(job, started_ago=90, last_beat_ago=ORPHANED_AFTER.total_seconds() + 1)
    client.force_login(event.organizer)

    page = client.get(f"/events/{event.tournament.id}/print/")
    response = client.post(f"/events/{event.tournament.id}/print/{job.id}/retry/")

    assert b"Stuck: its worker stopped." in page.content
    assert f"/events/{event.tournament.id}/print/{job.id}/retry/".encode() in page.content
    assert response.status_code == 302
    assert wait_for(job).status == "done"
