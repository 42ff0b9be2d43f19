"""Sending a Celery task (from an on-commit callback) without letting a broker outage turn the
committed write into an error.

With Redis unreachable, ``apply_async`` raises after the short connect timeouts of the settings
(about half a second). The write is committed by then, so its answer must stand: the failure is
logged and the work stays as the database recorded it (a document job ``pending``), for the
periodic sweep to queue once the broker is back. In embedded mode (eager Celery) the task runs
in-process and its own errors propagate as before; there is no broker to be down.
"""

from __future__ import annotations

import logging

import redis
from celery import Task
from kombu.exceptions import OperationalError as BrokerError

logger = logging.getLogger(__name__)

BROKER_ERRORS = (BrokerError, redis.RedisError, OSError)


def send_task(task: Task, *, kwargs: dict, what: str, **options) -> bool:
    """Send ``task`` now; ``False`` (and a warning naming ``what``) when the broker is unreachable."""
    if task.app.conf.task_always_eager:
        task.apply_async(kwargs=kwargs, **options)
        return True
    try:
        # No result to wait for: skipping the result store keeps its reconnect loop out of the request.
        task.apply_async(kwargs=kwargs, ignore_result=True, **options)
    except BROKER_ERRORS as exc:
        logger.warning("could not queue %s, left for the periodic sweep: %s", what, exc)
        return False
    return True
