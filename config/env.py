"""Reading settings from the environment, failing loudly on malformed values.

Every helper raises ``ImproperlyConfigured`` naming the variable, so a typo in a
deployment stops the process at start-up instead of surfacing as a wrong setting later.
"""

from __future__ import annotations

import os
from urllib.parse import urlparse

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None = None) -> str | None:
    """A string value; ``NAME_FILE`` (a path to a secret file) wins over ``NAME``."""
    file_path = os.environ.get(f"{name}_FILE")
    if file_path:
        try:
            with open(file_path, encoding="utf-8") as handle:
                return handle.read().strip()
        except OSError as exc:
            raise ImproperlyConfigured(f"{name}_FILE: cannot read {file_path!r}: {exc.strerror}") from exc
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name}: expected a boolean (true/false, 1/0, yes/no, on/off), got {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}: expected a whole number, got {raw!r}") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    items = [item.strip() for item in raw.split(",") if item.strip()]
    if not items:
        raise ImproperlyConfigured(f"{name}: expected a comma-separated list, got {raw!r}")
    return items


def env_public_url(name: str, default: str) -> str:
    """The site's address as readers reach it: ``http(s)://host[:port]`` with no path, no slash."""
    raw = (env_str(name) or default).strip().rstrip("/")
    parsed = urlparse(raw)
    try:
        parsed.port  # noqa: B018 (a malformed port raises here)
    except ValueError:
        parsed = parsed._replace(netloc="")
    if parsed.scheme not in ("http", "https") or not parsed.hostname or parsed.path or parsed.query:
        raise ImproperlyConfigured(
            f"{name}: expected the site's address as phones reach it, e.g. https://events.example.org "
            f"or http://192.168.1.20:8000, got {raw!r}"
        )
    return raw


#: SQLite as a multi-user server (embedded mode: the web server's threads and the worker write at
#: once). WAL lets readers go on while one writer writes; IMMEDIATE takes the write lock when a
#: transaction begins, so two writers queue on the busy timeout instead of one failing with
#: "database is locked" when it upgrades a read lock; the timeout is how long a writer waits.
SQLITE_OPTIONS = {
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
}


def env_database(name: str, default_sqlite_path: str, conn_max_age: int = 60) -> dict:
    """``DATABASE_URL`` (postgres:// or sqlite:///) parsed into a Django DATABASES entry; SQLite
    gets ``SQLITE_OPTIONS``."""
    raw = env_str(name)
    if not raw:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": default_sqlite_path,
            "OPTIONS": dict(SQLITE_OPTIONS),
        }
    scheme = urlparse(raw).scheme
    if scheme not in {"postgres", "postgresql", "pgsql", "sqlite"}:
        raise ImproperlyConfigured(
            f"{name}: unsupported or malformed URL {raw!r}; expected postgresql://user@host:port/dbname "
            "or sqlite:///path"
        )
    try:
        config = dj_database_url.parse(raw, conn_max_age=conn_max_age, conn_health_checks=True)
    except (ValueError, KeyError) as exc:
        raise ImproperlyConfigured(f"{name}: malformed URL {raw!r}: {exc}") from exc
    if scheme != "sqlite" and not config.get("NAME"):
        raise ImproperlyConfigured(f"{name}: the URL {raw!r} names no database (add /dbname)")
    if scheme == "sqlite":
        config["OPTIONS"] = {**SQLITE_OPTIONS, **config.get("OPTIONS", {})}
    return config


def env_redis_url(name: str) -> str | None:
    raw = env_str(name)
    if not raw:
        return None
    parsed = urlparse(raw)
    if parsed.scheme not in {"redis", "rediss"} or not parsed.hostname:
        raise ImproperlyConfigured(f"{name}: expected redis://host:port/db, got {raw!r}")
    try:
        parsed.port  # noqa: B018 - raises ValueError on a non-numeric port
    except ValueError:
        raise ImproperlyConfigured(f"{name}: malformed port in {raw!r}") from None
    database = parsed.path.lstrip("/")
    if database and not database.isdigit():
        raise ImproperlyConfigured(
            f"{name}: the database index must be a number, got {database!r} in {raw!r}"
        )
    return raw


def env_choice(name: str, choices: dict[str, str], default: str) -> str:
    """One of ``choices``' keys (case-insensitive), returned as its mapped value."""
    raw = os.environ.get(name)
    word = default if raw is None or raw.strip() == "" else raw.strip().lower()
    if word not in choices:
        raise ImproperlyConfigured(f"{name}: expected one of {', '.join(sorted(choices))}, got {raw!r}")
    return choices[word]


def env_media_storage(name: str) -> dict:
    """The ``STORAGES["default"]`` entry: ``local`` (``MEDIA_ROOT`` on disk, the default) or ``s3``
    (any S3-compatible service through django-storages), configured by ``S3_*`` variables.

    ``S3_BUCKET`` is required for ``s3``; ``S3_ENDPOINT_URL`` (http(s) URL, for MinIO, Garage,
    R2...) and ``S3_REGION`` are optional; ``S3_ACCESS_KEY_ID`` and ``S3_SECRET_ACCESS_KEY`` (or
    their ``_FILE`` variants) go together, or both stay unset for boto3's own credential chain
    (an instance role, ``~/.aws``). Objects are private: files are served through the app's
    permission-checked views, never by a public URL.
    """
    kind = env_choice(name, {"local": "local", "s3": "s3"}, "local")
    if kind == "local":
        return {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    bucket = (env_str("S3_BUCKET") or "").strip()
    if not bucket:
        raise ImproperlyConfigured(f"S3_BUCKET: must be set when {name}=s3")
    endpoint = (env_str("S3_ENDPOINT_URL") or "").strip() or None
    if endpoint is not None:
        parsed = urlparse(endpoint)
        if parsed.scheme not in {"http", "https"} or not parsed.hostname:
            raise ImproperlyConfigured(f"S3_ENDPOINT_URL: expected http(s)://host[:port], got {endpoint!r}")
    access_key = (env_str("S3_ACCESS_KEY_ID") or "").strip() or None
    secret_key = (env_str("S3_SECRET_ACCESS_KEY") or "").strip() or None
    if (access_key is None) != (secret_key is None):
        missing = "S3_SECRET_ACCESS_KEY" if secret_key is None else "S3_ACCESS_KEY_ID"
        raise ImproperlyConfigured(
            f"{missing}: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither"
        )
    return {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": bucket,
            "endpoint_url": endpoint,
            "region_name": (env_str("S3_REGION") or "").strip() or None,
            "access_key": access_key,
            "secret_key": secret_key,
            "default_acl": None,
            "querystring_auth": True,
            "file_overwrite": True,
        },
    }


RATE_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(text: str) -> tuple[int, int]:
    """A rate in DRF's syntax, ``"20/min"`` → ``(20, 60)``: attempts allowed and the window in seconds."""
    number, _, period = text.strip().partition("/")
    try:
        allowed = int(number)
        window = RATE_PERIODS[period.strip()[:1].lower()]
    except (ValueError, KeyError):
        raise ValueError(f"expected N/second, N/minute, N/hour or N/day, got {text!r}") from None
    if allowed < 1:
        raise ValueError(f"expected at least 1 attempt per period, got {text!r}")
    return allowed, window


def env_rate(name: str, default: str) -> str:
    raw = env_str(name, default) or default
    try:
        parse_rate(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}: {exc}") from None
    return raw
