"""The one log-in and sign-up rate limit, used by the token API, the log-in page, ``/admin/login/``
and sign-up (API and page).

Policy (README, "Security and reliability"):

- **Failed log-ins** are counted per username (normalised as the sign-up normalises it) and per
  client address. Once either count reaches the rate (``LOGIN_THROTTLE_RATE``, DRF syntax
  ``N/second|minute|hour|day``), further attempts for that username, or from that address, are
  refused with 429 before any password is checked, until the window that began with the first
  failure ends. A successful log-in clears its username's count (not the address's: an attacker
  with an account of their own could otherwise reset it).
- **Sign-ups** are counted per client address, every attempt, at the same rate.
- **Join codes that lead nowhere** (an unknown code, or a team whose invitation is not open to the
  reader: ``tournaments.registration.player``) are counted per account and per client address,
  at the same rate and in the same cache; over it, every join-code request (the invite link, the
  join-code API) is refused with 429 before the code is looked up. Codes are long enough that
  guessing within the limit is hopeless (``docs/decisions.md``, "Join codes").
- **The client address** is ``REMOTE_ADDR``. Behind ``TRUSTED_PROXY_COUNT`` reverse proxies it is
  the address the outermost trusted proxy saw, taken from ``X-Forwarded-For`` counted from the
  right; any address a client writes into that header itself is further left and ignored. DRF's
  ``NUM_PROXIES`` is set from the same variable, so both agree.
- **The cache is down** (Redis unreachable): the counts fall back to this process's memory and a
  warning is logged, so log-in keeps working and stays limited per web worker process; the limit
  is never skipped silently and never turns a log-in into a 500.

Failures are recorded by one receiver of Django's ``user_login_failed`` signal, which every
``authenticate()`` call sends, whichever page or API made it.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from django.dispatch import receiver
from rest_framework.throttling import BaseThrottle

from accounts.usernames import username_key
from config.env import parse_rate

logger = logging.getLogger(__name__)

try:  # the cache is Redis in production; its errors are the outage we degrade on
    from redis.exceptions import RedisError

    CACHE_ERRORS: tuple[type[BaseException], ...] = (RedisError, OSError)
except ImportError:  # pragma: no cover - redis is a pinned requirement
    CACHE_ERRORS = (OSError,)

#: Where counts go while the shared cache is unreachable (one per process; see the module docstring).
_fallback = LocMemCache("login-throttle-fallback", {"MAX_ENTRIES": 100_000})


@dataclass(frozen=True)
class Rate:
    allowed: int
    window: int  # seconds


def current_rate() -> Rate | None:
    """``LOGIN_THROTTLE_RATE`` (checked at start-up); ``None`` switches the limit off (tests only)."""
    text = settings.LOGIN_THROTTLE_RATE
    return None if text is None else Rate(*parse_rate(text))


def client_address(request) -> str:
    """The client's address: ``REMOTE_ADDR``, or behind ``TRUSTED_PROXY_COUNT`` proxies the entry of
    ``X-Forwarded-For`` the outermost trusted proxy appended (the same rule as DRF's ``NUM_PROXIES``).
    """
    remote = request.META.get("REMOTE_ADDR", "") or ""
    proxies = settings.TRUSTED_PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if proxies <= 0 or not forwarded:
        return remote
    addresses = [part.strip() for part in forwarded.split(",")]
    return addresses[-min(proxies, len(addresses))] or remote


def _key(kind: str, value: str) -> str:
    return f"login-throttle:{kind}:" + hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()


class _Counter:
    """A fixed-window count in the shared cache, or this process's memory while the cache is down."""

    def __init__(self, key: str, rate: Rate):
        self.key = key
        self.rate = rate

    def _call(self, method: str, *args):
        try:
            return getattr(cache, method)(*args)
        except CACHE_ERRORS as exc:
            logger.warning(
                "login throttle: cache unreachable (%s); counting in this process's memory only", exc
            )
            return getattr(_fallback, method)(*args)

    def count(self) -> int:
        return self._call("get", self.key, 0)

    def retry_after(self) -> int:
        until = self._call("get", f"{self.key}:until") or time.time() + self.rate.window
        return max(1, math.ceil(until - time.time()))

    def exceeded(self) -> bool:
        return self.count() >= self.rate.allowed

    def add(self) -> None:
        if self._call("add", self.key, 1, self.rate.window):
            self._call("set", f"{self.key}:until", time.time() + self.rate.window, self.rate.window)
            return
        try:
            self._call("incr", self.key)
        except ValueError:  # expired between add and incr
            self._call("set", self.key, 1, self.rate.window)
            return
        # Redis's INCR keeps the key's expiry, but Django's file cache (embedded mode) writes the
        # count again with its default timeout: the count would outlive the window Retry-After names.
        until = self._call("get", f"{self.key}:until")
        if until is not None:
            self._call("touch", self.key, max(1, math.ceil(until - time.time())))

    def clear(self) -> None:
        self._call("delete_many", [self.key, f"{self.key}:until"])


def _login_counters(request, username: str | None, rate: Rate) -> list[_Counter]:
    counters = []
    if username:
        counters.append(_Counter(_key("user", username_key(username)), rate))
    if request is not None:
        counters.append(_Counter(_key("addr", client_address(request)), rate))
    return counters


def login_retry_after(request, username: str | None) -> int | None:
    """Seconds to wait before this username, or this address, may try a password again; ``None``
    when an attempt is allowed now."""
    rate = current_rate()
    if rate is None:
        return None
    waits = [c.retry_after() for c in _login_counters(request, username, rate) if c.exceeded()]
    return max(waits) if waits else None


def login_failed(request, username: str | None) -> None:
    rate = current_rate()
    if rate is not None:
        for counter in _login_counters(request, username, rate):
            counter.add()


def login_succeeded(username: str) -> None:
    rate = current_rate()
    if rate is not None:
        _Counter(_key("user", username_key(username)), rate).clear()


def signup_retry_after(request) -> int | None:
    """Count this sign-up attempt from the client's address; seconds to wait when over the rate."""
    rate = current_rate()
    if rate is None:
        return None
    counter = _Counter(_key("signup", client_address(request)), rate)
    if counter.exceeded():
        return counter.retry_after()
    counter.add()
    return None


def _join_counters(request, rate: Rate) -> list[_Counter]:
    user = getattr(request, "user", None)
    counters = [_Counter(_key("join-addr", client_address(request)), rate)]
    if user is not None and user.is_authenticated:
        counters.append(_Counter(_key("join-user", str(user.pk)), rate))
    return counters


def join_code_retry_after(request) -> int | None:
    """Seconds before this account, or this address, may try a join code again; ``None`` when a
    try is allowed now."""
    rate = current_rate()
    if rate is None:
        return None
    waits = [c.retry_after() for c in _join_counters(request, rate) if c.exceeded()]
    return max(waits) if waits else None


def join_code_failed(request) -> None:
    """Count a join code that led to no open invitation, for the account and the address."""
    rate = current_rate()
    if rate is not None:
        for counter in _join_counters(request, rate):
            counter.add()


@receiver(user_login_failed, dispatch_uid="accounts.throttling.login_failed")
def _count_failed_login(sender, credentials, request=None, **kwargs):
    login_failed(request, credentials.get("username"))


@receiver(user_logged_in, dispatch_uid="accounts.throttling.login_succeeded")
def _clear_after_login(sender, request, user, **kwargs):
    login_succeeded(user.get_username())


def _username_from(request) -> str | None:
    """The username a DRF request names; an unparsable body raises the parser's own 400 here."""
    data = request.data
    username = data.get("username") if hasattr(data, "get") else None
    return username if isinstance(username, str) else None


class LoginThrottle(BaseThrottle):
    """The policy above for DRF views that check a password (the token API)."""

    def allow_request(self, request, view):
        if request.method != "POST":  # only a POST tries a password
            return True
        self._wait = login_retry_after(request, _username_from(request))
        return self._wait is None

    def wait(self):
        return self._wait


class JoinCodeThrottle(BaseThrottle):
    """The policy above for the join-code API: refused while the account or address is over the
    limit of join codes that led nowhere (the view counts them: ``join_code_failed``)."""

    def allow_request(self, request, view):
        self._wait = join_code_retry_after(request)
        return self._wait is None

    def wait(self):
        return self._wait


class SignUpThrottle(BaseThrottle):
    """The policy above for the sign-up API: attempts per client address."""

    def allow_request(self, request, view):
        if request.method != "POST":  # only a POST is a sign-up attempt
            return True
        self._wait = signup_retry_after(request)
        return self._wait is None

    def wait(self):
        return self._wait
