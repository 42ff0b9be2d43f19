"""Printed documents as stored: one row per request to produce a PDF, with the file once done."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from documents.enums import DocumentKind, JobStatus, Paper

#: A rendering worker writes ``heartbeat_at`` this often.
HEARTBEAT_EVERY = datetime.timedelta(seconds=settings.DOCUMENTS_HEARTBEAT_SECONDS)
#: A running job with no heartbeat for this long has lost its worker (killed, machine gone).
ORPHANED_AFTER = datetime.timedelta(seconds=settings.DOCUMENTS_ORPHANED_AFTER_SECONDS)


def orphaned_running(now: datetime.datetime) -> Q:
    """Running jobs whose worker is gone: no heartbeat for ``ORPHANED_AFTER`` (or, claimed before
    heartbeats existed, started that long ago). The one definition the sweep, the claim, the
    retry and the print panel use."""
    cutoff = now - ORPHANED_AFTER
    return Q(status=JobStatus.RUNNING) & (
        Q(heartbeat_at__lt=cutoff) | Q(heartbeat_at__isnull=True, started_at__lt=cutoff)
    )


def document_upload_to(job: DocumentJob, filename: str) -> str:
    return f"documents/{job.tournament_id}/{filename}"


class DocumentJob(models.Model):
    """A document to render in the background, and what happened to it.

    ``content_hash`` identifies what the PDF shows (the builder's data, the paper and the
    template version): a later job with the same hash reuses the stored file instead of
    rendering again. ``file`` is set only together with ``status=done``, so a worker killed
    while writing never leaves a job that points at half a file. ``claim_token`` is the Celery
    task id that claimed the job, so a redelivered message (``acks_late``) may take its own
    job back at once instead of waiting for it to go stale.
    """

    kind = models.CharField(max_length=20, choices=DocumentKind.choices)
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="document_jobs"
    )
    round = models.ForeignKey(
        "tournaments.Round", null=True, blank=True, on_delete=models.CASCADE, related_name="document_jobs"
    )
    paper = models.CharField(max_length=10, choices=Paper.choices, default=Paper.A4)
    status = models.CharField(max_length=10, choices=JobStatus.choices, default=JobStatus.PENDING)
    progress = models.PositiveSmallIntegerField(default=0, help_text="0 to 100.")
    error = models.TextField(blank=True)
    content_hash = models.CharField(max_length=64, blank=True, db_index=True)
    file = models.FileField(upload_to=document_upload_to, blank=True, max_length=300)
    page_count = models.PositiveIntegerField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    claim_token = models.CharField(max_length=64, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    queued_at = models.DateTimeField(
        null=True, blank=True, help_text="When its render task last went to the broker; empty: never sent."
    )
    heartbeat_at = models.DateTimeField(
        null=True, blank=True, help_text="Last sign of life of the worker rendering it (every few seconds)."
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["tournament", "-created_at"], name="docjob_event_recent")]
        constraints = [
            models.CheckConstraint(condition=Q(progress__lte=100), name="docjob_progress_at_most_100"),
            models.CheckConstraint(
                condition=~Q(status=JobStatus.DONE) | ~Q(file=""), name="docjob_done_has_file"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.get_status_display()})"

    @property
    def stuck(self) -> bool:
        """Running, but its worker stopped giving signs of life (``orphaned_running``): it was
        killed, and the periodic sweep will queue the job again within seconds."""
        if self.status != JobStatus.RUNNING:
            return False
        cutoff = timezone.now() - ORPHANED_AFTER
        last_sign = self.heartbeat_at or self.started_at
        return last_sign is not None and last_sign < cutoff

    @property
    def retryable(self) -> bool:
        """Failed, or stuck (``stuck``): what ``services.document_retry`` accepts."""
        return self.status == JobStatus.FAILED or self.stuck
