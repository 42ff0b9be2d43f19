"""Issue 27's documentation: one laptop in the hall, one server for the world; the laptop over HTTPS
for phones that lose the connection, and what works without it; the service worker chosen and why.

The command the organizer is told to run behind the TLS proxy is checked as the settings read it:
a laptop reached by the hall under its name must print that name on slips and QR codes
(``PUBLIC_URL``), accept it, and never show the debug pages to the hall.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text()
DEPLOY = (REPO / "docs" / "deploy.md").read_text()


def section(text: str, heading: str) -> str:
    """The text under ``## heading`` up to the next heading of the same level."""
    found = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert found, f"no section {heading!r}"
    return found.group(1)


def test_the_readme_and_the_deploy_guide_describe_one_laptop_in_the_hall_and_one_server_for_the_world():
    readme = " ".join(section(README, "One laptop in the hall, one server for the world").split())
    deploy = " ".join(section(DEPLOY, "One laptop in the hall, one server for the world").split())

    for text in (readme, deploy):
        assert "/api/v1/tournaments/" in text and "/mirror/" in text
        assert "Mirror of an event run elsewhere, last updated HH:MM" in text
        assert "409" in text
    assert '{"url", "remote_id", "last_pushed_at", "last_error"' in readme
    for verb in ("curl -X POST", "curl http", "curl -X DELETE"):
        assert verb in deploy
    assert "Mirror last updated HH:MM" in deploy
    assert "docs/deploy.md#one-laptop-in-the-hall-one-server-for-the-world" in readme


def test_the_guide_says_how_to_serve_the_laptop_over_https_and_what_works_without_it():
    readme = section(README, "Phones that lose the connection")
    https = section(DEPLOY, "A laptop in the hall over HTTPS (phones that lose the connection)")

    assert "docs/deploy.md#a-laptop-in-the-hall-over-https-phones-that-lose-the-connection" in readme
    assert "a name you" in https and "control" in https  # a certificate for a name they control
    assert "certbot" in https and "local DNS" in https
    assert "What the phones show:" in https and "no warning" in https
    assert "self-signed certificate" in https.lower()
    assert "| the laptop at `http://192.168." in https  # the table of what works without HTTPS
    assert "JavaScript off" in https


def test_the_service_worker_approach_is_named_with_its_reason():
    readme = section(README, "Phones that lose the connection")
    reason = (REPO / "tournaments" / "pages" / "offline.py").read_text().split('"""')[1]

    assert "hand-written service worker" in readme and "says why not Workbox" in readme
    assert "rather than built" in reason and "Workbox" in reason and "build step" in reason


def documented_laptop_command() -> dict[str, str]:
    """The environment of the ``make run`` line the HTTPS section tells the organizer to start."""
    https = section(DEPLOY, "A laptop in the hall over HTTPS (phones that lose the connection)")
    lines = [line.strip() for line in https.splitlines() if re.search(r"\bmake run\b", line)]
    commands = [line for line in lines if not line.startswith(("the open pages", "plain http"))]
    command = next(line for line in commands if "=" in line.split("make run")[0])
    words = shlex.split(command.split("make run")[0])
    return dict(word.split("=", 1) for word in words)


def test_the_documented_https_laptop_prints_its_name_accepts_it_and_shows_no_debug_pages():
    environment = documented_laptop_command()
    # `make run` on loopback turns DEBUG on unless the command says otherwise (the Makefile).
    recipe = subprocess.run(["make", "-n", "-s", "run"], cwd=REPO, capture_output=True, text=True).stdout
    assert "DEBUG=${DEBUG:-true}" in recipe
    environment.setdefault("DEBUG", "true")
    # `manage.py runembedded` keeps a PUBLIC_URL it is given, else the address it is bound to.
    environment.setdefault("PUBLIC_URL", "http://127.0.0.1:8000")
    drop = {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS"}
    env = {k: v for k, v in os.environ.items() if k not in drop} | environment
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    read = (
        "import json; from django.conf import settings as s; print(json.dumps({"
        "'debug': s.DEBUG, 'public_url': s.PUBLIC_URL, 'hosts': s.ALLOWED_HOSTS,"
        " 'origins': s.CSRF_TRUSTED_ORIGINS}))"
    )
    done = subprocess.run([sys.executable, "-c", read], cwd=REPO, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    laptop = json.loads(done.stdout)

    assert laptop["public_url"] == "https://hall.example.org"  # the slips' QR codes and links
    assert "hall.example.org" in laptop["hosts"]
    assert "https://hall.example.org" in laptop["origins"]
    assert laptop["debug"] is False  # the proxy opens the laptop to the hall
