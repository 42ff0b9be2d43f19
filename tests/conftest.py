"""Fixtures shared by the whole suite.

The same suite runs twice in CI: embedded (SQLite, Celery eager) and against the real services
(PostgreSQL, Redis and a live worker started by ``.ci/run``, which sets ``CELERY_LIVE_WORKER=1``).
Under ``CI=true`` a missing service or browser is a failure, never a skip.
"""

from __future__ import annotations

import os
import shutil
import uuid

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.migrations import migrate_to_latest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_configure(config):
    """Settings every test shares, whichever mode the suite runs in.

    Passwords are hashed cheaply (the suite creates hundreds of users; PBKDF2 costs ~0.1 s each),
    and the HTTPS redirect that production mode turns on is off, because the test client and the
    live server speak plain HTTP on loopback.
    """
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.SECURE_SSL_REDIRECT = False
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker and live_worker_expected():
        # Under pytest-xdist each test process has its own test database (test_<name>_gw0 ...), so
        # .ci/run starts one live worker per process, reading that database from its own queue.
        from config.celery import app

        queue = f"{settings.CELERY_TASK_DEFAULT_QUEUE}_{worker}"
        settings.CELERY_TASK_DEFAULT_QUEUE = queue
        app.conf.task_default_queue = queue


IN_CI = os.environ.get("CI", "").lower() == "true"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def live_worker_expected() -> bool:
    return os.environ.get("CELERY_LIVE_WORKER") == "1"


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def user(db):
    return UserFactory()


@pytest.fixture
def auth_client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user=user)
    return client


@pytest.fixture(autouse=True)
def _fresh_cache_namespace():
    """Each test sees an empty cache (rate-limit counters included) without flushing the backend,
    which in the service run is the Redis database the Celery broker also uses.

    Uses ``override_settings`` rather than the ``settings`` fixture, which some domain test modules
    shadow with a fixture of their own name.
    """
    from django.conf import settings as django_settings
    from django.test import override_settings

    prefix = f"test-{uuid.uuid4().hex}"
    caches = {name: {**config, "KEY_PREFIX": prefix} for name, config in django_settings.CACHES.items()}
    with override_settings(CACHES=caches):
        yield


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the site's default language: a test client request through
    ``LocaleMiddleware`` leaves the language it activated on the thread, and a later test in the
    same process that formats a date or a message outside a request read it (Japanese month names
    in an English penalty sheet, depending on test order)."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _live_server_static_names(request):
    """Pages under pytest-django's live server get static files by their own names.

    Its static handler looks files up by source name, so the hashed names the manifest storage
    writes in production mode (the CI service run) would be 404s and page scripts never run.
    """
    if "live_server" not in request.fixturenames:
        yield
        return
    settings = request.getfixturevalue("settings")
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    yield


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not os.path.exists(CHROMIUM):
        message = f"{CHROMIUM} is missing: run `make test` as root or `apt-get install chromium`"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def pdftoppm() -> str:
    path = shutil.which("pdftoppm")
    if path is None:
        message = "pdftoppm is missing: apt-get install poppler-utils"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture
def every_app_migrated_after():
    """For a test of a data migration: going back unapplies the other apps' migrations that depend
    on the later ones (event_io's mirrors, the penalties' messages), and the next test in this
    process needs their tables again."""
    yield
    migrate_to_latest()
