"""Two web instances and two Celery workers on one PostgreSQL and one Redis run one event
consistently: a round published through one instance is served fresh by the other at once (the
page cache of both is invalidated through the event generation in Redis), the open pages' live
check moves on both, a result entered through the second shows on the first, and the round's
printed documents are rendered by the workers.

Runs in CI's service part (``REDIS_URL`` and PostgreSQL); skipped in the embedded run. The
instances and workers get a cache key prefix and a queue of their own, so nothing from another
test (or the CI worker) is shared with them.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from email.message import Message
from pathlib import Path
from urllib.parse import quote, urlparse, urlunparse

import pytest
from django.conf import settings
from django.db import connection
from rest_framework.authtoken.models import Token

from documents.enums import JobStatus
from documents.models import DocumentJob
from tests.conftest import IN_CI
from tests.factories import UserFactory
from tests.tournaments.pages.builders import TEAMS, build_event
from tournaments.models import Match

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _services_missing() -> str | None:
    if not settings.REDIS_URL:
        return "no REDIS_URL: embedded mode runs one web process"
    if connection.vendor != "postgresql":
        return "the instances need the test database too, which only PostgreSQL shares"
    return None


pytestmark = [
    pytest.mark.services,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not settings.REDIS_URL or (_services_missing() is not None and not IN_CI),
        reason=_services_missing() or "",
    ),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env(tmp_path: Path) -> dict[str, str]:
    parsed = urlparse(os.environ["DATABASE_URL"])
    test_database = urlunparse(parsed._replace(path="/" + settings.DATABASES["default"]["NAME"]))
    run = uuid.uuid4().hex[:12]
    return os.environ | {
        "DATABASE_URL": test_database,
        "DATABASE_CONN_MAX_AGE": "0",
        "CACHE_KEY_PREFIX": f"two-instances-{run}",
        "CELERY_TASK_DEFAULT_QUEUE": f"two-instances-{run}",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_COOKIES": "false",
        "MEDIA_ROOT": str(tmp_path / "media"),
        "DEBUG": "false",
    }


@pytest.fixture
def cluster(tmp_path):
    """Two web instances (``scripts/serve-web``, two processes each) and two Celery workers; their
    base URLs."""
    env = {**_env(tmp_path), "WEB_CONCURRENCY": "2"}
    processes: list[subprocess.Popen] = []
    ports = [_free_port(), _free_port()]

    def start(command: list[str], log_name: str) -> None:
        log = open(tmp_path / log_name, "wb")  # noqa: SIM115 - closed with the process
        processes.append(
            subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        )
        log.close()

    for number, port in enumerate(ports, start=1):
        start([str(ROOT / "scripts" / "serve-web"), f"127.0.0.1:{port}"], f"web{number}.log")
    for number in (1, 2):
        start(
            [
                str(BIN / "celery"), "-A", "config", "worker", "-Q", env["CELERY_TASK_DEFAULT_QUEUE"],
                "--concurrency=1", "--without-gossip", "--without-mingle", "--loglevel=INFO",
                f"--hostname=two-instances-{number}@%h",
            ],
            f"worker{number}.log",
        )  # fmt: skip
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        for base in bases:
            deadline = time.monotonic() + 120
            while True:
                try:
                    urllib.request.urlopen(f"{base}/healthz", timeout=10)
                    break
                except OSError:  # not listening yet, or still importing
                    if time.monotonic() > deadline:
                        raise AssertionError(_logs(tmp_path)) from None
                    time.sleep(0.5)
        yield bases
    finally:
        for process in processes:
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)


def _logs(tmp_path: Path) -> str:
    return "\n".join(
        f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}" for p in sorted(tmp_path.glob("*.log"))
    )


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, str, Message]:
    """Status, body and headers (looked up case-insensitively: HTTP/1.1 names are, and the server
    sends them in lower case)."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode(), response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), error.headers


def _post(url: str, token: str, body: bytes = b"{}", method: str = "POST") -> int:
    request = urllib.request.Request(
        url,
        data=body,
        method=method,
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.status


def test_two_instances_serve_the_same_fresh_event(cluster, tmp_path):
    first, second = cluster
    organizer = UserFactory(username="orga", is_staff=True)
    event = build_event(organizer, TEAMS)
    token = Token.objects.create(user=organizer).key
    page = f"/events/{event.id}/"

    # Both instances have the event page cached, and the live check's ETag, before the round.
    for base in cluster:
        status, body, _ = _get(base + page)
        assert status == 200 and "Pairings appear here when the next round is published." in body
        assert _get(base + page)[1] == body  # the stored copy
    _, _, live = _get(f"{second}/events/{event.id}/live/")
    assert _get(f"{second}/events/{event.id}/live/", {"If-None-Match": live["ETag"]})[0] == 304

    assert _post(f"{first}/api/v1/tournaments/{event.id}/rounds/", token) == 201
    assert _post(f"{first}/api/v1/tournaments/{event.id}/rounds/1/publish/", token) in (200, 201)

    # The other instance moves on at once: its live check, its stored page.
    assert _get(f"{second}/events/{event.id}/live/", {"If-None-Match": live["ETag"]})[0] == 200
    for base in (second, first):
        status, body, _ = _get(base + page)
        assert status == 200 and "Round 1 pairings" in body, _logs(tmp_path)

    match = Match.objects.select_related("team_a").get(round__tournament=event, round__number=1, table=1)
    player = match.team_a.players.order_by("position").first()
    find = f"{page}?q={quote(player.name)}"
    assert "Record 0-0-0" in _get(first + find)[1]
    result = f'{{"team_a_wins": 1, "team_b_wins": 0, "draws": 0, "version": {match.version}}}'.encode()
    assert _post(f"{second}/api/v1/matches/{match.id}/result/", token, result, "PUT") in (200, 201)
    for base in (first, second):
        assert "Record 1-0-0 · 3 MP" in _get(base + find)[1]

    # The round's printed documents were queued by the instance and rendered by the workers.
    deadline = time.monotonic() + 180
    jobs = DocumentJob.objects.filter(round__tournament=event, round__number=1)
    while time.monotonic() < deadline:
        if jobs.exists() and not jobs.exclude(status=JobStatus.DONE).exists():
            break
        time.sleep(1)
    assert jobs.count() >= 3 and set(jobs.values_list("status", flat=True)) == {JobStatus.DONE}, _logs(
        tmp_path
    )


def test_the_production_server_answers_through_a_hall_of_slow_and_idle_phones(tmp_path):
    """Issue 28: ``scripts/serve-web`` in production mode, 300 connections sending a header line
    every 5 s and 1,000 idle ones held open: 60 ordinary ``/healthz`` requests all answer, p99 < 1 s."""
    sys.path.insert(0, str(ROOT / "bench"))
    from siege import siege

    port = _free_port()
    with open(tmp_path / "web.log", "wb") as log:
        server = subprocess.Popen(
            [str(ROOT / "scripts" / "serve-web"), f"127.0.0.1:{port}"],
            cwd=ROOT,
            env={**_env(tmp_path), "WEB_CONCURRENCY": "2"},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 120
        while not _healthy(port):
            assert time.monotonic() < deadline, _logs(tmp_path)
            time.sleep(0.5)
        result = siege("127.0.0.1", port, idle=1000, slow=300, requests=60)
        assert (result.held_idle, result.held_slow) == (1000, 300)
        assert result.failures == []
        assert result.p99 < 1.0, sorted(result.latencies)[-5:]
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def _healthy(port: int) -> bool:
    try:
        return _get(f"http://127.0.0.1:{port}/healthz")[0] == 200
    except OSError:  # not listening yet, or still importing
        return False
