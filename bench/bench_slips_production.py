"""Benchmark of a 1,024-team round's result slips in production mode, from the request to the file.

Run with ``make bench`` (or ``.venv/bin/python bench/bench_slips_production.py``). It starts the
production stack on this machine as docs/deploy.md does, minus the containers: the web server
(``scripts/serve-web``, granian) and a Celery worker (``--concurrency=2``) on PostgreSQL and
Redis. Each run builds a fresh 1,024-team event with round 1 paired (its automatic documents off,
or the timed request would find that file by its content hash), then, as the organizer over
HTTP: ``POST /api/v1/tournaments/{id}/documents/`` for the result slips, polls the job every
50 ms until it is done, and downloads the PDF. The time printed is from sending the request to
holding the whole file, as a scorekeeper's print panel experiences it.

The issue's target: ready within 3 s of the request (``bench/README.md``, "Slips under 3 s").
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_mirror import PYTHON, ROOT, call, manage, server_env, stop, wait_for  # noqa: E402

EVENT = """
from unittest import mock
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from tournaments.models import Player, Team
from tournaments.services.events import tournament_create
from tournaments.services.rounds import round_pair
organizer, _ = get_user_model().objects.get_or_create(username="hall-organizer")
event = tournament_create(actor=organizer, name="Grand Prix 2HG", venue="Convention Hall", swiss_rounds=11)
Team.objects.bulk_create(Team(tournament=event, name=f"Team {{i:04d}} of the Giants") for i in range({teams}))
Player.objects.bulk_create(
    Player(tournament=event, team=team, name=f"Player{{team.id * 2 + seat:05d}} Lastname{{(team.id * 2 + seat) * 7919 % 100000:05d}}",
           wizards_id=f"player{{team.id * 2 + seat}}@bench.example.org", position=seat)
    for team in Team.objects.filter(tournament=event).order_by("id") for seat in (0, 1)
)
with mock.patch("documents.receivers.documents_for_round_paired"):
    round_pair(tournament=event, actor=organizer)
print(event.pk, Token.objects.get_or_create(user=organizer)[0].key)
"""


def time_slips(base: str, event_id: int, token: str) -> tuple[float, int, int]:
    """Seconds from the request to the downloaded file, the job's pages, the file's bytes."""
    started = time.perf_counter()
    status, answer, _ = call(
        "POST", f"{base}/api/v1/tournaments/{event_id}/documents/", {"kind": "result_slips"}, token
    )
    job = answer if isinstance(answer, dict) else {}
    if status != 202:
        raise SystemExit(f"documents request: {status} {job}")
    while True:
        _, answer, _ = call("GET", f"{base}/api/v1/documents/{job['id']}/", token=token)
        state = answer if isinstance(answer, dict) else {}
        if state.get("status") == "done":
            break
        if state.get("status") == "failed" or time.perf_counter() - started > 120:
            raise SystemExit(f"job {job['id']}: {state}")
        time.sleep(0.05)
    request = urllib.request.Request(
        f"{base}/api/v1/documents/{job['id']}/file/", headers={"Authorization": f"Token {token}"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        pdf = answer.read()
    return time.perf_counter() - started, state.get("page_count") or 0, len(pdf)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--port", type=int, default=8761)
    parser.add_argument("--database", default=f"bench_slips_{os.getpid()}")
    parser.add_argument("--redis-db", type=int, default=13)
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="bench-slips-"))
    env = server_env(workdir, args.database, args.redis_db)
    env["CELERY_TASK_DEFAULT_QUEUE"] = f"bench_slips_{os.getpid()}"
    psql = ["psql", "-q", "-h", "127.0.0.1", "-U", "postgres", "-c"]
    processes: list[subprocess.Popen] = []
    try:
        subprocess.run([*psql, f"CREATE DATABASE {args.database}"], check=True)
        subprocess.run(["redis-cli", "-n", str(args.redis_db), "FLUSHDB"], check=True, capture_output=True)
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput")
        events = [
            manage(env, "shell", "-c", EVENT.format(teams=args.teams)).split()[-2:] for _ in range(args.runs)
        ]
        base = f"http://127.0.0.1:{args.port}"
        processes.append(
            subprocess.Popen(
                [str(ROOT / "scripts" / "serve-web"), f"127.0.0.1:{args.port}"],
                cwd=ROOT,
                env=env,
                start_new_session=True,
                stdout=subprocess.DEVNULL,
                stderr=(workdir / "web.log").open("w"),
            )
        )
        processes.append(
            subprocess.Popen(
                [PYTHON, "-m", "celery", "-A", "config", "worker", "--loglevel=WARNING", "--concurrency=2"],
                cwd=ROOT,
                env=env,
                start_new_session=True,
                stderr=(workdir / "worker.log").open("w"),
            )
        )
        wait_for(f"{base}/healthz")
        for _ in range(60):  # the worker is up once it answers a ping
            ping = subprocess.run(
                [PYTHON, "-m", "celery", "-A", "config", "inspect", "ping", "--timeout", "1"],
                cwd=ROOT,
                env=env,
                capture_output=True,
                check=False,
            )
            if ping.returncode == 0:
                break
        time.sleep(2)  # the worker warms WeasyPrint and the URLconf at start (documents.tasks)
        print(f"{os.cpu_count()} cores; production mode: granian + Celery worker, PostgreSQL + Redis")
        print()
        print("| Result slips | Teams | Seconds, request to file | Pages | PDF |")
        print("|---|---:|---:|---:|---:|")
        for event_id, token in events:
            seconds, pages, size = time_slips(base, int(event_id), token)
            print(f"| run | {args.teams:,} | {seconds:.2f} | {pages} | {size / 1e6:.1f} MB |", flush=True)
    finally:
        stop(processes)
        subprocess.run(["redis-cli", "-n", str(args.redis_db), "FLUSHDB"], check=False, capture_output=True)
        subprocess.run([*psql, f"DROP DATABASE IF EXISTS {args.database} WITH (FORCE)"], check=False)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
