"""The periodic sweep (Celery beat, ``documents.requeue_orphaned``) finishes what no worker will:
a job whose worker stopped beating, a job never queued because the broker refused it, a job whose
message was lost; and it leaves alone a job that is only waiting its turn or still rendering.

Eager Celery in the embedded run (a job the sweep sends is rendered at once), the live worker in
the service run: so the data is committed (transaction=True) and a sent job is waited for. The
whole-worker SIGKILL with real workers is ``tests/reliability/test_worker_kill.py`` and
``test_embedded_worker_kill.py``.
"""

from __future__ import annotations

import datetime
import time

import pytest
from django.utils import timezone

from documents import services
from documents.models import ORPHANED_AFTER, DocumentJob
from documents.services import MESSAGE_LOST_AFTER, QUEUE_GRACE, document_render, document_request
from documents.tasks import document_render_task, requeue_orphaned_documents_task
from tests.documents.conftest import pages_text, pdf_of, wait_for


def job_in(event, *, kind: str = "pairings_by_table", **fields) -> DocumentJob:
    job = DocumentJob.objects.create(kind=kind, tournament=event.tournament, round=event.round)
    created_at = fields.pop("created_at", None)
    DocumentJob.objects.filter(pk=job.pk).update(
        **fields, **({"created_at": created_at} if created_at else {})
    )
    job.refresh_from_db()
    return job


def ago(seconds: float) -> datetime.datetime:
    return timezone.now() - datetime.timedelta(seconds=seconds)


@pytest.mark.django_db(transaction=True)
def test_the_sweep_finishes_dead_never_queued_and_lost_jobs_and_leaves_the_others(event):
    silent = ORPHANED_AFTER.total_seconds() + 5
    dead_worker = job_in(
        event,
        status="running",
        claim_token="killed",
        started_at=ago(60),
        heartbeat_at=ago(silent),
        progress=40,
    )
    never_queued = job_in(event, kind="pairings_by_name", created_at=ago(QUEUE_GRACE.total_seconds() + 5))
    lost = job_in(
        event,
        kind="result_slips",
        created_at=ago(MESSAGE_LOST_AFTER.total_seconds() + 60),
        queued_at=ago(MESSAGE_LOST_AFTER.total_seconds() + 60),
    )
    waiting = job_in(event, created_at=ago(120), queued_at=ago(120))
    just_requested = job_in(event, kind="pairings_by_name")
    rendering = job_in(event, status="running", claim_token="alive", started_at=ago(300), heartbeat_at=ago(3))

    requeued = requeue_orphaned_documents_task.apply().get()

    assert requeued == sorted([dead_worker.pk, never_queued.pk, lost.pk])
    for job in (dead_worker, never_queued, lost):
        job = wait_for(job, timeout=120)
        assert (job.status, job.progress) == ("done", 100), job.error
        assert event.tournament.name in "\n".join(pages_text(pdf_of(job)))
    for job, status in ((waiting, "pending"), (just_requested, "pending"), (rendering, "running")):
        job.refresh_from_db()
        assert job.status == status
    assert rendering.claim_token == "alive"


@pytest.mark.django_db(transaction=True)
def test_a_job_the_broker_refused_stays_pending_and_the_sweep_renders_it(event, monkeypatch):
    """The request answers its normal success with the job pending; once the broker is back, the
    sweep finds it (never queued) and it is rendered."""

    def broker_down(**kwargs):
        raise OSError("Connection refused")

    monkeypatch.setattr(document_render_task, "delay", broker_down)
    job = document_request(tournament=event.tournament, actor=event.organizer, kind="pairings_by_table")
    job.refresh_from_db()
    assert (job.status, job.queued_at) == ("pending", None)

    monkeypatch.undo()
    DocumentJob.objects.filter(pk=job.pk).update(created_at=ago(QUEUE_GRACE.total_seconds() + 1))
    requeued = services.documents_requeue_orphaned()

    job = wait_for(job, timeout=120)
    assert (requeued, job.status, job.page_count) == ([job.pk], "done", 1)


@pytest.mark.django_db
def test_a_job_sent_to_the_broker_notes_when_so_the_sweep_leaves_it_in_the_queue(
    event, monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr(document_render_task, "delay", lambda **kwargs: sent.append(kwargs))
    before = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        job = document_request(tournament=event.tournament, actor=event.organizer, kind="pairings_by_table")
    DocumentJob.objects.filter(pk=job.pk).update(created_at=ago(120))

    job.refresh_from_db()
    assert (sent, job.status, job.queued_at >= before) == ([{"job_id": job.pk}], "pending", True)
    assert services.documents_requeue_orphaned() == []


@pytest.mark.django_db(transaction=True)
def test_a_worker_beats_while_it_renders(event, monkeypatch):
    """The heartbeat thread writes ``heartbeat_at`` during a render longer than one beat, from its
    own connection (committed data: transaction=True)."""
    monkeypatch.setattr(services, "HEARTBEAT_EVERY", datetime.timedelta(seconds=0.05))
    real_builder = services.BUILDERS["pairings_by_table"]

    def slow_builder(*args, **kwargs):
        time.sleep(0.6)
        return real_builder(*args, **kwargs)

    monkeypatch.setitem(services.BUILDERS, "pairings_by_table", slow_builder)
    job = job_in(event)

    done = document_render(job_id=job.pk, claim_token="worker-task", heartbeat=True)

    assert done.status == "done"
    assert done.heartbeat_at > done.started_at + datetime.timedelta(seconds=0.1)
