"""``manage.py runembedded [addr:port]``: embedded mode as one process tree, what ``make run`` starts.

Two children, each in its own process group:

* the web server (``runserver``), answering requests;
* a Celery worker with beat inside it, on kombu's filesystem transport (``settings.CELERY_DATA_DIR``):
  documents render there, outside the request, and the periodic sweeps run (round clock, orphaned
  document jobs; ``CELERY_BEAT_SCHEDULE``).

Both get ``EMBEDDED_WORKER=true``, which turns eager Celery off (``config/settings.py``). Ctrl-C
(or SIGTERM) stops both; a worker that dies (killed, out of memory) is started again, and the
sweep finishes the job it was rendering. If the web server exits, everything stops.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

#: Seconds between a worker's death and its restart, so a worker that cannot start does not spin.
RESTART_DELAY = 2.0
#: Seconds the children get to stop after SIGTERM before they are killed.
STOP_TIMEOUT = 10.0


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
        parser.add_argument("--noreload", action="store_true", help="pass --noreload to runserver")

    def handle(self, *args, addrport: str, concurrency: int, noreload: bool, **options) -> None:
        prepare_broker_folders(Path(settings.CELERY_DATA_DIR))
        env = {**os.environ, "EMBEDDED_WORKER": "true"}
        web_command = [sys.executable, "manage.py", "runserver", addrport]
        if noreload:
            web_command.append("--noreload")
        stopping = False

        def start(command: list[str]) -> subprocess.Popen:
            return subprocess.Popen(command, cwd=settings.BASE_DIR, env=env, start_new_session=True)

        def stop(*_args) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        worker = start(worker_command(concurrency=concurrency))
        web = start(web_command)
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
                time.sleep(0.5)
        finally:
            for child in (web, worker):
                _stop_group(child)


def _stop_group(child: subprocess.Popen) -> None:
    """SIGTERM the child's process group (its pool and reloader children too), then SIGKILL
    whatever is left after ``STOP_TIMEOUT``."""
    for sig, wait in ((signal.SIGTERM, STOP_TIMEOUT), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(child.pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            child.poll()
            try:
                os.killpg(child.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.1)
