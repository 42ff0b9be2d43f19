"""``manage.py runembedded [addr:port]``: embedded mode as one process tree, what ``make run`` starts.

Two children, each in its own process group:

* the web server, the production one (``common.server``: granian, on which an idle or slow phone
  costs no thread), answering requests;
* a Celery worker with beat inside it, on kombu's filesystem transport (``settings.CELERY_DATA_DIR``):
  documents render there, outside the request, and the periodic sweeps run (round clock, orphaned
  document jobs; ``CELERY_BEAT_SCHEDULE``).

Both get ``EMBEDDED_WORKER=true``, which turns eager Celery off (``config/settings.py``), and
``PUBLIC_URL``: the one given, else the address phones reach this server at
(``common.public_address``: on all interfaces, the machine's LAN address), printed at start with a
QR code. ``--demo`` first migrates and sets up the demo (``setup_demo``) with that address, so its
printed slips carry it. Ctrl-C (or SIGTERM) stops both within a few seconds; a worker that dies
(killed, out of memory) is started again, and the sweep finishes the job it was rendering. If the
web server exits, everything stops.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import segno
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from common.public_address import is_loopback, public_url_for
from common.server import split_bind, web_command

#: Seconds between a worker's death and its restart, so a worker that cannot start does not spin.
RESTART_DELAY = 2.0
#: Seconds the children get to stop after SIGTERM before they are killed: an interrupted render is
#: finished by the next worker's sweep, so nothing is worth a longer wait at Ctrl-C.
STOP_TIMEOUT = 3.0
#: Web server threads per process; one process per core.
WEB_THREADS = 4


def worker_command(*, concurrency: int) -> list[str]:
    """The embedded worker: beat inside it; no gossip, mingle or event heartbeats (one worker, and
    the filesystem transport has no broadcast to spend on them)."""
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "--beat",
        f"--schedule={settings.CELERY_BEAT_SCHEDULE_FILENAME}",
        f"--concurrency={concurrency}",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "--loglevel=WARNING",
    ]


def prepare_broker_folders(data_dir: Path) -> None:
    for name in ("queue", "control"):
        (data_dir / name).mkdir(parents=True, exist_ok=True)


class Command(BaseCommand):
    help = "Serve embedded mode: the web server and a Celery worker with beat, stopped together by Ctrl-C."

    def add_arguments(self, parser) -> None:
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument("--concurrency", type=int, default=3, help="worker processes (default 3)")
        parser.add_argument(
            "--web-processes",
            type=int,
            default=os.cpu_count() or 1,
            help="web server processes (one per core)",
        )
        parser.add_argument("--demo", action="store_true", help="migrate and set up the demo first")

    def handle(
        self, *args, addrport: str, concurrency: int, web_processes: int, demo: bool, **options
    ) -> None:
        try:
            host, port = split_bind(addrport)
        except ValueError as error:
            raise CommandError(str(error)) from None
        public_url = os.environ.get("PUBLIC_URL") or public_url_for(host, port)
        env = {**os.environ, "EMBEDDED_WORKER": "true", "PUBLIC_URL": public_url}
        prepare_broker_folders(Path(settings.CELERY_DATA_DIR))
        if demo:
            for step in (["migrate", "--noinput"], ["setup_demo"]):
                subprocess.run(
                    [sys.executable, "manage.py", *step], cwd=settings.BASE_DIR, env=env, check=True
                )
        self._announce(host, port, public_url)
        self._serve(web_command(addrport, processes=web_processes, threads=WEB_THREADS), env, concurrency)

    def _announce(self, host: str, port: int, public_url: str) -> None:
        """Say where phones reach the site: the address and a QR code of it, for the organizer's
        own phone; bound to loopback, that only this machine can."""
        self.stdout.write(f"Serving on {host}:{port}; phones open {public_url}/")
        if not is_loopback(host):
            self.stdout.flush()
            segno.make(f"{public_url}/", error="m").terminal(out=sys.stdout, compact=True)
        else:
            self.stdout.write(
                "Only this computer can open it. To serve the hall's network: make run HOST=0.0.0.0"
            )
        self.stdout.flush()

    def _serve(self, web_command_line: list[str], env: dict[str, str], concurrency: int) -> None:
        stopping = False

        def start(command: list[str]) -> subprocess.Popen:
            return subprocess.Popen(command, cwd=settings.BASE_DIR, env=env, start_new_session=True)

        def stop(*_args) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        worker = start(worker_command(concurrency=concurrency))
        web = start(web_command_line)
        self.stdout.write(f"web server pid {web.pid}, worker pid {worker.pid} (Ctrl-C stops both)")
        self.stdout.flush()
        try:
            while not stopping:
                if web.poll() is not None:
                    self.stderr.write(f"the web server exited with {web.returncode}; stopping")
                    break
                if worker.poll() is not None:
                    self.stderr.write(f"the worker exited with {worker.returncode}; starting it again")
                    _stop_group(worker)
                    time.sleep(RESTART_DELAY)
                    worker = start(worker_command(concurrency=concurrency))
                    self.stdout.write(f"worker pid {worker.pid}")
                time.sleep(0.2)
        finally:
            _stop_groups([web, worker])
        # Nothing is left to tear down: leave without the interpreter's teardown of every module,
        # which takes seconds on a busy machine while Ctrl-C seems not to have worked.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0 if stopping else 1)


def _stop_group(child: subprocess.Popen) -> None:
    _stop_groups([child])


def _stop_groups(children: list[subprocess.Popen]) -> None:
    """SIGTERM each child (the web server's and the worker's main process, which stop their own
    processes: a pool whose members are signalled too spends seconds mourning them), then SIGKILL
    whatever is left of their process groups after ``STOP_TIMEOUT``: the whole tree is gone within
    a few seconds. (Killed grandchildren may linger as zombies until init reaps them: they hold no
    port, file or memory.)"""
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT
    alive = children
    while alive and time.monotonic() < deadline:
        time.sleep(0.05)
        alive = [child for child in alive if _group_alive(child)]
    for child in alive:
        _signal_group(child, signal.SIGKILL)
        child.wait()


def _signal_group(child: subprocess.Popen, sig: int) -> None:
    child.poll()
    try:
        os.killpg(child.pid, sig)
    except ProcessLookupError:
        pass


def _group_alive(child: subprocess.Popen) -> bool:
    """Whether a process of the child's group still runs. Zombies do not count: a killed pool
    member stays in the group until init reaps it, which some containers' init does slowly."""
    child.poll()
    proc = Path("/proc")
    if not (proc / "self" / "stat").exists():  # not Linux: any member, zombie or not
        try:
            os.killpg(child.pid, 0)
        except ProcessLookupError:
            return False
        return True
    for entry in proc.iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == child.pid and fields[0] != "Z":  # state, ppid, pgrp
                return True
    return False
