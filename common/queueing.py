"""Sending a Celery task (from an on-commit callback) without letting a broker outage turn the
committed write into an error.

With Redis unreachable, ``apply_async`` raises after the short connect timeouts of the settings
(about half a second). The write is committed by then, so its answer must stand: the failure is
logged and the work stays as the database recorded it (a document job ``pending``), for the
periodic sweep to queue once the broker is back.
"""

from __future__ import annotations

import logging

import redis
from celery import Task
from kombu.exceptions import OperationalError as BrokerError

logger = logging.getLogger(__name__)

BROKER_ERRORS = (BrokerError, redis.RedisError, OSError)


def send_task(task: Task, *, kwargs: dict, what: str) -> bool:
    """Send ``task``; ``False`` (and a warning naming ``what``) when the broker is unreachable.

    Tasks sent this way should not store results (``ignore_result=True``): sending one that does
    first subscribes to the result store, which retries its connection far longer than the broker.
    """
    try:
        task.delay(**kwargs)
    except BROKER_ERRORS as exc:
        logger.warning("could not queue %s, left for the periodic sweep: %s", what, exc)
        return False
    return True
