"""The production entry point imports cleanly in a fresh process (as the web server loads it) and answers.

pytest imports modules in its own order, so an import cycle that only bites a cold
``config.wsgi`` import would pass every other test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import io, json
from wsgiref.util import setup_testing_defaults
from config.wsgi import application
environ = {"PATH_INFO": "/healthz", "REQUEST_METHOD": "GET", "HTTP_HOST": "events.example.org"}
setup_testing_defaults(environ)
environ["HTTP_HOST"] = "events.example.org"
status = []
body = b"".join(application(environ, lambda s, h, exc_info=None: status.append(s)))
print(json.dumps({"status": status[0], "body": json.loads(body)}))
"""


def test_config_wsgi_imports_cold_and_serves_healthz(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "REDIS_URL", "DEBUG"}}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'cold.sqlite3'}",
        SECRET_KEY="cold-start-test-" + "x" * 40,
        ALLOWED_HOSTS="events.example.org",
    )
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout.strip().splitlines()[-1])
    assert answer["status"] == "200 OK"
    assert answer["body"]["status"] == "ok"
    assert answer["body"]["checks"]["database"] == {"ok": True, "engine": "sqlite"}
