"""`manage.py check --deploy` is clean under production settings (secure cookies, HSTS, SSL redirect)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_check_deploy_is_clean_with_production_settings():
    env = {
        **{
            k: v
            for k, v in os.environ.items()
            if k not in {"DEBUG", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "DJANGO_ALLOW_ASYNC_UNSAFE"}
        },
        "DATABASE_URL": "postgresql://app@db.example.org:5432/twohg",
        "REDIS_URL": "redis://cache.example.org:6379/0",
        "SECRET_KEY": secrets.token_urlsafe(60),
        "ALLOWED_HOSTS": "events.example.org",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_settings_harden_cookies_and_transport():
    env = {
        **os.environ,
        "DATABASE_URL": "postgresql://app@db.example.org:5432/twohg",
        "SECRET_KEY": secrets.token_urlsafe(60),
    }
    env.pop("SECURE_SSL_REDIRECT", None)
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS, s.SECURE_SSL_REDIRECT, s.DEBUG)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "31536000", "True", "False"]
