"""Liveness of the parts the toolkit depends on, for load balancers and for organizers on event day."""

from __future__ import annotations

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
    """The Redis broker's answer to PING, or None in embedded mode (tasks run in-process)."""
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


def health_report() -> tuple[bool, dict]:
    checks = {"database": database_status()}
    broker = broker_status()
    checks["broker"] = (
        broker if broker is not None else {"ok": True, "mode": "in-process (no broker configured)"}
    )
    failing = [name for name, check in checks.items() if not check["ok"]]
    report = {"status": "ok" if not failing else "unavailable", "checks": checks}
    if failing:
        report["failing"] = failing
    return not failing, report
