"""Benchmark: pairing a 1,024-team round in embedded mode, as `make run` serves it.

Run with ``make bench`` (or ``.venv/bin/python bench/bench_embedded_pairing.py``). It builds a
1,024-team event (two players a team) in a throwaway SQLite database, starts the embedded stack
exactly as ``make run`` does (``manage.py runembedded``: the web server, and a Celery worker with
beat on the filesystem broker), then, ``--runs`` times: POSTs the pairing of round 1 to the API
with the organizer's token and times the answer; waits for the round's three PDFs (pairings by
table, by name, result slips) to be done by the worker; and deletes the round again (re-pair) for
the next run. Prints the request's median, best and worst, the CPU time the web server processes
spent on it (from ``/proc``: what the answer costs whatever else the machine is doing), and when
the PDFs were all done.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def environment(workdir: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"REDIS_URL", "DATABASE_URL", "EMBEDDED_WORKER", "SECRET_KEY"}
    }
    env.update(
        DATABASE_URL=f"sqlite:///{workdir}/bench.sqlite3",
        # A database URL needs a secret key (config/settings refuses the repository's development key).
        SECRET_KEY="bench-only-embedded-pairing",
        MEDIA_ROOT=f"{workdir}/media",
        CELERY_DATA_DIR=f"{workdir}/celery",
        CACHE_DIR=f"{workdir}/cache",
        DJANGO_SETTINGS_MODULE="config.settings",
        LOG_LEVEL="WARNING",
        DEBUG="false",
    )
    return env


def build_event(teams: int) -> tuple[int, str]:
    """The event and the organizer's API token; no round yet."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from tournaments.models import Player, Team
    from tournaments.services.events import tournament_create

    organizer = get_user_model().objects.create_user("bench-organizer")
    tournament = tournament_create(
        actor=organizer, name=f"Benchmark Open 2HG ({teams} teams)", venue="Convention Hall", swiss_rounds=11
    )
    Team.objects.bulk_create(
        Team(tournament=tournament, name=f"Team {i:04d} of the Giants") for i in range(teams)
    )
    Player.objects.bulk_create(
        Player(
            tournament=tournament,
            team=team,
            name=f"Player{team.id * 2 + seat:05d} Lastname{((team.id * 2 + seat) * 7919) % 100000:05d}",
            wizards_id=f"player{team.id * 2 + seat}@bench.example.org",
            position=seat,
        )
        for team in Team.objects.filter(tournament=tournament).order_by("id")
        for seat in range(2)
    )
    return tournament.id, Token.objects.create(user=organizer).key


def cpu_seconds(pgid: int) -> float:
    """User + system CPU time so far of every process in the group ``pgid`` (Linux ``/proc``): the
    web server's main process and its workers, which answer the requests."""
    ticks = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def web_server_pid(log: Path, timeout: float = 60) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = re.search(r"web server pid (\d+)", log.read_text())
        if found:
            return int(found.group(1))
        time.sleep(0.2)
    raise SystemExit("runembedded did not say its web server's pid")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_up(base: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise SystemExit("the embedded web server did not come up")


def pair(base: str, tournament_id: int, token: str) -> float:
    request = urllib.request.Request(
        f"{base}/api/v1/tournaments/{tournament_id}/rounds/",
        data=b"{}",
        method="POST",
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=60) as answer:
        json.loads(answer.read())
        status = answer.status
    elapsed = time.perf_counter() - started
    if status != 201:
        raise SystemExit(f"pairing answered {status}")
    return elapsed


def wait_for_documents(tournament_id: int, timeout: float = 300) -> float:
    """Seconds until the round's three automatic documents are done."""
    from documents.models import DocumentJob

    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        statuses = list(
            DocumentJob.objects.filter(tournament_id=tournament_id, round__number=1).values_list(
                "status", flat=True
            )
        )
        if len(statuses) == 3 and all(status == "done" for status in statuses):
            return time.perf_counter() - started
        if "failed" in statuses:
            raise SystemExit("a document failed")
        time.sleep(0.2)
    raise SystemExit(f"documents not done after {timeout} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-embedded-") as workdir:
        env = environment(workdir)
        os.environ.update(env)
        for key in ("REDIS_URL", "EMBEDDED_WORKER"):
            os.environ.pop(key, None)
        import django

        django.setup()
        from django.core.management import call_command

        from tournaments.models import Round
        from tournaments.services.rounds import round_delete

        call_command("migrate", verbosity=0)
        tournament_id, token = build_event(args.teams)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        log = Path(workdir) / "runembedded.log"
        with open(log, "wb") as out:
            server = subprocess.Popen(
                [sys.executable, "manage.py", "runembedded", f"127.0.0.1:{port}"],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            wait_until_up(base)
            web = web_server_pid(log)
            time.sleep(5)  # the worker warms WeasyPrint before it takes tasks
            requests, cpu, documents = [], [], []
            for _ in range(args.runs):
                before = cpu_seconds(web)
                requests.append(pair(base, tournament_id, token))
                cpu.append(cpu_seconds(web) - before)
                documents.append(wait_for_documents(tournament_id))
                first = Round.objects.get(tournament_id=tournament_id, number=1)
                round_delete(round_row=first, actor=first.tournament.created_by)
        finally:
            os.killpg(server.pid, signal.SIGINT)
            server.wait(timeout=60)
    print(f"{os.cpu_count()} cores, Python {platform.python_version()}, {args.teams} teams, {args.runs} runs")
    print()
    print("| Step | Median | Best | Worst |")
    print("|---|---:|---:|---:|")
    print(
        f"| POST pair round 1 (answer) | {statistics.median(requests):.2f} s | {min(requests):.2f} s "
        f"| {max(requests):.2f} s |"
    )
    print(
        f"| CPU time of the web server for that request | {statistics.median(cpu):.2f} s | {min(cpu):.2f} s "
        f"| {max(cpu):.2f} s |"
    )
    print(
        f"| its three PDFs done by the worker, after the answer | {statistics.median(documents):.1f} s "
        f"| {min(documents):.1f} s | {max(documents):.1f} s |"
    )


if __name__ == "__main__":
    main()
