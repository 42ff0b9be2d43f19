"""Celery tasks for tournaments: thin, idempotent wrappers that take ids and call a service."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError
from django.utils import timezone

from tournaments.services.clock import reschedule_at, round_time_up_record

logger = logging.getLogger(__name__)


@shared_task(
    bind=True,
    name="tournaments.round_time_up",
    acks_late=True,
    autoretry_for=(OperationalError,),
    max_retries=3,
    retry_backoff=True,
)
def round_time_up_task(self, *, round_id: int) -> dict:
    """Look at the round's clock now: record time up once, or come back at the next deadline.

    Safe to run any number of times, early, late or after the clock changed: the service
    re-reads the stored timestamps and claims the one write with a conditional update, which is
    why ``acks_late`` is allowed. It reschedules itself only through a real broker; with eager
    Celery (embedded mode) ``apply_async`` would run the next check at once and recurse, and
    the services enqueue a fresh check on every start, resume, extension and time call anyway.
    """
    now = timezone.now()
    check = round_time_up_record(round_id=round_id, at=now)
    eager = self.request.is_eager or self.app.conf.task_always_eager
    rescheduled = None
    if check.next_deadline is not None and not eager:
        rescheduled = reschedule_at(check.next_deadline, now)
        self.apply_async(kwargs={"round_id": round_id}, eta=rescheduled)
    return {
        "round_id": round_id,
        "state": str(check.state) if check.state is not None else None,
        "recorded": check.recorded,
        "tables_out_of_time": list(check.tables_out_of_time),
        "next_check": rescheduled.isoformat() if rescheduled else None,
    }
