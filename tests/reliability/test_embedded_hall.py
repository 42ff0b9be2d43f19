"""Issue 28: embedded mode, started as ``make run`` starts it (``manage.py runembedded --demo``),
serves a hall.

* On a port other than the default, round 1's printed slips carry QR codes that decode to that
  server's own address and port, and the link answers.
* 300 connections that send a header line every 5 s and 1,000 idle ones cost no worker:
  ordinary ``/healthz`` requests during the siege all answer, p99 under 1 s (``bench/siege.py``).
* SIGTERM to the process group stops the whole tree within a few seconds.
* Started on every interface, the address printed, the slips and the link name the machine's LAN
  address: run inside a network namespace this test makes (a veth pair, 10.213.0.1/24, default
  route through it), so no packet leaves the sandbox. Needs root and ``ip``; skipped otherwise.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from siege import siege  # noqa: E402

from tests.conftest import IN_CI  # noqa: E402

LAN_ADDRESS = "10.213.0.1"


@pytest.fixture(scope="module")
def hall(tmp_path_factory) -> Path:
    """One embedded installation (database, media, broker folders) for the module's starts."""
    return tmp_path_factory.mktemp("hall")


def _environment(folder: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "PUBLIC_URL", "ALLOWED_HOSTS"}
    }
    env.update(
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        CELERY_DATA_DIR=str(folder / "celery"),
        MEDIA_ROOT=str(folder / "media"),
        CACHE_DIR=str(folder / "cache"),
        SECRET_KEY="test-only-embedded-hall",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    return env


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start(folder: Path, bind: str, log: Path, prefix: list[str] = ()) -> subprocess.Popen:
    with open(log, "wb") as out:
        return subprocess.Popen(
            [*prefix, sys.executable, "manage.py", "runembedded", "--demo", bind],
            cwd=ROOT,
            env=_environment(folder),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _slip_codes(folder: Path, tmp_path: Path) -> list[str]:
    """The QR codes zbarimg reads on the first page of the newest finished result slips."""
    try:
        with sqlite3.connect(folder / "db.sqlite3", timeout=20) as db:
            row = db.execute(
                "SELECT file FROM documents_documentjob WHERE kind = 'result_slips' AND status = 'done' "
                "ORDER BY finished_at DESC LIMIT 1"
            ).fetchone()
    except sqlite3.OperationalError:  # not migrated yet
        return []
    if not row:
        return []
    png = tmp_path / "slip"
    subprocess.run(
        ["pdftoppm", "-png", "-r", "150", "-f", "1", "-l", "1", str(folder / "media" / row[0]), str(png)]
    )
    found = subprocess.run(
        ["zbarimg", "--quiet", "--raw", *map(str, tmp_path.glob("slip*.png"))], capture_output=True, text=True
    )
    return found.stdout.split()


def _wait_for(condition, timeout: float, what: str, log: Path):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(1)
    raise AssertionError(f"{what} not within {timeout} s\n{log.read_text()[-4000:]}")


def _group_alive(pgid: int) -> bool:
    """Whether a process of the group still runs (zombies, waiting for init, do not)."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                return True
    return False


def _stop(runner: subprocess.Popen, log: Path) -> float:
    """SIGTERM to the runner's process group, as a service manager or ``kill -TERM -PGID`` sends
    it; seconds until the runner and both children's groups are gone."""
    children = [int(pid) for pid in re.findall(r"(?:web server|worker) pid (\d+)", log.read_text())]
    started = time.monotonic()
    os.killpg(runner.pid, signal.SIGTERM)
    runner.wait(timeout=30)
    for pgid in [runner.pid, *children]:
        while _group_alive(pgid) and time.monotonic() - started < 30:
            time.sleep(0.05)
    return time.monotonic() - started


def _tools() -> None:
    for tool in ("pdftoppm", "zbarimg"):
        if not shutil.which(tool):
            (pytest.fail if IN_CI else pytest.skip)(
                f"{tool} is missing: scripts/system-packages.sh installs it"
            )


def test_on_another_port_slips_name_it_a_siege_costs_no_worker_and_sigterm_stops_the_tree(hall, tmp_path):
    _tools()
    port = _free_port()
    log = tmp_path / "runembedded.log"
    runner = _start(hall, f"127.0.0.1:{port}", log)
    try:
        own = f"http://127.0.0.1:{port}"
        codes = _wait_for(
            lambda: [c for c in _slip_codes(hall, tmp_path) if c.startswith(f"{own}/slip/")],
            240,
            "slips",
            log,
        )
        assert codes == _slip_codes(hall, tmp_path)  # every code on the page, none of another address
        assert f"phones open {own}/" in log.read_text()
        _wait_for(lambda: _answers(f"{own}/healthz"), 120, "the web server", log)
        assert _answers(codes[0])

        result = siege("127.0.0.1", port, idle=1000, slow=300, requests=60)
        assert (result.held_idle, result.held_slow) == (1000, 300)
        assert result.failures == []
        assert result.p99 < 1.0, sorted(result.latencies)[-5:]
    finally:
        stopped_in = _stop(runner, log)
    assert stopped_in < 5, log.read_text()[-3000:]


def _answers(url: str, prefix: list[str] = ()) -> bool:
    fetch = f"import urllib.request; print(urllib.request.urlopen({url!r}, timeout=10).status)"
    run = subprocess.run([*prefix, sys.executable, "-c", fetch], capture_output=True, text=True, timeout=60)
    return run.stdout.strip() == "200"


@pytest.fixture
def namespace():
    """A network namespace whose default route leaves by a veth pair with ``LAN_ADDRESS``: a hall's
    network that exists only inside this test."""
    if os.geteuid() != 0 or not shutil.which("ip"):
        (pytest.fail if IN_CI else pytest.skip)("making a network namespace needs root and iproute2")
    name = f"twohg-hall-{os.getpid()}"
    steps = [
        ["ip", "netns", "add", name],
        ["ip", "-n", name, "link", "set", "lo", "up"],
        ["ip", "-n", name, "link", "add", "hall0", "type", "veth", "peer", "name", "hall1"],
        ["ip", "-n", name, "addr", "add", f"{LAN_ADDRESS}/24", "dev", "hall0"],
        ["ip", "-n", name, "addr", "add", "10.213.0.2/24", "dev", "hall1"],
        ["ip", "-n", name, "link", "set", "hall0", "up"],
        ["ip", "-n", name, "link", "set", "hall1", "up"],
        ["ip", "-n", name, "route", "add", "default", "via", "10.213.0.2", "dev", "hall0"],
    ]
    for step in steps:
        made = subprocess.run(step, capture_output=True, text=True)
        if made.returncode != 0:
            subprocess.run(["ip", "netns", "delete", name], capture_output=True)
            (pytest.fail if IN_CI else pytest.skip)(
                f"cannot make a network namespace here: {' '.join(step)}: {made.stderr.strip()}"
            )
    yield ["ip", "netns", "exec", name]
    subprocess.run(["ip", "netns", "delete", name], capture_output=True)


def test_on_every_interface_the_address_slips_and_link_are_the_lan_address(hall, tmp_path, namespace):
    _tools()
    port = _free_port()
    log = tmp_path / "runembedded.log"
    runner = _start(hall, f"0.0.0.0:{port}", log, prefix=namespace)
    try:
        lan = f"http://{LAN_ADDRESS}:{port}"
        codes = _wait_for(
            lambda: [c for c in _slip_codes(hall, tmp_path) if c.startswith(f"{lan}/slip/")],
            240,
            "slips",
            log,
        )
        assert f"phones open {lan}/" in log.read_text()
        _wait_for(lambda: _answers(f"{lan}/healthz", namespace), 120, "the web server", log)
        assert _answers(codes[0], namespace)
        assert _answers(f"{lan}/events/1/pairings/projector/", namespace)
    finally:
        _stop(runner, log)
