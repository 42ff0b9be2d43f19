"""Embedded mode as `make run` serves it: its worker killed mid-render with SIGKILL (main process,
pool, render processes), the job is finished within two minutes with no manual step, and Ctrl-C
stops the whole process tree.

Everything runs in child processes on a fresh SQLite file and the filesystem broker: the event
is set up by ``tests/reliability/embedded_event.py``, served by ``manage.py runembedded``, and
read here with the sqlite3 module. What happens: the runner starts the dead worker again; the
job's heartbeat has stopped, so the periodic sweep of the new worker's beat puts it back in the
queue (``documents.requeue_orphaned``) and the worker renders it.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEAMS = 256
COMPLETE_WITHIN = 120
#: Shorter heartbeat and sweep than the defaults (5 s, 30 s, 10 s) to keep the suite fast; the
#: defaults are what the service run's ``test_worker_kill.py`` holds to the two minutes.
FAST_SWEEP = {
    "DOCUMENTS_HEARTBEAT_SECONDS": "1",
    "DOCUMENTS_ORPHANED_AFTER_SECONDS": "6",
    "DOCUMENTS_SWEEP_SECONDS": "2",
}


def _environment(tmp_path: Path) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG"}
    }
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'event.sqlite3'}",
        SECRET_KEY="test-only-embedded-worker",
        CELERY_DATA_DIR=str(tmp_path / "celery"),
        MEDIA_ROOT=str(tmp_path / "media"),
        EMBEDDED_WORKER="true",
        DJANGO_SETTINGS_MODULE="config.settings",
        **FAST_SWEEP,
    )
    return env


def _job_status(database: Path, job_id: int) -> str:
    with sqlite3.connect(database, timeout=20) as db:
        return db.execute("SELECT status FROM documents_documentjob WHERE id = ?", (job_id,)).fetchone()[0]


def _worker_pids(log: Path) -> list[int]:
    return [int(pid) for pid in re.findall(r"worker pid (\d+)", log.read_text())]


def _web_pids(log: Path) -> list[int]:
    return [int(pid) for pid in re.findall(r"web server pid (\d+)", log.read_text())]


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def _wait(condition, timeout: float, what: str, log: Path) -> float:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if condition():
            return time.monotonic() - started
        time.sleep(0.1)
    raise AssertionError(f"{what} not within {timeout} s\n{log.read_text()[-4000:]}")


def test_embedded_worker_killed_mid_render_is_restarted_and_its_job_finished(tmp_path):
    env = _environment(tmp_path)
    database = tmp_path / "event.sqlite3"
    setup = subprocess.run(
        [sys.executable, "-m", "tests.reliability.embedded_event", str(TEAMS)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert setup.returncode == 0, setup.stderr[-3000:]
    job_id = int(setup.stdout.strip().splitlines()[-1])
    assert _job_status(database, job_id) == "pending"

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log = tmp_path / "runembedded.log"
    with open(log, "wb") as out:
        runner = subprocess.Popen(
            [
                sys.executable,
                "manage.py",
                "runembedded",
                f"127.0.0.1:{port}",
                "--concurrency=1",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        _wait(lambda: _job_status(database, job_id) == "running", 120, "the job running", log)
        first_worker = _worker_pids(log)[0]
        os.killpg(first_worker, signal.SIGKILL)
        killed_at = time.monotonic()
        assert _job_status(database, job_id) == "running"

        _wait(
            lambda: _job_status(database, job_id) in {"done", "failed"}, COMPLETE_WITHIN, "the job done", log
        )
        recovered_in = time.monotonic() - killed_at
        assert _job_status(database, job_id) == "done"
        assert len(_worker_pids(log)) == 2, log.read_text()[-4000:]
    finally:
        os.killpg(runner.pid, signal.SIGINT)
        runner.wait(timeout=60)
    assert runner.returncode == 0
    for pgid in [runner.pid, *_web_pids(log), *_worker_pids(log)]:
        _wait(lambda pgid=pgid: not _group_alive(pgid), 20, f"process group {pgid} gone", log)
    with sqlite3.connect(database) as db:
        attempts, pages = db.execute(
            "SELECT attempts, page_count FROM documents_documentjob WHERE id = ?", (job_id,)
        ).fetchone()
    assert (attempts, pages) == (2, TEAMS // 4)
    print(f"embedded worker's job finished {recovered_in:.1f} s after the kill")
