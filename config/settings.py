"""One settings module for every deployment.

The defaults are the embedded mode a newcomer gets from ``make run``: a SQLite file in the
project folder, Celery tasks run in-process, no services. Production is switched on by the
environment only (``DATABASE_URL``, ``REDIS_URL``, ``SECRET_KEY``, ``ALLOWED_HOSTS``,
``DEBUG``); see ``.env.example``.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured

from config.env import (
    env_bool,
    env_choice,
    env_database,
    env_int,
    env_list,
    env_media_storage,
    env_public_url,
    env_rate,
    env_redis_url,
    env_str,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)
DEV_SECRET_KEY = "embedded-mode-only-not-secret-0f3c9b2e7d1a4c58b6e2f9a7c3d5e1b8"
SECRET_KEY = env_str("SECRET_KEY") or ""
DATABASES = {
    "default": env_database(
        "DATABASE_URL", str(BASE_DIR / "db.sqlite3"), conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60)
    )
}
REDIS_URL = env_redis_url("REDIS_URL")
EMBEDDED = DATABASES["default"]["ENGINE"].endswith("sqlite3") and REDIS_URL is None

if not SECRET_KEY:
    # The development key is public (it is in this file): only a machine with no services of its
    # own may run on it, whatever DEBUG says.
    if env_str("DATABASE_URL") or REDIS_URL:
        raise ImproperlyConfigured("SECRET_KEY: must be set when DATABASE_URL or REDIS_URL is set")
    SECRET_KEY = DEV_SECRET_KEY

#: The site's address as players' phones reach it, the start of every absolute link the app prints
#: or renders (slip QR codes, invite links, the projector's QR code; ``common.links.public_url``),
#: the worker's too, which renders slips with no request. ``manage.py runembedded`` sets it from the
#: address it serves (``common.public_address``); production sets it.
PUBLIC_URL = env_public_url("PUBLIC_URL", "http://localhost:8000")
_PUBLIC_HOST = urlsplit(PUBLIC_URL).hostname or "localhost"
# The public address is always accepted: it is the one every printed link names.
ALLOWED_HOSTS = [
    *env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"]),
    f"[{_PUBLIC_HOST}]" if ":" in _PUBLIC_HOST else _PUBLIC_HOST,
]
CSRF_TRUSTED_ORIGINS = [*env_list("CSRF_TRUSTED_ORIGINS", []), PUBLIC_URL]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "common",
    "accounts",
    "tournaments",
    "clock",
    "decklists",
    "penalties",
    "documents",
    "floor",
    "event_io",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A signed-out reader's stored public page and the live check, answered before the rest
    # (tournaments.page_cache).
    "tournaments.middleware.PublicFastPathMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "common.middleware.ApiBodySizeLimitMiddleware",
    "common.middleware.DatabaseUnavailableMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the session's (the switcher), else the cookie, else Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A mirrored event (a copy of one run elsewhere) refuses every write with 409 (event_io.mirror_guard).
    "event_io.mirror_guard.MirrorReadOnlyMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # An event's pages show times in the event's time zone (``Tournament.time_zone``).
    "tournaments.middleware.EventTimeZoneMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # event_mirror / mirror_target: "mirror of an event run elsewhere", the mirror's state.
                "event_io.mirror_guard.mirror_context",
            ],
        },
    },
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Usernames are matched as accounts/usernames.py says (case, width and look-alike letters).
AUTHENTICATION_BACKENDS = ["accounts.backends.UsernameBackend"]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

#: The shipped languages (``locale/``), the same set as the event setting ``language``
#: (``tournaments.domain.choices.Language``; a test keeps them equal). English is the source language.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("es", "Español"),
    ("pt-br", "Português (Brasil)"),
    ("ja", "日本語"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "UTC")
#: Who may create events on the site's pages: "staff" (staff accounts, superusers and accounts
#: given the tournaments.add_tournament permission) or "everyone" (any logged-in account).
EVENT_CREATORS = env_str("EVENT_CREATORS", "staff")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(BASE_DIR / "media")))
# Media (generated PDFs): MEDIA_ROOT on disk, or MEDIA_STORAGE=s3 with the S3_* variables.
STORAGES = {
    "default": env_media_storage("MEDIA_STORAGE"),
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG or EMBEDDED
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# Embedded mode serves the static files from the apps' folders as they are (no collectstatic),
# whatever DEBUG says: its web server is the production one (common/server.py), not runserver.
WHITENOISE_USE_FINDERS = DEBUG or EMBEDDED
WHITENOISE_AUTOREFRESH = DEBUG
# Paper of the documents printed automatically (pairings and slips when a round is paired...).
DOCUMENTS_DEFAULT_PAPER = env_choice("DOCUMENTS_PAPER", {"a4": "A4", "letter": "letter"}, "a4")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 1_048_576)

# Short Redis timeouts for the cache and Celery alike: an unreachable Redis costs a request about a
# second, never the operating system's minutes-long connect timeout.
REDIS_TIMEOUTS = {"socket_connect_timeout": 1, "socket_timeout": 2}
# The cache (public pages, event generations, rate-limit counts) lives apart from the Celery broker:
# CACHE_URL names a Redis of its own that evicts the least recently used keys when full, while the
# broker's (REDIS_URL) evicts nothing, so no amount of cached pages can stop the workers
# (docs/deploy.md, "The cache and the broker"). Unset, the cache shares REDIS_URL's Redis.
CACHE_URL = env_redis_url("CACHE_URL") or REDIS_URL
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            "OPTIONS": dict(REDIS_TIMEOUTS),
            # Several sites (or test runs) sharing one Redis database keep apart by a prefix.
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", ""),
        }
    }
elif env_bool("EMBEDDED_WORKER", False):
    # Embedded mode's web server and worker are separate processes: the cache they share (the
    # events' generations, which move on the worker's writes too, tournaments/live.py) is a folder.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": env_str("CACHE_DIR", str(BASE_DIR / "var" / "cache")),
            "OPTIONS": {"MAX_ENTRIES": 20_000},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Celery. Production: Redis is the broker and result store, a worker and beat run beside the web server.
# Embedded mode under `make run` (EMBEDDED_WORKER=true, set by `manage.py runembedded`): a real
# worker and beat too, on kombu's filesystem transport (a folder next to the database; no service
# to install), so documents render outside the request as in production. Anything else without
# REDIS_URL (the tests, one-off manage.py commands) runs tasks in-process (eager).
EMBEDDED_WORKER = env_bool("EMBEDDED_WORKER", False)
CELERY_DATA_DIR = Path(env_str("CELERY_DATA_DIR", str(BASE_DIR / "var" / "celery")))
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    # Longer than the hard time limit below, so a task still running is never handed out twice;
    # nothing waits in the broker for long (no ETA tasks: deadlines are swept, see beat below).
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 600),
        **REDIS_TIMEOUTS,
    }
elif EMBEDDED_WORKER:
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_DATA_DIR / "queue"),
        "data_folder_out": str(CELERY_DATA_DIR / "queue"),
        "control_folder": str(CELERY_DATA_DIR / "control"),
    }
    CELERY_RESULT_BACKEND = None
    CELERY_TASK_IGNORE_RESULT = True
else:
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
CELERY_TASK_ALWAYS_EAGER = REDIS_URL is None and not EMBEDDED_WORKER
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 300)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 360)
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_TASK_DEFAULT_QUEUE", "twohg")
# Redis unreachable: a web request that queues work gives up within about two seconds (one retry)
# instead of Celery's default twenty retries, and the work stays pending for the periodic sweep
# (common/queueing.py). The worker keeps retrying its own connection as before.
CELERY_BROKER_CONNECTION_TIMEOUT = 1
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "retry_policy": {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2},
    **REDIS_TIMEOUTS,
}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = REDIS_TIMEOUTS["socket_connect_timeout"]
CELERY_REDIS_SOCKET_TIMEOUT = REDIS_TIMEOUTS["socket_timeout"]

# The log-in and sign-up limit (accounts/throttling.py): failed log-ins per username and per client
# address, sign-ups per address, each at this rate.
LOGIN_THROTTLE_RATE = env_rate("LOGIN_THROTTLE_RATE", "20/min")
# Reverse proxies in front of the app that append the client's address to X-Forwarded-For; 0 (the
# default) uses REMOTE_ADDR and ignores the header, which any client can write.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured(f"TRUSTED_PROXY_COUNT: expected 0 or more, got {TRUSTED_PROXY_COUNT}")

CELERY_BEAT_SCHEDULE_FILENAME = str(CELERY_DATA_DIR / "beat-schedule")
# Every periodic job, in one place; run by `celery -A config beat` (production) or the beat of
# `make run`. Each sweep is idempotent and cheap when there is nothing to do; "expires" drops a
# sweep that waited in the queue past its next run (a busy or stopped worker), so they never pile up.
CELERY_BEAT_SCHEDULE = {
    # Round clock: tables whose own end has passed go into extra turns, a round's time up is
    # recorded once. Services store each round's next deadline; this looks at the passed ones.
    "round-clock-time-up": {
        "task": "clock.round_time_sweep",
        "schedule": float(env_int("CLOCK_SWEEP_SECONDS", 5)),
        "options": {"expires": 5},
    },
    # Documents: requeue jobs whose worker is gone (no heartbeat for DOCUMENTS_ORPHANED_AFTER_SECONDS),
    # or that were never queued (the broker was down) or lost their message.
    "documents-requeue-orphaned": {
        "task": "documents.requeue_orphaned",
        "schedule": float(env_int("DOCUMENTS_SWEEP_SECONDS", 10)),
        "options": {"expires": 10},
    },
}
# A read-only mirror (event_io/mirror_push.py, mirror_copy.py): the laptop's sweep pushes changed
# events every MIRROR_SWEEP_SECONDS, each push waiting at most MIRROR_PUSH_TIMEOUT seconds for the
# server; the server takes pushed files up to MIRROR_MAX_BYTES (gzipped and unpacked alike).
CELERY_BEAT_SCHEDULE["mirror-push"] = {
    "task": "event_io.mirror_sweep",
    "schedule": float(env_int("MIRROR_SWEEP_SECONDS", 5)),
    "options": {"expires": 5},
}
MIRROR_PUSH_TIMEOUT = env_int("MIRROR_PUSH_TIMEOUT", 5)
MIRROR_MAX_BYTES = env_int("MIRROR_MAX_BYTES", 64 * 1024 * 1024)
# A rendering worker's heartbeat, and how long without one means it is gone (a few beats missed).
DOCUMENTS_HEARTBEAT_SECONDS = env_int("DOCUMENTS_HEARTBEAT_SECONDS", 5)
DOCUMENTS_ORPHANED_AFTER_SECONDS = env_int("DOCUMENTS_ORPHANED_AFTER_SECONDS", 30)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_RENDERER_CLASSES": [
        "common.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PARSER_CLASSES": [
        "common.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "common.schema.AutoSchema",
    "EXCEPTION_HANDLER": "common.api.exception_handler",
    # Clients are told apart by address behind the same number of trusted proxies as the log-in limit.
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Two-Headed Giant tournament toolkit API",
    "DESCRIPTION": "Events, teams, pairings, results, standings, decklists, penalties and the round clock.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # A round's "status" is its derived phase; named, so it does not collide with a job's status.
    "ENUM_NAME_OVERRIDES": {
        "RoundPhaseEnum": "tournaments.domain.round_phase.RoundPhase",
        "JobStatusEnum": "documents.enums.JobStatus",
    },
    # Swagger UI from the installed sidecar package, not a CDN: it works offline and under the CSP.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

SESSION_COOKIE_SECURE = not (DEBUG or EMBEDDED) and env_bool("SECURE_COOKIES", True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if (DEBUG or EMBEDDED) else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
SECURE_HSTS_PRELOAD = SECURE_HSTS_SECONDS > 0
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not (DEBUG or EMBEDDED))
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (django-csp): scripts only from this site's own files, never inline (the
# pages' scripts are static files; a test keeps inline scripts and on* attributes out of the
# templates). Styles allow inline: a few style attributes remain, and CSS cannot run script.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A refusal (403, 404, 409) is logged as one line, without its traceback (common/log_filters.py).
    "filters": {"refusals_on_one_line": {"()": "common.log_filters.RefusalsOnOneLine"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["refusals_on_one_line"]},
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # Django's own handlers on its logger go: under DEBUG (`make run` on loopback) its console
    # handler wrote every refusal a second time, traceback and all; no ADMINS are mailed. Its
    # records reach the console above through the root.
    "loggers": {"django": {"handlers": [], "level": "INFO", "propagate": True}},
}
