"""Embedded mode takes concurrent writers: four threads registering teams at once on one SQLite
file all succeed with the project's SQLite options (WAL, busy timeout, IMMEDIATE transactions),
where Django's defaults answer "database is locked".

Each case runs in its own process (``tests/reliability/sqlite_writers.py``) on a fresh file
database: the suite's own test database is in memory, and the options apply per connection.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.reliability.sqlite_writers import TEAMS_EACH, WRITERS

ROOT = Path(__file__).resolve().parents[2]


def run_writers(tmp_path: Path, *flags: str) -> dict:
    result = subprocess.run(
        [sys.executable, "-m", "tests.reliability.sqlite_writers", str(tmp_path / "event.sqlite3"), *flags],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY"}}
        # A database URL needs a secret key (config/settings refuses the repository's development key).
        | {"SECRET_KEY": "test-only-sqlite-writers"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_four_writers_at_once_all_succeed_on_the_configured_sqlite(tmp_path):
    outcome = run_writers(tmp_path)

    assert outcome == {"errors": [], "teams": WRITERS * TEAMS_EACH, "journal": "wal"}


def test_the_same_writers_on_django_defaults_get_database_is_locked(tmp_path):
    """The defect this configuration fixes, reproduced: without it the same load fails."""
    outcome = run_writers(tmp_path, "--django-defaults")

    assert outcome["journal"] == "delete"
    assert outcome["errors"] and all(
        error == "OperationalError: database is locked" for error in outcome["errors"]
    )
    assert outcome["teams"] == WRITERS * TEAMS_EACH - len(outcome["errors"])
