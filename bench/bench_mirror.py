"""Benchmark and check: one laptop in the hall, one server for the world, on this machine.

Run with ``make bench`` (or ``.venv/bin/python bench/bench_mirror.py``). Needs PostgreSQL and Redis
on 127.0.0.1. It starts

* a **server** in production mode: PostgreSQL (a scratch database, ``--database``, dropped before
  and after), Redis (``--redis-db``, flushed before and after), ``scripts/serve-web`` on
  ``--server-port``; an account there that may create events, and its API token;
* a **laptop** in embedded mode: ``manage.py runembedded`` (SQLite in a temporary folder, the
  worker with beat on the filesystem broker) on ``--laptop-port``, with a ``--teams``-team 2HG event,
  round 1 paired and published;

then, through HTTP only: starts mirroring on the laptop (``POST .../mirror/``), enters every
result of round 1 on the laptop (timing each request), and polls the server's public standings
(API and page) until they equal the laptop's (team names and every figure), printing how long
that took (the issue asks for at most 30 s) and when the laptop says it pushed (within 10 s);
checks that the server's pages say "mirror of an event run elsewhere" and the laptop's settings
page "mirror last updated"; tries to pair round 2, enter a result and register a team on the
server's mirror (each must be 409); stops mirroring (``DELETE``) and checks that a change on the
laptop is no longer pushed; then points the mirror at a "silent server" (a socket that accepts
connections and never answers) and enters round 2 on the laptop, timing each result (the issue
asks for under 1 s), and checks that ``GET .../mirror/`` and the settings page show the error.
Exits non-zero when a check fails.
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.cookiejar
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable


def call(
    method: str, url: str, body: dict | None = None, token: str | None = None
) -> tuple[int, object, float]:
    """(status, JSON answer, seconds) of one API request."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    request.add_header("Accept", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    elapsed = time.perf_counter() - started
    return status, (json.loads(raw) if raw else None), elapsed


def wait_for(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"{url} did not come up within {seconds} s")


def server_env(workdir: Path, database: str, redis_db: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"EMBEDDED_WORKER", "CELERY_LIVE_WORKER"}}
    env.update(
        DATABASE_URL=f"postgresql://postgres@127.0.0.1:5432/{database}",
        REDIS_URL=f"redis://127.0.0.1:6379/{redis_db}",
        SECRET_KEY=secrets.token_urlsafe(40),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DEBUG="false",
        SECURE_SSL_REDIRECT="false",
        SECURE_COOKIES="false",
        STATIC_ROOT=str(workdir / "static"),
        MEDIA_ROOT=str(workdir / "media"),
        CELERY_TASK_DEFAULT_QUEUE=f"bench_mirror_{os.getpid()}",
        DJANGO_SETTINGS_MODULE="config.settings",
        LOG_LEVEL="WARNING",
    )
    return env


def laptop_env(workdir: Path) -> dict[str, str]:
    drop = {"DATABASE_URL", "REDIS_URL", "EMBEDDED_WORKER", "CELERY_LIVE_WORKER"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(
        DATABASE_URL=f"sqlite:///{workdir}/db.sqlite3",
        SECRET_KEY=secrets.token_urlsafe(40),
        CELERY_DATA_DIR=str(workdir / "celery"),
        CACHE_DIR=str(workdir / "cache"),
        MEDIA_ROOT=str(workdir / "media"),
        DJANGO_SETTINGS_MODULE="config.settings",
        LOG_LEVEL="WARNING",
    )
    return env


def manage(env: dict[str, str], *args: str, stdin: str | None = None) -> str:
    done = subprocess.run(
        [PYTHON, "manage.py", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


SERVER_ACCOUNT = """
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
user = get_user_model().objects.create_user("world-organizer", password=None, is_staff=True)
print(Token.objects.create(user=user).key)
"""

LAPTOP_EVENT = """
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from tournaments.services.events import tournament_create
from tournaments.services.rounds import round_pair, round_publish
from tournaments.registration.planner import PlayerEntry
from tournaments.registration.register import team_register
organizer = get_user_model().objects.create_user("hall-organizer", password="{password}", is_staff=True)
event = tournament_create(actor=organizer, name="Saturday 2HG", swiss_rounds=3, top_cut=0)
for number in range(1, {teams} + 1):
    players = [PlayerEntry(name=f"Player {{number}}-{{seat}}", wizards_id=f"p{{number}}-{{seat}}@example.org")
               for seat in (1, 2)]
    team_register(tournament=event, actor=organizer, name=f"Team {{number:03d}}", players=players)
round_publish(round_row=round_pair(tournament=event, actor=organizer), actor=organizer)
print(event.pk, Token.objects.create(user=organizer).key)
"""


def by_name(standings: list[dict]) -> list[dict]:
    """Standings lines without database ids (the laptop's and the server's differ)."""
    return [{k: v for k, v in line.items() if k not in ("team", "team_id")} for line in standings]


def page_text(url: str, opener=None) -> str:
    with (opener or urllib.request.build_opener()).open(url, timeout=30) as response:
        return response.read().decode()


def standings_table(url: str) -> str:
    """The standings page's table as text (links, whose ids differ, left out)."""
    table = re.search(r"<table.*?</table>", page_text(url), re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", table.group(0)).split()) if table else ""


def signed_in(base: str, username: str, password: str):
    """An opener holding a session of ``username`` on ``base`` (the pages' log-in form)."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    form = page_text(f"{base}/accounts/login/", opener)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    data = urllib.parse.urlencode(
        {"username": username, "password": password, "csrfmiddlewaretoken": token}
    ).encode()
    request = urllib.request.Request(f"{base}/accounts/login/", data=data, headers={"Referer": base + "/"})
    opener.open(request, timeout=30).read()
    return opener


def mirror_status(opener, base: str, event_id: int) -> str:
    """The laptop's settings page's mirror line."""
    found = re.search(
        r'<p id="mirror-status"[^>]*>(.*?)</p>',
        page_text(f"{base}/events/{event_id}/settings/", opener),
        re.S,
    )
    return " ".join(found.group(1).split()) if found else "(no mirror line)"


def enter_round(laptop: str, event_id: int, number: int, token: str) -> list[float]:
    status, detail, _ = call("GET", f"{laptop}/api/v1/tournaments/{event_id}/rounds/{number}/", token=token)
    assert status == 200, detail
    times = []
    for match in detail["matches"]:
        if match.get("team_b") is None or match.get("result_kind") not in (None, "pending"):
            continue
        body = {"team_a_wins": 1, "team_b_wins": 0, "draws": 0, "version": match["version"]}
        status, answer, seconds = call("PUT", f"{laptop}/api/v1/matches/{match['id']}/result/", body, token)
        assert status in (200, 201), (status, answer)
        times.append(seconds)
    return times


def first_push_after(mirror: str, token: str, since: float) -> float:
    """Seconds from ``since`` to the end of the laptop's first push after it (the laptop records a
    push once the server's answer is in, a moment after the server's copy changed)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        pushed = call("GET", mirror, token=token)[1]["last_pushed_at"]
        if pushed and dt.datetime.fromisoformat(pushed).timestamp() > since:
            return dt.datetime.fromisoformat(pushed).timestamp() - since
        time.sleep(0.25)
    return float("inf")


def server_sequence(database: str) -> str:
    """The server's copy's push number, read from its database."""
    return subprocess.run(
        [
            "psql",
            "-qtA",
            "-h",
            "127.0.0.1",
            "-U",
            "postgres",
            "-d",
            database,
            "-c",
            "SELECT string_agg(sequence::text, ',') FROM event_io_mirroredevent",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def stop(processes: list[subprocess.Popen]) -> None:
    """Stop each started server with its children (each runs in a session of its own)."""
    for process in processes:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(process.pid, signal.SIGKILL)


def silent_server(port: int) -> socket.socket:
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(64)
    return listener


def run(args: argparse.Namespace, workdir: Path, processes: list[subprocess.Popen]) -> bool:
    senv, lenv = server_env(workdir, args.database, args.redis_db), laptop_env(workdir / "laptop")
    (workdir / "laptop").mkdir()
    subprocess.run(
        ["psql", "-q", "-h", "127.0.0.1", "-U", "postgres", "-c", f"DROP DATABASE IF EXISTS {args.database}"],
        check=True,
    )
    subprocess.run(
        ["psql", "-q", "-h", "127.0.0.1", "-U", "postgres", "-c", f"CREATE DATABASE {args.database}"],
        check=True,
    )
    subprocess.run(["redis-cli", "-n", str(args.redis_db), "FLUSHDB"], check=True, capture_output=True)
    manage(senv, "migrate", "--noinput")
    manage(senv, "collectstatic", "--noinput")
    server_token = manage(senv, "shell", "-c", SERVER_ACCOUNT).strip().splitlines()[-1]
    manage(lenv, "migrate", "--noinput")
    password = secrets.token_urlsafe(12)
    script = LAPTOP_EVENT.format(teams=args.teams, password=password)
    event_id, laptop_token = manage(lenv, "shell", "-c", script).split()[-2:]
    event_id = int(event_id)

    server = f"http://127.0.0.1:{args.server_port}"
    laptop = f"http://127.0.0.1:{args.laptop_port}"
    processes.append(
        subprocess.Popen(
            [str(ROOT / "scripts" / "serve-web"), f"127.0.0.1:{args.server_port}"],
            cwd=ROOT,
            env={**senv, "WEB_CONCURRENCY": "2"},
            start_new_session=True,
            stderr=(workdir / "server.log").open("w"),
        )
    )
    processes.append(
        subprocess.Popen(
            [
                PYTHON,
                "manage.py",
                "runembedded",
                f"127.0.0.1:{args.laptop_port}",
                "--concurrency",
                "1",
            ],
            cwd=ROOT,
            env=lenv,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=(workdir / "laptop.log").open("w"),
        )
    )
    wait_for(f"{server}/healthz")
    wait_for(f"{laptop}/healthz")
    ok = True

    mirror = f"{laptop}/api/v1/tournaments/{event_id}/mirror/"
    status, answer, _ = call("POST", mirror, {"url": server, "token": server_token}, laptop_token)
    print(f"POST {mirror} -> {status} {answer}")
    started = time.monotonic()
    remote_id = None
    while time.monotonic() - started < 60 and remote_id is None:
        time.sleep(0.5)
        remote_id = call("GET", mirror, token=laptop_token)[1]["remote_id"]
    print(f"first push: the server's event {remote_id}, {time.monotonic() - started:.1f} s after starting")

    times = enter_round(laptop, event_id, 1, laptop_token)
    entered, entered_at = time.monotonic(), time.time()
    laptop_standings = by_name(call("GET", f"{laptop}/api/v1/tournaments/{event_id}/standings/")[1])
    equal_after = None
    while time.monotonic() - entered < 60:
        status, remote, _ = call("GET", f"{server}/api/v1/tournaments/{remote_id}/standings/")
        if status == 200 and by_name(remote) == laptop_standings:
            equal_after = time.monotonic() - entered
            break
        time.sleep(0.25)
    print(
        f"round 1: {len(times)} results entered on the laptop (max {max(times) * 1000:.0f} ms); "
        f"the server's standings ({len(laptop_standings)} lines) equal the laptop's "
        + (f"{equal_after:.1f} s after the last result" if equal_after is not None else "NOT within 60 s")
    )
    if equal_after is None:
        status, remote, _ = call("GET", f"{server}/api/v1/tournaments/{remote_id}/standings/")
        differing = [(a, b) for a, b in zip(laptop_standings, by_name(remote), strict=False) if a != b]
        print(f"the server answers {status}; {len(differing)} lines differ, the first: {differing[:1]}")
        print(f"GET {mirror} -> {call('GET', mirror, token=laptop_token)[1]}")
    ok &= equal_after is not None and equal_after <= 30
    pushed_after = first_push_after(mirror, laptop_token, entered_at)
    print(
        f"the laptop's first push after the last result finished {pushed_after:.1f} s after it (target <= 10 s)"
    )
    ok &= pushed_after <= 10
    laptop_page = standings_table(f"{laptop}/events/{event_id}/standings/")
    server_page = standings_table(f"{server}/events/{remote_id}/standings/")
    print(
        f"standings page: the server's table equals the laptop's: {server_page == laptop_page and bool(laptop_page)}"
    )
    ok &= server_page == laptop_page and bool(laptop_page)
    for path in ("", "standings/", "rounds/1/"):
        banner = re.search(r'id="mirror-banner">([^<]*)<', page_text(f"{server}/events/{remote_id}/{path}"))
        print(f"server /events/{remote_id}/{path}: {banner.group(1) if banner else 'NO MIRROR BANNER'}")
        ok &= banner is not None and "Mirror of an event run elsewhere, last updated" in banner.group(1)
    organizer = signed_in(laptop, "hall-organizer", password)
    line = mirror_status(organizer, laptop, event_id)
    print(f"laptop settings page: {line}")
    ok &= re.fullmatch(r"Mirror last updated \d\d:\d\d\.", line) is not None

    status, answer, _ = call("POST", f"{server}/api/v1/tournaments/{remote_id}/rounds/", {}, server_token)
    print(f"pairing round 2 on the server's mirror: {status} {answer['detail'] if answer else ''}")
    ok &= status == 409
    remote_round = call("GET", f"{server}/api/v1/tournaments/{remote_id}/rounds/1/")[1]
    remote_match = next(m for m in remote_round["matches"] if m.get("team_b") is not None)
    body = {"team_a_wins": 0, "team_b_wins": 1, "draws": 0, "version": remote_match["version"]}
    status, _answer, _ = call(
        "PUT", f"{server}/api/v1/matches/{remote_match['id']}/result/", body, server_token
    )
    print(f"a result on the server's mirror: {status}")
    ok &= status == 409
    team = {"name": "Walk-ins", "players": [{"name": "Ana"}, {"name": "Ben"}]}
    status, _answer, _ = call("POST", f"{server}/api/v1/tournaments/{remote_id}/teams/", team, server_token)
    print(f"registering a team on the server's mirror: {status}")
    ok &= status == 409

    status, _answer, _ = call("DELETE", mirror, token=laptop_token)
    stopped = call("GET", mirror, token=laptop_token)[0]
    before = server_sequence(args.database)
    status_pair, answer, _ = call("POST", f"{laptop}/api/v1/tournaments/{event_id}/rounds/", {}, laptop_token)
    assert status_pair == 201, answer
    time.sleep(12)  # two sweeps and more
    after = server_sequence(args.database)
    print(
        f"DELETE {mirror} -> {status}, then GET -> {stopped}; a change 12 s later: server's push {before} -> {after}"
    )
    ok &= status == 204 and stopped == 404 and before == after

    listener = silent_server(args.silent_port)
    try:
        silent = f"http://127.0.0.1:{args.silent_port}"
        call("POST", mirror, {"url": silent, "token": server_token}, laptop_token)
        call("POST", f"{laptop}/api/v1/tournaments/{event_id}/rounds/2/publish/", {}, laptop_token)
        time.sleep(6)  # a push towards the silent server is under way or has failed by now
        times = enter_round(laptop, event_id, 2, laptop_token)
        print(
            f"round 2 with the mirror pointed at a silent server: {len(times)} results, each "
            f"{min(times) * 1000:.0f}-{max(times) * 1000:.0f} ms (median {sorted(times)[len(times) // 2] * 1000:.0f} ms)"
        )
        ok &= max(times) < 1
        time.sleep(2 * 5 + 2)
        state = call("GET", mirror, token=laptop_token)[1]
        print(f"GET {mirror} -> {state}")
        ok &= bool(state["last_error"])
        line = mirror_status(organizer, laptop, event_id)
        print(f"laptop settings page: {line}")
        ok &= line.startswith("The last push failed:")
    finally:
        listener.close()
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teams", type=int, default=64)
    parser.add_argument("--laptop-port", type=int, default=9381)
    parser.add_argument("--server-port", type=int, default=9382)
    parser.add_argument("--silent-port", type=int, default=9383)
    parser.add_argument("--database", default="bench_mirror")
    parser.add_argument("--redis-db", type=int, default=14)
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="bench-mirror-"))
    processes: list[subprocess.Popen] = []
    try:
        ok = run(args, workdir, processes)
    finally:
        stop(processes)
        subprocess.run(["redis-cli", "-n", str(args.redis_db), "FLUSHDB"], check=False, capture_output=True)
        subprocess.run(
            [
                "psql",
                "-q",
                "-h",
                "127.0.0.1",
                "-U",
                "postgres",
                "-c",
                f"DROP DATABASE IF EXISTS {args.database}",
            ],
            check=False,
        )
        shutil.rmtree(workdir, ignore_errors=True)
    print("all checks hold" if ok else "A CHECK FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
