"""The one log-in limit (accounts/throttling.py): failed log-ins per username and per client
address on the token API, the log-in page and /admin/login/; sign-ups per address; the address
from X-Forwarded-For only behind TRUSTED_PROXY_COUNT proxies; log-in keeps working with the cache
down. Every test has its own cache namespace (tests/conftest.py), so counts never leak."""

from __future__ import annotations

import logging
import time

import pytest
from django.urls import reverse

from accounts import throttling
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

RATE = 20


@pytest.fixture(autouse=True)
def _rate(settings):
    settings.LOGIN_THROTTLE_RATE = f"{RATE}/min"
    settings.TRUSTED_PROXY_COUNT = 0
    throttling._fallback.clear()


def _token(client, username, password, **extra):
    return client.post(reverse("api-token"), {"username": username, "password": password}, **extra)


def _page(client, username, password, **extra):
    return client.post(reverse("login"), {"username": username, "password": password}, **extra)


def _admin(client, username, password, **extra):
    return client.post("/admin/login/", {"username": username, "password": password}, **extra)


LOGINS = {"token api": _token, "log-in page": _page, "admin log-in": _admin}
WRONG = {"token api": 400, "log-in page": 200, "admin log-in": 200}


@pytest.mark.parametrize("where", LOGINS)
def test_forged_forwarded_for_does_not_reset_the_limit(client, where):
    user = UserFactory(is_staff=True)
    statuses = [
        LOGINS[where](client, user.username, "wrong", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}").status_code
        for n in range(25)
    ]

    assert statuses == [WRONG[where]] * RATE + [429] * 5


@pytest.mark.parametrize("where", LOGINS)
def test_the_limit_per_username_holds_across_addresses(client, where):
    user = UserFactory(is_staff=True)
    for n in range(RATE):
        LOGINS[where](client, user.username, "wrong", REMOTE_ADDR=f"198.51.100.{n}")

    refused = LOGINS[where](client, user.username, DEFAULT_PASSWORD, REMOTE_ADDR="192.0.2.77")

    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    assert "_auth_user_id" not in client.session


def test_the_limit_per_address_holds_across_usernames(client):
    for n in range(RATE):
        _token(client, f"nobody{n}", "wrong", REMOTE_ADDR="192.0.2.10")
    user = UserFactory()

    refused = _token(client, user.username, DEFAULT_PASSWORD, REMOTE_ADDR="192.0.2.10")
    elsewhere = _token(client, user.username, DEFAULT_PASSWORD, REMOTE_ADDR="192.0.2.11")

    assert refused.status_code == 429
    assert refused.json()["errors"] == [{"message": "too many requests; wait and retry"}]
    assert elsewhere.status_code == 200


def test_one_count_for_all_three_entry_points(client):
    user = UserFactory(is_staff=True)
    for n in range(RATE):
        list(LOGINS.values())[n % 3](client, user.username, "wrong", REMOTE_ADDR=f"198.51.100.{n}")

    assert {
        name: login(client, user.username, DEFAULT_PASSWORD).status_code for name, login in LOGINS.items()
    } == {
        "token api": 429,
        "log-in page": 429,
        "admin log-in": 429,
    }


def test_the_refusal_page_says_why(client):
    user = UserFactory()
    for _ in range(RATE):
        _page(client, user.username, "wrong")

    refused = _page(client, user.username, DEFAULT_PASSWORD)

    assert (
        "Too many failed log-in attempts for this username or from your address" in refused.content.decode()
    )


def test_a_successful_login_clears_the_username_count(client):
    user = UserFactory()
    for n in range(RATE - 1):
        _page(client, user.username, "wrong", REMOTE_ADDR=f"198.51.100.{n}")
    assert _page(client, user.username, DEFAULT_PASSWORD, REMOTE_ADDR="192.0.2.1").status_code == 302
    client.logout()

    statuses = [
        _page(client, user.username, "wrong", REMOTE_ADDR=f"198.51.101.{n}").status_code for n in range(RATE)
    ]

    assert statuses == [200] * RATE


def test_the_username_count_ignores_case_and_look_alike_letters(client):
    user = UserFactory(username="org")
    for n, spelling in enumerate(["ORG", "оrg", "ｏｒｇ", "Org"] * 5):  # "оrg": Cyrillic о
        _token(client, spelling, "wrong", REMOTE_ADDR=f"198.51.100.{n}")

    assert _token(client, user.username, DEFAULT_PASSWORD, REMOTE_ADDR="192.0.2.1").status_code == 429


def test_behind_trusted_proxies_the_address_is_the_one_the_proxy_appended(client, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    for n in range(RATE):
        # a client writes its own X-Forwarded-For; the proxy appends the address it saw
        _token(
            client,
            f"nobody{n}",
            "wrong",
            REMOTE_ADDR="10.0.0.2",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{n}, 192.0.2.10",
        )
    user = UserFactory()

    same_client = _token(
        client, user.username, DEFAULT_PASSWORD, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="192.0.2.10"
    )
    other_client = _token(
        client, user.username, DEFAULT_PASSWORD, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="192.0.2.11"
    )

    assert same_client.status_code == 429
    assert other_client.status_code == 200


def test_without_trusted_proxies_forwarded_for_is_ignored(rf, settings):
    request = rf.post("/", REMOTE_ADDR="192.0.2.5", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert throttling.client_address(request) == "192.0.2.5"
    settings.TRUSTED_PROXY_COUNT = 2
    request = rf.post("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9, 10.0.0.7")
    assert throttling.client_address(request) == "203.0.113.9"


def test_drf_counts_clients_behind_the_same_proxies(settings):
    from rest_framework.settings import api_settings

    assert settings.REST_FRAMEWORK["NUM_PROXIES"] == settings.TRUSTED_PROXY_COUNT
    assert api_settings.NUM_PROXIES == 0


@pytest.mark.parametrize("where", ["api", "page"])
def test_signups_are_limited_per_address_whatever_forwarded_for_says(client, where):
    url = "/api/v1/accounts/" if where == "api" else reverse("signup")
    statuses = [
        client.post(
            url,
            {"username": f"newplayer{n}", "password": "shared-life-30"},
            HTTP_X_FORWARDED_FOR=f"203.0.113.{n}",
        ).status_code
        for n in range(25)
    ]
    client.logout()

    assert statuses == [201 if where == "api" else 302] * RATE + [429] * 5


@pytest.fixture
def cache_down(settings):
    """The default cache is a Redis on a port where nothing listens."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    from django.core.cache import caches

    caches["default"].close()


def test_with_the_cache_down_log_in_works_and_warns(client, cache_down, caplog):
    user = UserFactory()
    with caplog.at_level(logging.WARNING, logger="accounts.throttling"):
        token = _token(client, user.username, DEFAULT_PASSWORD)
        wrong = _page(client, user.username, "wrong")
        page = _page(client, user.username, DEFAULT_PASSWORD)

    assert (token.status_code, wrong.status_code, page.status_code) == (200, 200, 302)
    assert "login throttle: cache unreachable" in caplog.text


def test_with_the_cache_down_the_limit_still_counts_in_the_process(client, cache_down):
    user = UserFactory()
    statuses = [
        _token(client, user.username, "wrong", REMOTE_ADDR=f"198.51.100.{n}").status_code
        for n in range(RATE + 1)
    ]

    assert statuses == [400] * RATE + [429]


def test_a_malformed_rate_stops_start_up():
    from tests.common.test_settings_env import start_django

    result = start_django(LOGIN_THROTTLE_RATE="twenty a minute")
    assert result.returncode != 0
    assert "LOGIN_THROTTLE_RATE: expected N/second, N/minute, N/hour or N/day" in result.stderr


@pytest.fixture
def file_cache(settings, tmp_path):
    """Embedded mode's cache (config/settings.py): a folder shared by the web server and worker."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(tmp_path),
        }
    }


def test_on_embedded_mode_s_file_cache_the_limit_ends_when_retry_after_says(client, file_cache, monkeypatch):
    """The file cache's ``incr`` writes the count again with the cache's default timeout (300 s):
    the count outlived its window, and Retry-After promised a minute the limit did not keep."""
    now = [time.time()]
    monkeypatch.setattr(time, "time", lambda: now[0])
    user = UserFactory()
    for _ in range(RATE):
        _token(client, user.username, "wrong")
    refused = _token(client, user.username, DEFAULT_PASSWORD)
    assert refused.status_code == 429
    now[0] += int(refused["Retry-After"]) + 1
    assert _token(client, user.username, DEFAULT_PASSWORD).status_code == 200
