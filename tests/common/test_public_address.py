"""Issue 28: every absolute link names the address phones reach (``PUBLIC_URL``), which embedded
mode derives from the address it serves; the web server command both modes run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from common.public_address import lan_address, public_url_for
from common.server import CONNECTIONS_PER_PROCESS, split_bind, web_command

ROOT = Path(__file__).resolve().parents[2]


def no_network() -> None:
    return None


@pytest.mark.parametrize(
    ("host", "port", "expected"),
    [
        ("127.0.0.1", 8123, "http://127.0.0.1:8123"),
        ("localhost", 8000, "http://localhost:8000"),
        ("127.0.0.2", 9001, "http://127.0.0.2:9001"),
        ("192.168.1.20", 8000, "http://192.168.1.20:8000"),
        ("0.0.0.0", 8123, "http://10.213.0.1:8123"),
        ("::", 8123, "http://10.213.0.1:8123"),
        ("fd00::5", 8000, "http://[fd00::5]:8000"),
    ],
)
def test_the_public_address_is_the_one_served_and_on_every_interface_the_lan_address(host, port, expected):
    assert public_url_for(host, port, find_lan_address=lambda: "10.213.0.1") == expected


def test_on_every_interface_of_a_machine_with_no_network_only_the_machine_reaches_it():
    assert public_url_for("0.0.0.0", 8000, find_lan_address=no_network) == "http://127.0.0.1:8000"


def test_the_lan_address_is_the_default_routes_interface_address():
    """What ``ip route get`` says the machine's address towards the world is (no packet is sent)."""
    route = subprocess.run(["ip", "-4", "route", "get", "198.51.100.1"], capture_output=True, text=True)
    if route.returncode != 0:
        assert lan_address() is None
        return
    words = route.stdout.split()
    assert lan_address() == words[words.index("src") + 1]


@pytest.mark.parametrize(
    ("bind", "expected"),
    [
        ("127.0.0.1:8123", ("127.0.0.1", 8123)),
        ("0.0.0.0:80", ("0.0.0.0", 80)),
        ("[::]:8000", ("::", 8000)),
        ("9000", ("127.0.0.1", 9000)),
    ],
)
def test_bind_addresses(bind, expected):
    assert split_bind(bind) == expected


@pytest.mark.parametrize("bind", ["localhost:http", "1.2.3.4:0", "1.2.3.4:70000", ""])
def test_a_bad_bind_address_is_refused_by_name(bind):
    with pytest.raises(ValueError, match="HOST:PORT"):
        split_bind(bind)


def test_the_web_server_holds_connections_not_threads():
    command = web_command("0.0.0.0:8000", processes=2, threads=4)
    assert command[1:3] == ["-m", "granian"]
    assert command[command.index("--interface") + 1] == "wsgi"
    assert command[command.index("--workers") + 1] == "2"
    assert command[command.index("--blocking-threads") + 1] == "4"
    # 1,300 held connections over two processes stay under the per-process bound.
    assert int(command[command.index("--backpressure") + 1]) == CONNECTIONS_PER_PROCESS >= 1300
    assert command[-1] == "config.wsgi:application"


def _settings_of(env: dict[str, str], expression: str) -> subprocess.CompletedProcess:
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "PUBLIC_URL", "ALLOWED_HOSTS"}
    }
    code = f"import django; django.setup(); from django.conf import settings; print(repr(({expression})))"
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_public_address_is_an_allowed_host_and_a_trusted_origin():
    run = _settings_of(
        {"PUBLIC_URL": "http://10.213.0.1:8123/"},
        "settings.PUBLIC_URL, settings.ALLOWED_HOSTS, settings.CSRF_TRUSTED_ORIGINS",
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == repr(
        (
            "http://10.213.0.1:8123",
            ["127.0.0.1", "localhost", "[::1]", "testserver", "10.213.0.1"],
            ["http://10.213.0.1:8123"],
        )
    )


@pytest.mark.parametrize(
    "value", ["10.213.0.1:8123", "ftp://x.org", "https://events.example.org/hall", "http://x.org:99999"]
)
def test_a_malformed_public_address_stops_start_up_naming_the_variable(value):
    run = _settings_of({"PUBLIC_URL": value}, "settings.PUBLIC_URL")
    assert run.returncode != 0
    assert (
        "PUBLIC_URL: expected the site's address as phones reach it, e.g. https://events.example.org"
        in run.stderr
    )
    assert repr(value) in run.stderr
