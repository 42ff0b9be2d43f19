# Two-Headed Giant tournament toolkit: one image for the web process (scripts/serve-web, default command)
# and the Celery worker (`celery -A config worker`). See docs/deploy.md.

# --- Stage 1: install the locked runtime requirements into a virtualenv -------------------------
FROM python:3.11-slim-bookworm AS builder

ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1

COPY requirements.txt /tmp/requirements.txt
# requirements.txt is the pip-tools lock (compiled from requirements.in): every transitive version
# pinned, with hashes, so pip verifies each download (--require-hashes is implied by the hashes).
# All pins ship manylinux wheels (psycopg[binary] bundles libpq), so no compiler is needed; if one
# ever needs a source build, add build-essential here: it never reaches the final image.
RUN python -m venv /opt/venv \
    && /opt/venv/bin/pip install --require-hashes --no-deps -r /tmp/requirements.txt

# --- Stage 2: runtime ---------------------------------------------------------------------------
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    VIRTUAL_ENV=/opt/venv \
    PATH=/opt/venv/bin:$PATH \
    DJANGO_SETTINGS_MODULE=config.settings \
    MEDIA_ROOT=/data/media

# WeasyPrint 70 dlopens GObject, Pango, PangoFT2, HarfBuzz and Fontconfig; these two Pango packages
# pull in the rest. fonts-dejavu-core gives PDFs a real font (without one, text renders as boxes);
# fonts-noto-cjk prints Japanese, Chinese and Korean names, fonts-noto-core Arabic and Hebrew faces
# (static/pdf/print.css names them). The translations' .mo files are committed: no gettext here.
# fontconfig (fc-cache) builds the system font cache here: without a valid one every process rescans
# the fonts and prints "Fontconfig error: No writable cache directories" as the non-root user.
# Fontconfig checks each cache against its font directory's mtime including nanoseconds, which layer
# storage may drop, so the directories get whole-second mtimes before the cache is built.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libpango-1.0-0 \
        libpangoft2-1.0-0 \
        fonts-dejavu-core \
        fonts-noto-cjk \
        fonts-noto-core \
        fontconfig \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /usr/local/share/fonts \
    && find /usr/share/fonts /usr/local/share/fonts -type d -exec touch -d "@$(date +%s)" {} + \
    && fc-cache --force

# Unprivileged runtime user. The code stays root-owned (read-only to the app); only /data is writable.
RUN groupadd --gid 1000 twohg \
    && useradd --uid 1000 --gid twohg --home-dir /app --no-create-home --shell /usr/sbin/nologin twohg \
    && mkdir -p /data/media \
    && chown -R twohg:twohg /data

# Same base image and path as the builder, so the virtualenv runs unchanged here.
COPY --from=builder /opt/venv /opt/venv

WORKDIR /app
COPY . /app

# Collect static files into /app/staticfiles at build time, served by whitenoise at run time.
# The values are throwaway and never reach a running container. DATABASE_URL is set (collectstatic
# does not connect) so settings leave embedded mode and pick CompressedManifestStaticFilesStorage,
# the storage production uses: without its staticfiles.json manifest every {% static %} in a
# production container would fail.
RUN SECRET_KEY=build-only-not-secret \
    DEBUG=false \
    ALLOWED_HOSTS=localhost \
    DATABASE_URL=postgresql://build@localhost/build \
    python manage.py collectstatic --noinput \
    && python -m compileall -q /app

# Numeric, so orchestrators (e.g. Kubernetes runAsNonRoot) can verify it is not root. 1000 = twohg.
USER 1000:1000

EXPOSE 8000

# /healthz reports database and broker status (503 when one is down). The script sends a Host header
# taken from ALLOWED_HOSTS and X-Forwarded-Proto: https, so it also works with SECURE_SSL_REDIRECT.
# The worker has no HTTP server: compose.yaml overrides this check for it (see docs/deploy.md).
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
    CMD ["python", "/app/docker/healthcheck.py"]

# The web server: granian (common/server.py), WEB_CONCURRENCY processes (default one per core) of
# WEB_THREADS threads (default 4). Idle and slow connections wait on its event loop, not on a
# thread, so it needs no buffering proxy in front (docs/deploy.md, "The web server").
CMD ["scripts/serve-web", "0.0.0.0:8000"]
