"""Settings come from the environment; a malformed value stops start-up and names the variable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_database, env_int, env_list, env_redis_url

ROOT = Path(__file__).resolve().parents[2]
SERVICE_VARIABLES = ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS")


def start_django(**env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in SERVICE_VARIABLES}
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings; "
            "print(settings.DATABASES['default']['ENGINE'], settings.CELERY_TASK_ALWAYS_EAGER)",
        ],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_start_up_without_environment_is_embedded_mode():
    result = start_django()
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["django.db.backends.sqlite3", "True"]


def test_start_up_with_production_environment_uses_postgres_and_a_broker():
    result = start_django(
        DATABASE_URL="postgresql://app@db.example.org:5432/twohg",
        REDIS_URL="redis://cache:6379/0",
        SECRET_KEY="x" * 60,
        ALLOWED_HOSTS="example.org",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["django.db.backends.postgresql", "False"]


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("DATABASE_URL", "mysql//not-a-url"),
        ("DATABASE_URL", "postgresql://app@db.example.org:5432"),
        ("REDIS_URL", "http://cache:6379/0"),
        ("REDIS_URL", "redis://cache:port/0"),
        ("REDIS_URL", "redis://cache:6379/abc"),
        ("DEBUG", "maybe"),
    ],
)
def test_start_up_with_malformed_value_fails_naming_the_variable(variable, value):
    result = start_django(**{variable: value})
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert f"{variable}:" in result.stderr


@pytest.mark.parametrize("debug", ["false", "true"])
@pytest.mark.parametrize(
    "services",
    [
        {"DATABASE_URL": "postgresql://app@db/twohg"},
        {"REDIS_URL": "redis://cache:6379/0"},
        {"DATABASE_URL": "sqlite:///elsewhere.sqlite3"},
    ],
)
def test_services_without_secret_key_fail_naming_it_whatever_debug_says(services, debug):
    result = start_django(**services, DEBUG=debug)
    assert result.returncode != 0
    assert "SECRET_KEY: must be set when DATABASE_URL or REDIS_URL is set" in result.stderr


def test_debug_alone_runs_on_the_development_key():
    result = start_django(DEBUG="true")
    assert result.returncode == 0, result.stderr


def test_env_helpers_parse_values(monkeypatch):
    monkeypatch.setenv("T_BOOL", "Yes")
    monkeypatch.setenv("T_INT", "42")
    monkeypatch.setenv("T_LIST", "a.org, b.org")
    monkeypatch.setenv("T_DB", "postgres://u:p@h:5433/d")
    monkeypatch.setenv("T_REDIS", "redis://127.0.0.1:6379/2")
    assert env_bool("T_BOOL", False) is True
    assert env_int("T_INT", 0) == 42
    assert env_list("T_LIST", []) == ["a.org", "b.org"]
    database = env_database("T_DB", "unused.sqlite3")
    assert (database["ENGINE"], database["HOST"], database["PORT"], database["NAME"]) == (
        "django.db.backends.postgresql",
        "h",
        5433,
        "d",
    )
    assert env_redis_url("T_REDIS") == "redis://127.0.0.1:6379/2"


def test_env_int_rejects_words(monkeypatch):
    monkeypatch.setenv("T_INT", "fifty")
    with pytest.raises(ImproperlyConfigured, match="T_INT: expected a whole number"):
        env_int("T_INT", 0)


def test_secret_read_from_file_variant(monkeypatch, tmp_path):
    secret = tmp_path / "secret"
    secret.write_text("from-a-file\n")
    monkeypatch.setenv("T_SECRET_FILE", str(secret))
    from config.env import env_str

    assert env_str("T_SECRET") == "from-a-file"


def test_embedded_worker_mode_queues_tasks_on_the_filesystem_broker(tmp_path):
    """What `make run` sets for its web server and worker: tasks leave the request (not eager) for
    a broker that needs no service."""
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings as s; "
            "print(s.CELERY_TASK_ALWAYS_EAGER, s.CELERY_BROKER_URL, "
            "s.CELERY_BROKER_TRANSPORT_OPTIONS['data_folder_in'])",
        ],
        cwd=ROOT,
        env={
            **{k: v for k, v in os.environ.items() if k not in SERVICE_VARIABLES},
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "EMBEDDED_WORKER": "true",
            "CELERY_DATA_DIR": str(tmp_path),
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "filesystem://", str(tmp_path / "queue")]


def test_sqlite_is_set_up_for_several_writers(monkeypatch):
    """WAL, a busy timeout and IMMEDIATE transactions, for the default file and a sqlite:// URL."""
    monkeypatch.delenv("T_DB", raising=False)
    default = env_database("T_DB", "db.sqlite3")
    monkeypatch.setenv("T_DB", "sqlite:////tmp/event.sqlite3")
    from_url = env_database("T_DB", "unused.sqlite3")

    for database in (default, from_url):
        assert database["OPTIONS"] == {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        }
