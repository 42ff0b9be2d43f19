"""A task goes through Celery: eagerly in embedded mode, through Redis to a live worker in the service run."""

from __future__ import annotations

import pytest
from django.conf import settings

from common.tasks import echo_task
from tests.conftest import IN_CI, live_worker_expected


def test_celery_mode_matches_environment():
    assert settings.CELERY_TASK_ALWAYS_EAGER is (settings.REDIS_URL is None)
    if IN_CI and live_worker_expected():
        assert settings.REDIS_URL, "the service run must set REDIS_URL"


def test_task_round_trip():
    if settings.REDIS_URL and not live_worker_expected():
        message = "REDIS_URL is set but no worker was started (set CELERY_LIVE_WORKER=1 when one runs)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    result = echo_task.delay(value="two heads")
    assert result.get(timeout=30) == {"echo": "two heads"}
    if settings.REDIS_URL:
        assert result.backend.__class__.__name__ == "RedisBackend"
        assert result.status == "SUCCESS"
