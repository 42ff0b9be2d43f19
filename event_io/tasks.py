"""The mirror's sweep, run by beat every few seconds (``settings.CELERY_BEAT_SCHEDULE``)."""

from __future__ import annotations

from celery import shared_task

from event_io.mirror_push import mirror_sweep


@shared_task(name="event_io.mirror_sweep", ignore_result=True)
def mirror_sweep_task() -> int:
    """Push each mirrored event that changed since its last push (or was not pushed for a minute)."""
    return mirror_sweep()
