"""The cache and the Celery broker live apart (issue 24, point 2): a flood of cached pages used to
fill the broker's Redis, whose ``noeviction`` then stopped the workers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def _settings_under(env: dict[str, str]) -> dict:
    code = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        "print(json.dumps([s.CACHES['default'].get('LOCATION'), s.CELERY_BROKER_URL]))"
    )
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "CACHE_URL"}}
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", "SECRET_KEY": "x" * 50, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_cache_url_gives_the_cache_a_redis_of_its_own():
    location, broker = _settings_under(
        {"REDIS_URL": "redis://127.0.0.1:6379/2", "CACHE_URL": "redis://127.0.0.1:6379/12"}
    )
    assert (location, broker) == ("redis://127.0.0.1:6379/12", "redis://127.0.0.1:6379/2")


def test_without_cache_url_the_cache_shares_the_broker_s_redis():
    location, broker = _settings_under({"REDIS_URL": "redis://127.0.0.1:6379/2"})
    assert location == broker == "redis://127.0.0.1:6379/2"


def test_compose_runs_an_evicting_cache_beside_a_broker_that_never_evicts():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    cache, broker = services["cache"]["command"], services["redis"]["command"]
    assert cache[cache.index("--maxmemory-policy") + 1] == "allkeys-lru"
    assert "--maxmemory" in cache
    assert broker[broker.index("--maxmemory-policy") + 1] == "noeviction"
    app_env = compose["x-app"]["environment"]
    assert app_env["CACHE_URL"] == "redis://cache:6379/0"
    assert app_env["REDIS_URL"] == "redis://redis:6379/0"
