"""Celery tasks for tournaments: thin, idempotent wrappers that take ids and call a service."""

from __future__ import annotations

import logging
from datetime import datetime

from celery import shared_task
from django.db import OperationalError
from django.utils import timezone

from clock.services import reschedule_at, round_time_check_claim, round_time_up_record

logger = logging.getLogger(__name__)


@shared_task(
    bind=True,
    name="tournaments.round_time_up",
    acks_late=True,
    autoretry_for=(OperationalError,),
    max_retries=3,
    retry_backoff=True,
)
def round_time_up_task(self, *, round_id: int, check_at: str | None = None) -> dict:
    """Look at the round's clock now: mark tables past their own end as in extra turns, record
    time up once, and come back at the next deadline.

    ``check_at`` is the ETA this run was queued for (ISO 8601). Only the round's live check
    (``Round.time_check_at``) goes on: a run queued before a later start, resume, extension or
    time call finds another ETA stored and stops, and a run hands the chain on only through a
    conditional update of that column, so there is one chain per round however often the clock
    changed. Safe to run any number of times, early, late or after the clock changed: the
    service re-reads the stored timestamps and claims each write with a conditional update,
    which is why ``acks_late`` is allowed. It reschedules itself only through a real broker; with
    eager Celery (embedded mode) ``apply_async`` would run the next check at once and recurse,
    and the services enqueue a fresh check on every start, resume, extension and time call.
    """
    now = timezone.now()
    scheduled = datetime.fromisoformat(check_at) if check_at else None
    check = round_time_up_record(round_id=round_id, at=now, check_at=scheduled)
    eager = self.request.is_eager or self.app.conf.task_always_eager
    rescheduled = None
    if check.next_deadline is not None and not eager:
        eta = reschedule_at(check.next_deadline, now)
        if round_time_check_claim(round_id=round_id, check_at=scheduled, next_check_at=eta):
            rescheduled = eta
            self.apply_async(kwargs={"round_id": round_id, "check_at": eta.isoformat()}, eta=eta)
    return {
        "round_id": round_id,
        "state": str(check.state) if check.state is not None else None,
        "stale": check.stale,
        "recorded": check.recorded,
        "tables_out_of_time": list(check.tables_out_of_time),
        "tables_marked": list(check.tables_marked),
        "next_check": rescheduled.isoformat() if rescheduled else None,
    }
