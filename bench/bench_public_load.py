"""Benchmark: the public pages of a 1,000-team event under load, against the production web server.

Run with ``make bench`` (or ``.venv/bin/python bench/bench_public_load.py``). Needs PostgreSQL and
Redis on 127.0.0.1 (as CI's service run); it makes a scratch database and uses one Redis database
(``--redis-db``, flushed before and after), so nothing else is touched. It builds a 1,000-team event
(round 1 played, round 2 published: pairings, standings and find-my-table all have something to
show), starts ``scripts/serve-web`` as production runs it (granian: ``--workers`` processes of
``--threads`` threads) on loopback, and then, with
``--connections`` keep-alive connections of a small asyncio HTTP/1.1 client (no dependency), hits
each URL for ``--seconds`` in turn: ``/healthz``, the event page, a find-my-table answer (a different
player's name each request, so each is a new search), the pairings by table and by name, the
standings page and the standings API, and the live endpoint's 304. Prints req/s, median, p99 and
errors per URL, the ratio of the pairings page to ``/healthz``, the page weights, and the load
average before and after (the machine may be shared). The bound: connections × URLs × seconds.

The client runs on the same cores as the server, so the figures are a floor.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def psql(sql: str) -> None:
    subprocess.run(
        ["psql", "-q", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-c", sql], check=True
    )


def environment(workdir: str, database: str, redis_db: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"EMBEDDED_WORKER", "CELERY_LIVE_WORKER"}}
    env.update(
        DATABASE_URL=f"postgresql://postgres@127.0.0.1:5432/{database}",
        REDIS_URL=f"redis://127.0.0.1:6379/{redis_db}",
        SECRET_KEY=secrets.token_urlsafe(40),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DEBUG="false",
        SECURE_SSL_REDIRECT="false",
        SECURE_COOKIES="false",
        STATIC_ROOT=f"{workdir}/static",
        MEDIA_ROOT=f"{workdir}/media",
        CELERY_TASK_DEFAULT_QUEUE=f"bench_{os.getpid()}",
        DJANGO_SETTINGS_MODULE="config.settings",
        LOG_LEVEL="WARNING",
    )
    return env


def build(teams: int) -> tuple[int, list[str]]:
    """A ``teams``-team event: round 1 paired, played and published, round 2 paired and published.
    Returns its id and every player's name (for the searches)."""
    from bench_embedded_pairing import build_event

    from tournaments.models import Player, Tournament
    from tournaments.services.results import match_result_report
    from tournaments.services.rounds import round_pair, round_publish

    tournament_id, _token = build_event(teams)
    tournament = Tournament.objects.get(pk=tournament_id)
    organizer = tournament.created_by
    first = round_publish(round_row=round_pair(tournament=tournament, actor=organizer), actor=organizer)
    for index, match in enumerate(first.matches.exclude(table=None).order_by("table")):
        wins = (1, 0) if index % 3 else (0, 1)
        match_result_report(
            match=match,
            actor=organizer,
            team_a_wins=wins[0],
            team_b_wins=wins[1],
            draws=0,
            version=match.version,
        )
    round_publish(round_row=round_pair(tournament=tournament, actor=organizer), actor=organizer)
    names = list(Player.objects.filter(tournament=tournament).order_by("id").values_list("name", flat=True))
    return tournament_id, names


async def fetch(reader, writer, path: str, headers: str = "") -> tuple[int, int, dict[str, str]]:
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}\r\n".encode())
    await writer.drain()
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("closed")
    status = int(status_line.split()[1])
    fields: dict[str, str] = {}
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b""):
            break
        name, _, value = line.decode("latin-1").partition(":")
        fields[name.strip().lower()] = value.strip()
    length = int(fields.get("content-length", "0"))
    if length:
        await reader.readexactly(length)
    return status, length, fields


async def hammer(port: int, paths, connections: int, seconds: float, headers: str = "") -> dict:
    latencies: list[float] = []
    errors = 0
    statuses: dict[int, int] = {}
    deadline = time.perf_counter() + seconds
    counter = iter(range(10**9))

    async def one() -> None:
        nonlocal errors
        reader = writer = None
        while time.perf_counter() < deadline:
            if writer is None:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            path = paths(next(counter))
            start = time.perf_counter()
            try:
                status, _length, fields = await fetch(reader, writer, path, headers)
            except (ConnectionError, asyncio.IncompleteReadError, ValueError):
                errors += 1
                writer.close()
                writer = None
                continue
            latencies.append(time.perf_counter() - start)
            statuses[status] = statuses.get(status, 0) + 1
            if status >= 500 or status in (400, 404):
                errors += 1
            if fields.get("connection", "").lower() == "close":
                writer.close()
                writer = None
        if writer is not None:
            writer.close()

    began = time.perf_counter()
    await asyncio.gather(*(one() for _ in range(connections)))
    elapsed = time.perf_counter() - began
    latencies.sort()
    return {
        "requests": len(latencies),
        "rps": len(latencies) / elapsed,
        "median": statistics.median(latencies) * 1000 if latencies else float("nan"),
        "p99": latencies[int(len(latencies) * 0.99) - 1] * 1000 if latencies else float("nan"),
        "errors": errors,
        "statuses": statuses,
    }


_WRK_SCRIPT = """
local paths = {%s}
local extra = %s
local counter = 0
request = function()
  counter = counter + 1
  return wrk.format("GET", paths[(counter %% #paths) + 1], extra)
end
"""


def _wrk_ms(text: str) -> float:
    """wrk's latency (``812.00us``, ``3.21ms``, ``1.02s``) in milliseconds."""
    for suffix, factor in (("us", 0.001), ("ms", 1.0), ("s", 1000.0)):
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * factor
    raise ValueError(f"unknown latency unit in {text!r}")


def hammer_wrk(port: int, paths, connections: int, seconds: float, headers: str = "") -> dict:
    """The same load from wrk (Debian's ``wrk``, written in C): the client takes a small part of
    the cores the server shares with it, so the figures are closer to what the server can do."""
    import json
    import re

    listed = [paths(i) for i in range(2000)]
    extra = {}
    for line in headers.split("\r\n"):
        if line:
            name, _, value = line.partition(":")
            extra[name.strip()] = value.strip()
    lua_headers = "{" + ", ".join(f"[{json.dumps(k)}] = {json.dumps(v)}" for k, v in extra.items()) + "}"
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(_WRK_SCRIPT % (", ".join(json.dumps(p) for p in listed), lua_headers))
    try:
        out = subprocess.run(
            ["wrk", "-t2", f"-c{connections}", f"-d{seconds:g}s", "--latency", "-s", script.name,
             f"http://127.0.0.1:{port}/"],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
    finally:
        os.unlink(script.name)
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return {
        "requests": requests,
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "median": _wrk_ms(re.search(r"\s50%\s+([\d.]+\w+)", out).group(1)),
        "p99": _wrk_ms(re.search(r"\s99%\s+([\d.]+\w+)", out).group(1)),
        "errors": (int(bad.group(1)) if bad else 0) + (sum(map(int, sockets.groups())) if sockets else 0),
        "statuses": {},
    }


def group_cpu_seconds(pgid: int) -> float:
    """CPU time (user + system) of every process in the group ``pgid``: the web server's main
    process and workers. Per request, it is what an answer costs whatever else the machine is doing."""
    ticks = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # fields after the name: state, ppid, pgrp, ...
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def settle(pgid: int, quiet: float = 0.3, limit: float = 15.0) -> float:
    """Wait until the server spends no CPU (under 5% of a core over ``quiet`` seconds); return the
    seconds waited. A load client stops at once, but the requests its connections had already sent
    are still served after it leaves (granian reads them before a thread is free and finishes them):
    without this, the URL measured next pays for the previous one's leftovers."""
    began = time.perf_counter()
    last = group_cpu_seconds(pgid)
    while time.perf_counter() - began < limit:
        time.sleep(quiet)
        now = group_cpu_seconds(pgid)
        if now - last < 0.05 * quiet:
            break
        last = now
    return time.perf_counter() - began


def size(port: int, path: str) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}") as response:
        return len(response.read())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=1000)
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="web server processes (default: one per core)",
    )
    parser.add_argument("--threads", type=int, default=4, help="threads per web server process (default 4)")
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=4.0, help="per URL (default 4)")
    parser.add_argument("--redis-db", type=int, default=12)
    parser.add_argument(
        "--client",
        choices=("auto", "wrk", "asyncio"),
        default="auto",
        help="load client: wrk when installed (auto), else the built-in asyncio client",
    )
    args = parser.parse_args()
    client = args.client
    if client == "auto":
        client = "wrk" if shutil.which("wrk") else "asyncio"
    services = (["pg_isready", "-q", "-h", "127.0.0.1"], ["redis-cli", "-h", "127.0.0.1", "ping"])
    for command in services:
        try:
            subprocess.run(command, check=True, capture_output=True, timeout=10)
        except (OSError, subprocess.SubprocessError):
            print(f"skipped: production mode needs PostgreSQL and Redis on 127.0.0.1 ({command[0]} failed)")
            return
    database = f"twohg_bench_{os.getpid()}"
    with tempfile.TemporaryDirectory(prefix="bench-load-") as workdir:
        env = environment(workdir, database, args.redis_db)
        os.environ.update(env)
        subprocess.run(["redis-cli", "-n", str(args.redis_db), "flushdb"], check=True, capture_output=True)
        psql(f"CREATE DATABASE {database}")
        server = None
        try:
            import django

            django.setup()
            from django.core.management import call_command

            call_command("migrate", verbosity=0)
            call_command("collectstatic", verbosity=0, interactive=False)
            tournament_id, names = build(args.teams)
            port = free_port()
            server = subprocess.Popen(
                [str(ROOT / "scripts" / "serve-web"), f"127.0.0.1:{port}"],
                cwd=ROOT,
                env={**env, "WEB_CONCURRENCY": str(args.workers), "WEB_THREADS": str(args.threads)},
                start_new_session=True,
                stdout=subprocess.DEVNULL,
            )
            for _ in range(120):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
                    break
                except OSError:
                    time.sleep(0.5)
            event = f"/events/{tournament_id}"
            urls = {
                "/healthz": lambda i: "/healthz",
                "event page": lambda i: f"{event}/",
                "find my table (a new name each time)": lambda i: (
                    f"{event}/?q={quote(names[i % len(names)])}"
                ),
                "pairings by table 1–50": lambda i: f"{event}/pairings/?tables=1-50",
                "pairings by name G–L": lambda i: f"{event}/pairings/?names=G-L&page=1",
                "standings page 1": lambda i: f"{event}/standings/",
                "standings API": lambda i: f"/api/v1/tournaments/{tournament_id}/standings/",
            }
            # Warm each worker's imports and the first render of each page, as a hall would.
            # Distinct searches, so every worker has computed the event's pairings and records
            # once (tournaments.live.memoized): the steady state of a hall, not its first second.
            for i in range(args.workers * 4):
                for fn in urls.values():
                    urllib.request.urlopen(f"http://127.0.0.1:{port}{fn(len(names) - 1 - i)}").read()
            live = urllib.request.urlopen(f"http://127.0.0.1:{port}{event}/live/")
            etag = live.headers["ETag"]
            weights = {
                "event page": size(port, f"{event}/"),
                "find my table": size(port, f"{event}/?q={quote(names[0])}"),
                "pairings by table 1–50": size(port, f"{event}/pairings/?tables=1-50"),
                "pairings by name G–L": size(port, f"{event}/pairings/?names=G-L&page=1"),
                "standings page 1": size(port, f"{event}/standings/"),
                "standings API": size(port, f"/api/v1/tournaments/{tournament_id}/standings/"),
            }
            load_before = os.getloadavg()
            results = {}
            settled: dict[str, float] = {}
            phases = [(label, paths, "") for label, paths in urls.items()]
            phases.append(("live check (304)", lambda i: f"{event}/live/", f"If-None-Match: {etag}\r\n"))
            for label, paths, headers in phases:
                settled[label] = settle(server.pid)
                before = group_cpu_seconds(server.pid)
                if client == "wrk":
                    results[label] = hammer_wrk(port, paths, args.connections, args.seconds, headers)
                else:
                    results[label] = asyncio.run(hammer(port, paths, args.connections, args.seconds, headers))
                spent = group_cpu_seconds(server.pid) - before
                results[label]["cpu_ms"] = spent * 1000 / max(1, results[label]["requests"])
            load_after = os.getloadavg()
        finally:
            if server is not None:
                os.killpg(server.pid, signal.SIGTERM)
                server.wait(timeout=30)
            from django.db import connections

            connections.close_all()
            psql(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
            subprocess.run(
                ["redis-cli", "-n", str(args.redis_db), "flushdb"], check=False, capture_output=True
            )
    print(
        f"{os.cpu_count()} cores, Python {platform.python_version()}, {args.teams} teams, client {client}, "
        f"scripts/serve-web: {args.workers} processes × {args.threads} threads, "
        f"{args.connections} connections, {args.seconds:g} s per URL; "
        f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after"
    )
    print()
    print("| URL | req/s | median | p99 | errors | server CPU per request | statuses | settled before |")
    print("|---|---:|---:|---:|---:|---:|---|---:|")
    for label, r in results.items():
        statuses = ", ".join(f"{code}×{count}" for code, count in sorted(r["statuses"].items()))
        print(
            f"| {label} | {r['rps']:.0f} | {r['median']:.1f} ms | {r['p99']:.1f} ms | {r['errors']} "
            f"| {r['cpu_ms']:.2f} ms | {statuses} | {settled[label]:.1f} s |"
        )
    ratio = results["pairings by table 1–50"]["rps"] / results["/healthz"]["rps"]
    cores = os.cpu_count() or 1
    print()
    print(f"Pairings page / healthz throughput: {ratio:.0%}")
    print(
        "Throughput the server's CPU per request allows on these cores with nothing else running: "
        + ", ".join(
            f"{label} {cores * 1000 / r['cpu_ms']:.0f} req/s" for label, r in results.items() if r["cpu_ms"]
        )
    )
    print()
    print("| Page (1,000 teams) | weight |")
    print("|---|---:|")
    for label, weight in weights.items():
        print(f"| {label} | {weight / 1024:.1f} KiB |")


if __name__ == "__main__":
    main()
