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
        assert body["checks"]["broker"]["mode"].startswith("in-process")  # eager: no worker


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


@pytest.mark.django_db
def test_healthz_in_embedded_mode_names_the_filesystem_queue(client, settings, tmp_path):
    """Under ``make run`` the broker is kombu's filesystem transport: /healthz says so, and fails
    when the worker's queue folder is gone, rather than claiming tasks run in-process."""
    if settings.REDIS_URL:
        pytest.skip("the service run has a Redis broker")
    settings.EMBEDDED_WORKER = True
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {"data_folder_in": str(tmp_path / "queue")}
    (tmp_path / "queue").mkdir()
    body = client.get("/healthz").json()
    assert body["checks"]["broker"] == {
        "ok": True,
        "mode": f"filesystem (embedded worker, queue folder {tmp_path / 'queue'})",
    }
    (tmp_path / "queue").rmdir()
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["failing"] == ["broker"]
