from __future__ import annotations

import pytest
from django.conf import settings


@pytest.mark.django_db
def test_healthz_reports_database_and_broker_ok(client):
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200
    assert body["status"] == "ok"
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["database"]["engine"] == (
        "postgresql" if "postgresql" in settings.DATABASES["default"]["ENGINE"] else "sqlite"
    )
    assert body["checks"]["broker"]["ok"] is True
    if settings.REDIS_URL:
        assert "mode" not in body["checks"]["broker"]
    else:
        assert body["checks"]["broker"]["mode"].startswith("in-process")


@pytest.mark.django_db
def test_healthz_is_503_naming_the_broker_when_it_is_down(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 503
    assert body["status"] == "unavailable"
    assert body["failing"] == ["broker"]
    assert body["checks"]["broker"]["ok"] is False
    assert body["checks"]["database"]["ok"] is True


@pytest.mark.django_db
def test_healthz_is_503_naming_the_database_when_it_is_down(client, monkeypatch):
    from django.db import OperationalError
    from django.db.backends.base.base import BaseDatabaseWrapper

    def refuse(self, *args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(BaseDatabaseWrapper, "cursor", refuse)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["failing"] == ["database"]
    assert response.json()["checks"]["database"]["error"] == "connection refused"
