"""Outages (issue 12): with Redis unreachable a committed write still answers its normal success
quickly and the work it could not queue stays pending for the periodic sweep; with the database
unreachable pages and the API answer 503, the API in its error shape."""

from __future__ import annotations

import logging
import time

import pytest
from django.db import connections

from documents.enums import DocumentKind, JobStatus
from documents.models import DocumentJob
from tests.tournaments.factories import client_for, event_with_teams

CLOSED = "redis://127.0.0.1:9/0"


@pytest.fixture
def redis_down(settings):
    """Broker, result store and cache on a port where nothing listens, and Celery no longer eager."""
    from config.celery import app

    saved = {key: app.conf[key] for key in ("task_always_eager", "broker_url", "result_backend")}
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CLOSED,
            "OPTIONS": dict(settings.REDIS_TIMEOUTS),
        }
    }

    def reset_connections():
        """New pools for the new URLs; the old ones are dropped, not closed, because kombu's
        producers may still hold them and a closed pool fails every later send."""
        app._pool = None
        app.amqp._producer_pool = None

    app.conf.update(task_always_eager=False, broker_url=CLOSED, result_backend=CLOSED)
    reset_connections()
    yield
    app.conf.update(saved)
    reset_connections()


@pytest.mark.django_db(transaction=True)
def test_with_redis_down_pairing_and_the_last_result_answer_success_and_leave_jobs_pending(
    redis_down, caplog
):
    tournament = event_with_teams(4, swiss_rounds=3)
    organizer = client_for(tournament.created_by)
    base = f"/api/v1/tournaments/{tournament.pk}"

    with caplog.at_level(logging.WARNING, logger="common.queueing"):
        started = time.monotonic()
        paired = organizer.post(f"{base}/rounds/", {}, format="json")
        pairing_seconds = time.monotonic() - started
        assert paired.status_code == 201, paired.content
        results = []
        for match in paired.json()["matches"]:
            if match["team_b"] is None:
                continue
            started = time.monotonic()
            response = organizer.put(
                f"/api/v1/matches/{match['id']}/result/",
                {"team_a_wins": 1, "team_b_wins": 0, "draws": 0, "version": match["version"]},
                format="json",
            )
            results.append((response.status_code, time.monotonic() - started))

    assert pairing_seconds < 5
    assert [status for status, _ in results] == [200, 200]
    assert max(seconds for _, seconds in results) < 5
    jobs = DocumentJob.objects.filter(tournament=tournament)
    assert sorted((job.kind, job.status) for job in jobs) == sorted(
        [
            (DocumentKind.PAIRINGS_BY_TABLE, JobStatus.PENDING),
            (DocumentKind.PAIRINGS_BY_NAME, JobStatus.PENDING),
            (DocumentKind.RESULT_SLIPS, JobStatus.PENDING),
            (DocumentKind.STANDINGS, JobStatus.PENDING),
        ]
    )
    assert caplog.text.count("left for the periodic sweep") == 4


@pytest.fixture
def database_down(db):
    """The default alias answered by a PostgreSQL connection to a port where nothing listens,
    whatever the suite runs on; the real connection is put back afterwards."""
    from django.db.backends.postgresql.base import DatabaseWrapper

    original = connections["default"]
    settings_dict = {
        **original.settings_dict,
        "ENGINE": "django.db.backends.postgresql",
        "HOST": "127.0.0.1",
        "PORT": "9",
        "NAME": "unreachable",
        "OPTIONS": {"connect_timeout": 2},
        "CONN_HEALTH_CHECKS": False,
    }
    connections["default"] = DatabaseWrapper(settings_dict, alias="default")
    yield
    connections["default"].close()
    connections["default"] = original


@pytest.mark.parametrize(
    ("method", "path"),
    [("get", "/"), ("get", "/events/1/"), ("post", "/accounts/login/"), ("post", "/accounts/signup/")],
)
def test_with_the_database_down_pages_answer_503(client, database_down, method, path):
    response = getattr(client, method)(
        path, {"username": "someone", "password": "shared-life-30"} if method == "post" else None
    )

    assert response.status_code == 503
    assert "The database is unavailable" in response.content.decode()
    assert response["Retry-After"] == "30"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/v1/tournaments/"),
        ("get", "/api/v1/tournaments/1/standings/"),
        ("post", "/api/v1/auth/token/"),
        ("post", "/api/v1/accounts/"),
    ],
)
def test_with_the_database_down_the_api_answers_503_in_its_error_shape(
    api_client, database_down, method, path
):
    body = {"username": "someone", "password": "shared-life-30"} if method == "post" else None

    response = getattr(api_client, method)(path, body, format="json")

    assert response.status_code == 503
    assert response.json() == {
        "detail": "the database is unavailable; try again in a minute",
        "errors": [{"message": "the database is unavailable; try again in a minute"}],
    }
