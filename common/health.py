"""Liveness of the parts the toolkit depends on, for load balancers and for organizers on event day."""

from __future__ import annotations

import os
from pathlib import Path

import redis
from django.conf import settings
from django.db import DatabaseError, connections


def database_status() -> dict:
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return {
            "ok": False,
            "error": str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__,
        }
    return {"ok": True, "engine": connections["default"].vendor}


def broker_status() -> dict | None:
    """The Redis broker's answer to PING, or None without Redis (``embedded_broker_status``)."""
    if not settings.REDIS_URL:
        return None
    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2)
    try:
        client.ping()
    except redis.RedisError as exc:
        return {"ok": False, "error": str(exc)}
    finally:
        client.close()
    return {"ok": True}


def embedded_broker_status() -> dict:
    """Without Redis: embedded mode's filesystem queue (its folder must take files), or tasks run
    in-process (tests and one-off ``manage.py`` commands)."""
    if not settings.EMBEDDED_WORKER:
        return {"ok": True, "mode": "in-process (tasks run inside the request: no worker)"}
    queue = Path(settings.CELERY_BROKER_TRANSPORT_OPTIONS["data_folder_in"])
    if not (queue.is_dir() and os.access(queue, os.W_OK)):
        return {"ok": False, "mode": "filesystem", "error": f"queue folder {queue} is missing or read-only"}
    return {"ok": True, "mode": f"filesystem (embedded worker, queue folder {queue})"}


def health_report() -> tuple[bool, dict]:
    checks = {"database": database_status()}
    broker = broker_status()
    checks["broker"] = broker if broker is not None else embedded_broker_status()
    failing = [name for name, check in checks.items() if not check["ok"]]
    report = {"status": "ok" if not failing else "unavailable", "checks": checks}
    if failing:
        report["failing"] = failing
    return not failing, report
