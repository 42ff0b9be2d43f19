"""A worker that starts finishes the document jobs a dead worker left behind, without waiting for
the broker's visibility timeout. Eager in embedded mode; through the live worker in the service
run (so the data is committed: transaction=True)."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from documents.models import ORPHANED_AFTER, DocumentJob
from documents.tasks import requeue_stuck_documents
from tests.documents.conftest import build_event, pages_text, pdf_of, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def job_left_by(event, *, status: str, age: datetime.timedelta) -> DocumentJob:
    job = DocumentJob.objects.create(
        kind="pairings_by_table",
        tournament=event.tournament,
        round=event.round,
        status=status,
        started_at=timezone.now() - age if status == "running" else None,
        heartbeat_at=timezone.now() - age if status == "running" else None,
        claim_token="dead-worker-task",
    )
    DocumentJob.objects.filter(pk=job.pk).update(created_at=timezone.now() - age)
    return job


def test_worker_start_finishes_jobs_a_dead_worker_left_and_leaves_live_ones_alone():
    event = build_event(team_count=4)
    DocumentJob.objects.all().delete()
    orphaned = job_left_by(event, status="running", age=ORPHANED_AFTER + datetime.timedelta(seconds=5))
    never_queued = job_left_by(event, status="pending", age=datetime.timedelta(minutes=1))
    in_progress = job_left_by(event, status="running", age=datetime.timedelta(seconds=5))

    requeue_stuck_documents()

    for job in (orphaned, never_queued):
        finished = wait_for(job, timeout=90)
        assert finished.status == "done", finished.error
        text = "\n".join(pages_text(pdf_of(finished)))
        assert all(team in text for team in event.tournament.teams.values_list("name", flat=True))
    in_progress.refresh_from_db()
    assert (in_progress.status, in_progress.claim_token, bool(in_progress.file)) == (
        "running",
        "dead-worker-task",
        False,
    )
