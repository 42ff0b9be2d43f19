"""The shipped catalogs are complete (no empty or fuzzy ``msgstr``: ``msgfmt --statistics``
counts them) and the committed ``.mo`` files are compiled from the committed ``.po`` files.
gettext is a system package (scripts/system-packages.sh).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

REPO = Path(settings.BASE_DIR)
LOCALES = ("es", "pt_BR", "ja")
DOMAINS = ("django", "djangojs")


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is missing: apt-get install gettext (scripts/system-packages.sh)")
    return path


def _statistics(po: Path) -> str:
    result = subprocess.run(
        [_tool("msgfmt"), "--check-format", "--statistics", "-o", "/dev/null", str(po)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    return result.stderr.strip()


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("locale", LOCALES)
def test_committed_catalogs_have_no_empty_or_fuzzy_translation(locale, domain):
    po = REPO / "locale" / locale / "LC_MESSAGES" / f"{domain}.po"
    statistics = _statistics(po)
    assert re.fullmatch(r"\d+ translated messages?\.", statistics), f"{po}: {statistics}"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("locale", LOCALES)
def test_committed_mo_files_are_compiled_from_the_po_files(tmp_path, locale, domain):
    folder = REPO / "locale" / locale / "LC_MESSAGES"
    compiled = tmp_path / f"{domain}.mo"
    subprocess.run(
        [_tool("msgfmt"), "--check-format", "-o", str(compiled), str(folder / f"{domain}.po")], check=True
    )
    assert compiled.read_bytes() == (folder / f"{domain}.mo").read_bytes(), (
        f"locale/{locale}/LC_MESSAGES/{domain}.mo is stale: run `make messages` (or compilemessages)"
    )
