"""The penalties core stays pure: no Django, no ORM, no clock or randomness."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

DOMAIN = Path(__file__).resolve().parents[3] / "penalties" / "domain"
FORBIDDEN_MODULES = ("django", "rest_framework", "random", "datetime", "time")


@pytest.mark.parametrize("path", sorted(DOMAIN.glob("*.py")), ids=lambda p: p.name)
def test_domain_module_imports_nothing_impure(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.append(node.module or "")

    bad = [
        m for m in imported if m.split(".")[0] in FORBIDDEN_MODULES or m.endswith(".models") or m == "models"
    ]
    assert bad == []


def test_importing_the_core_loads_no_django():
    code = (
        "import sys, penalties.domain; print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=DOMAIN.parents[1]
    )

    assert result.stdout.strip() == "[]"
