"""Every user-facing string in the code is translated in every shipped locale (CI fails otherwise).

The strings are extracted afresh from a copy of the code, as ``make messages`` extracts them, and
merged with the committed translations: a new ``{% translate %}`` or ``gettext()`` that nobody
translated is an untranslated entry there, a changed one a fuzzy entry, and ``msgfmt
--statistics`` counts both. To fix: ``make messages``, translate the new entries in
``locale/*/LC_MESSAGES/*.po`` (glossaries in ``docs/``), commit the ``.po`` and ``.mo`` files.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

REPO = Path(settings.BASE_DIR)
LOCALES = ("es", "pt_BR", "ja")
#: Not shipped code: the copy leaves these out, as ``make messages`` ignores them.
_SKIP = {".git", ".venv", "staticfiles", "media", "var", "tests", "bench", "node_modules", "__pycache__"}


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is missing: apt-get install gettext (scripts/system-packages.sh)")
    return path


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> Path:
    """A copy of the code whose catalogs ``makemessages`` brought up to date."""
    _tool("xgettext")
    copy = tmp_path_factory.mktemp("messages") / "repo"
    shutil.copytree(
        REPO,
        copy,
        ignore=lambda folder, names: [
            n for n in names if n in _SKIP or n.endswith((".sqlite3", ".pyc", ".mo")) or n.startswith("db.")
        ],
    )
    common = [
        "--no-obsolete",
        "--no-location",
        *(f"-l{code}" for code in LOCALES),
        "--ignore=static/vendor/*",
    ]
    for domain in ("django", "djangojs"):
        subprocess.run(
            [sys.executable, "manage.py", "makemessages", "-d", domain, *common],
            cwd=copy,
            check=True,
            capture_output=True,
        )
    return copy


@pytest.mark.parametrize("domain", ["django", "djangojs"])
@pytest.mark.parametrize("locale", LOCALES)
def test_every_string_in_the_code_is_translated(extracted, locale, domain):
    po = extracted / "locale" / locale / "LC_MESSAGES" / f"{domain}.po"
    result = subprocess.run(
        [_tool("msgfmt"), "--check-format", "--statistics", "-o", "/dev/null", str(po)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    statistics = result.stderr.strip()
    assert re.fullmatch(r"\d+ translated messages?\.", statistics), (
        f"{locale} {domain}: {statistics}. Run `make messages`, translate every new entry in "
        f"locale/{locale}/LC_MESSAGES/{domain}.po (no empty or fuzzy msgstr), and commit the .po and .mo."
    )
