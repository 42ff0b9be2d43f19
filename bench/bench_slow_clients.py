"""Benchmark: a hall's congested Wi-Fi against both modes' web server (issue 28).

For each mode it starts the server as it ships, on loopback, with the demo event:

* ``embedded``: ``manage.py runembedded --demo`` on a scratch SQLite file, exactly what ``make run``
  starts (web server and worker with beat);
* ``production``: ``scripts/serve-web`` with ``DATABASE_URL`` (a scratch PostgreSQL database) and
  ``REDIS_URL`` (``--redis-db``, flushed before and after), after ``migrate`` and ``setup_demo``.

Then, per mode: 300 connections that send a header line every 5 s and never finish, plus 1,000
idle ones, held open (and reopened if the server drops them) while 60 ordinary ``/healthz``
requests and 60 public-page requests (event page, pairings) are timed one after another
(``bench/siege.py``); then, with no siege, the throughput of ``/healthz`` and the pairings page at
50 keep-alive connections from ``wrk`` (``bench_public_load.hammer_wrk``) and the server's CPU time
per request. Prints one table row per mode. The client shares the machine's cores with the server
(and with whatever else runs there): figures are a floor.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from bench_public_load import free_port, group_cpu_seconds, hammer_wrk, psql  # noqa: E402
from siege import siege  # noqa: E402


def _base_env(workdir: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {"DATABASE_URL", "REDIS_URL", "EMBEDDED_WORKER", "CELERY_LIVE_WORKER", "PUBLIC_URL", "DEBUG"}
    }
    env.update(
        MEDIA_ROOT=f"{workdir}/media",
        CELERY_DATA_DIR=f"{workdir}/celery",
        CACHE_DIR=f"{workdir}/cache",
        STATIC_ROOT=f"{workdir}/static",
        DJANGO_SETTINGS_MODULE="config.settings",
        LOG_LEVEL="WARNING",
    )
    return env


def start_embedded(workdir: str, port: int) -> subprocess.Popen:
    env = {
        **_base_env(workdir),
        "DATABASE_URL": f"sqlite:///{workdir}/db.sqlite3",
        "SECRET_KEY": "bench-embedded",
    }
    return subprocess.Popen(
        [sys.executable, "manage.py", "runembedded", "--demo", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=open(f"{workdir}/server.log", "wb"),  # noqa: SIM115 - the child holds it
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def start_production(workdir: str, port: int, database: str, redis_db: int) -> subprocess.Popen:
    env = {
        **_base_env(workdir),
        "DATABASE_URL": f"postgresql://postgres@127.0.0.1:5432/{database}",
        "REDIS_URL": f"redis://127.0.0.1:6379/{redis_db}",
        "SECRET_KEY": secrets.token_urlsafe(40),
        "DEBUG": "false",
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_COOKIES": "false",
        "PUBLIC_URL": f"http://127.0.0.1:{port}",
        "CELERY_TASK_DEFAULT_QUEUE": f"bench_slow_{os.getpid()}",
    }
    for step in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"], ["setup_demo"]):
        subprocess.run(
            [sys.executable, "manage.py", *step], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL
        )
    return subprocess.Popen(
        [str(ROOT / "scripts" / "serve-web"), f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=open(f"{workdir}/server.log", "wb"),  # noqa: SIM115 - the child holds it
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def wait_until_up(port: int, workdir: str, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/events/1/pairings/", timeout=5) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise SystemExit(f"the server did not come up:\n{Path(workdir, 'server.log').read_text()[-3000:]}")


def measure(port: int, pgid: int, *, idle: int, slow: int, requests: int, seconds: float) -> dict:
    paths = ["/events/1/", "/events/1/pairings/"]
    # Warm every web process (imports, the first render of each page), as a hall's steady state.
    for _ in range(20):
        for path in ["/healthz", *paths]:
            urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10).read()
    health = siege("127.0.0.1", port, idle=idle, slow=slow, requests=requests)
    pages = siege("127.0.0.1", port, idle=idle, slow=slow, requests=requests, paths=paths)
    rates = {}
    for label, path in (("healthz", "/healthz"), ("pairings", "/events/1/pairings/")):
        before = group_cpu_seconds(pgid)
        result = hammer_wrk(port, lambda i, path=path: path, 50, seconds)
        result["cpu_ms"] = (group_cpu_seconds(pgid) - before) * 1000 / max(1, result["requests"])
        rates[label] = result
    return {"healthz": health, "pages": pages, "rates": rates}


def stop(server: subprocess.Popen) -> float:
    """SIGTERM the server's process group; seconds until the whole group is gone."""
    started = time.monotonic()
    os.killpg(server.pid, signal.SIGTERM)
    while time.monotonic() - started < 30:
        server.poll()
        try:
            os.killpg(server.pid, 0)
        except ProcessLookupError:
            return time.monotonic() - started
        time.sleep(0.05)
    os.killpg(server.pid, signal.SIGKILL)
    return float("inf")


@contextmanager
def serving(mode: str, redis_db: int, name: str) -> Iterator[dict]:
    """A mode's server on a free port, in a scratch folder (and for production a scratch database
    and the flushed Redis ``redis_db``), up; yields ``{"port", "workdir", "server"}`` and, once it
    is stopped, records ``stop_seconds`` in it."""
    with tempfile.TemporaryDirectory(prefix=f"bench-{name}-{mode}-") as workdir:
        port = free_port()
        database = f"twohg_bench_{name}_{os.getpid()}"
        served: dict = {"port": port, "workdir": workdir}
        try:
            if mode == "production":
                subprocess.run(["redis-cli", "-n", str(redis_db), "flushdb"], check=True, capture_output=True)
                psql(f"CREATE DATABASE {database}")
                served["server"] = start_production(workdir, port, database, redis_db)
            else:
                served["server"] = start_embedded(workdir, port)
            wait_until_up(port, workdir)
            yield served
        finally:
            if "server" in served:
                served["stop_seconds"] = stop(served["server"])
            if mode == "production":
                psql(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
                subprocess.run(
                    ["redis-cli", "-n", str(redis_db), "flushdb"], check=False, capture_output=True
                )


def run_mode(mode: str, args) -> dict:
    figures: dict = {}
    with serving(mode, args.redis_db, "slow") as served:
        load_before = os.getloadavg()[0]
        # The web server's process group: runembedded starts it in a group of its own.
        found = re.search(r"web server pid (\d+)", Path(served["workdir"], "server.log").read_text())
        figures.update(
            measure(
                served["port"],
                int(found.group(1)) if found else served["server"].pid,
                idle=args.idle,
                slow=args.slow,
                requests=args.requests,
                seconds=args.seconds,
            )
        )
        figures["load"] = (load_before, os.getloadavg()[0])
    figures["stop_seconds"] = served["stop_seconds"]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", default="embedded,production")
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--slow", type=int, default=300)
    parser.add_argument("--requests", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=4.0, help="wrk's time per URL (default 4)")
    parser.add_argument("--redis-db", type=int, default=12)
    args = parser.parse_args()
    print(
        f"{os.cpu_count()} cores, Python {platform.python_version()}; siege: {args.slow} slow + {args.idle} idle "
        f"connections, {args.requests} requests each of /healthz and the public pages; wrk: 50 connections, "
        f"{args.seconds:g} s per URL"
    )
    print()
    print(
        "| mode | /healthz under siege: median / p99 / max, failures | public pages under siege: median / p99 / max, "
        "failures | held / reopened | /healthz req/s | pairings req/s (p99) | CPU per pairings page | "
        "SIGTERM to gone | load before / after |"
    )
    print("|---|---|---|---:|---:|---:|---:|---:|---|")
    for mode in args.modes.split(","):
        if mode == "production" and subprocess.run(["pg_isready", "-q", "-h", "127.0.0.1"]).returncode != 0:
            print(f"| {mode} | skipped: needs PostgreSQL and Redis on 127.0.0.1 |")
            continue
        f = run_mode(mode, args)
        h, p, r = f["healthz"], f["pages"], f["rates"]
        print(
            f"| {mode} | {h.median * 1000:.0f} / {h.p99 * 1000:.0f} / {max(h.latencies) * 1000:.0f} ms, "
            f"{len(h.failures)} | {p.median * 1000:.0f} / {p.p99 * 1000:.0f} / {max(p.latencies) * 1000:.0f} ms, "
            f"{len(p.failures)} | {min(h.held_idle + h.held_slow, p.held_idle + p.held_slow)} / {h.reopened + p.reopened} | {r['healthz']['rps']:.0f} | "
            f"{r['pairings']['rps']:.0f} ({r['pairings']['p99']:.0f} ms) | {r['pairings']['cpu_ms']:.2f} ms | "
            f"{f['stop_seconds']:.1f} s | {f['load'][0]:.1f} / {f['load'][1]:.1f} |"
        )
        for failure in (h.failures + p.failures)[:5]:
            print(f"  failure: {failure}")


if __name__ == "__main__":
    main()
