"""Celery tasks for the round clock: thin, idempotent wrappers that call a service."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError
from django.utils import timezone

from clock.services import round_time_sweep

logger = logging.getLogger(__name__)


@shared_task(
    name="clock.round_time_sweep", autoretry_for=(OperationalError,), max_retries=2, ignore_result=True
)
def round_time_sweep_task() -> dict:
    """Check every round whose next deadline has passed: mark tables past their own end as in
    extra turns, record time up once, store the next deadline (``clock.services.round_time_sweep``).

    Run by Celery beat every few seconds (``CELERY_BEAT_SCHEDULE`` in ``config/settings.py``). Safe
    to run late, twice or concurrently: every write is claimed with a conditional update.
    """
    swept = round_time_sweep(at=timezone.now())
    return {
        "rounds": [
            {
                "round_id": item.round_id,
                "state": str(item.check.state) if item.check.state is not None else None,
                "recorded": item.check.recorded,
                "tables_marked": list(item.check.tables_marked),
                "next_check": item.next_check_at.isoformat() if item.next_check_at else None,
            }
            for item in swept
        ]
    }
