"""Benchmark: request bodies that arrive slowly, against both modes' web server (a known limit).

``bench_slow_clients.py`` shows that slow and idle connections cost granian a socket, never a
Python thread: granian reads each request's head on its own event loop. A request's *body* is
another matter: granian hands the request to a thread once its head is in, and the thread then
waits for the body as the app reads it (Django parses a form's body; ``config/wsgi.py`` reads what
is left of a refused one). This starts each mode's server as ``bench_slow_clients.py`` does, opens
``--slow`` connections that each POST a form to the log-in page announcing a 1 MB body and send
one byte of it every 2 s, then times ``--requests`` ``/healthz`` requests (5 s timeout each)
beside them. Prints one table row per mode; the figures are in bench/README.md ("Slow request
bodies").
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_slow_clients import serving  # noqa: E402


def slow_bodies(port: int, count: int, stop_event: threading.Event) -> list[socket.socket]:
    """``count`` POSTs whose 1 MB body comes one byte every 2 s until ``stop_event``."""
    head = (
        b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000000\r\n\r\nusername="
    )
    connections = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", port))
        connection.sendall(head)
        connections.append(connection)

    def trickle() -> None:
        while not stop_event.wait(2):
            for connection in connections:
                try:
                    connection.send(b"a")
                except OSError:
                    pass

    threading.Thread(target=trickle, daemon=True).start()
    return connections


def time_healthz(port: int, requests: int) -> tuple[list[float], int]:
    """Milliseconds of each answered ``/healthz`` and the number that failed or took over 5 s."""
    answered, failed = [], 0
    for _ in range(requests):
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as answer:
                answer.read()
            answered.append((time.perf_counter() - started) * 1000)
        except OSError:
            failed += 1
        time.sleep(0.2)
    return answered, failed


def run_mode(mode: str, args: argparse.Namespace) -> tuple[list[float], int]:
    stop_event = threading.Event()
    with serving(mode, args.redis_db, "bodies") as served:
        connections = slow_bodies(served["port"], args.slow, stop_event)
        try:
            time.sleep(3)
            return time_healthz(served["port"], args.requests)
        finally:
            stop_event.set()
            for connection in connections:
                connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", default="embedded,production")
    parser.add_argument("--slow", type=int, default=20)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--redis-db", type=int, default=12)
    args = parser.parse_args()
    print(
        f"{os.cpu_count()} cores; {args.slow} slow request bodies, {args.requests} /healthz requests beside them"
    )
    print()
    print("| mode | /healthz answered | failed or over 5 s | median of the answered |")
    print("|---|---:|---:|---:|")
    for mode in args.modes.split(","):
        answered, failed = run_mode(mode, args)
        median = f"{sorted(answered)[len(answered) // 2]:.0f} ms" if answered else "—"
        print(f"| {mode} | {len(answered)} | {failed} | {median} |", flush=True)


if __name__ == "__main__":
    main()
