"""The web server of both modes: granian, a Rust HTTP server, serving ``config.wsgi``.

A hall is hundreds of phones on one congested Wi-Fi: many open a connection and wait, many send
their request slowly. Under a thread-per-connection server (gunicorn's gthread, 2 processes × 4
threads) 16 idle connections took every thread and ``/healthz`` timed out. granian reads and
parses requests on its own event loop, outside Python, and hands the WSGI app only whole requests,
so an idle or slow connection costs a socket and a little memory, never one of the ``threads``
Python threads (bench/README.md, "Slow and idle clients": 300 slow + 1,000 idle connections).

``python -m common.server HOST:PORT`` (what ``scripts/serve-web`` and the image run) execs it;
``manage.py runembedded`` starts the same command as its web server. Sizes come from the
environment: ``WEB_CONCURRENCY`` processes (default: one per core) of ``WEB_THREADS`` threads
(default 4); each thread may hold a database connection, so PostgreSQL's ``max_connections`` must
cover processes × threads of every web instance, plus the workers. Standard library only: this
runs before Django is configured.
"""

from __future__ import annotations

import os
import sys

#: Connections one process accepts at once (granian's ``--backpressure``). Its default, backlog ÷
#: processes (512 for two), refused new connections once 1,300 idle and slow ones were open: a
#: held connection is a socket here, so the bound is the file descriptors, not the threads.
CONNECTIONS_PER_PROCESS = 8192
#: The kernel's queue of connections not yet accepted (``--backlog``).
BACKLOG = 2048
#: A client that has not sent its whole request head by then is dropped (milliseconds). A phone on
#: a bad Wi-Fi sends a few hundred bytes in well under this; a connection that dribbles header lines
#: forever is closed and costs nothing meanwhile.
HEADER_READ_TIMEOUT_MS = 30_000


def split_bind(bind: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::]:8000`` for IPv6, or a bare port on 127.0.0.1) as host and port."""
    host, sep, port = bind.rpartition(":")
    if not sep:
        host, port = "127.0.0.1", bind
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"expected HOST:PORT, got {bind!r}")
    return host.strip("[]") or "0.0.0.0", int(port)


def web_command(bind: str, *, processes: int, threads: int, access_log: bool = False) -> list[str]:
    """The granian command line serving ``config.wsgi`` on ``bind``."""
    host, port = split_bind(bind)
    command = [
        sys.executable,
        "-m",
        "granian",
        "--interface",
        "wsgi",
        "--host",
        host,
        "--port",
        str(port),
        "--workers",
        str(processes),
        "--blocking-threads",
        str(threads),
        "--backlog",
        str(BACKLOG),
        "--backpressure",
        str(CONNECTIONS_PER_PROCESS),
        "--http1-header-read-timeout",
        str(HEADER_READ_TIMEOUT_MS),
        "--http",
        "1",
        "--no-ws",
    ]
    if access_log:
        command.append("--access-log")
    return [*command, "config.wsgi:application"]


def sizes() -> tuple[int, int]:
    """Processes and threads per process, from ``WEB_CONCURRENCY`` and ``WEB_THREADS``."""
    values = []
    for name, default in (("WEB_CONCURRENCY", os.cpu_count() or 1), ("WEB_THREADS", 4)):
        text = os.environ.get(name, "").strip() or str(default)
        if not text.isdigit() or int(text) < 1:
            raise SystemExit(f"{name}: expected a whole number of at least 1, got {text!r}")
        values.append(int(text))
    return values[0], values[1]


def main(argv: list[str]) -> None:
    if len(argv) != 1:
        raise SystemExit("usage: scripts/serve-web HOST:PORT")
    processes, threads = sizes()
    try:
        command = web_command(argv[0], processes=processes, threads=threads, access_log=True)
    except ValueError as error:
        raise SystemExit(f"scripts/serve-web: {error}") from None
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.execv(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
