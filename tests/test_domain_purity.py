"""The domain cores stay pure: no module under */domain/ may import Django or a models module, nor
the pure planners kept beside their services (``tournaments/registration/planner.py``).

That keeps the pairing, standings, decklist and penalty rules testable without a database and
callable from anywhere.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.source import parse

REPO = Path(__file__).resolve().parents[1]
PURE_PLANNERS = [REPO / "tournaments" / "registration" / "planner.py"]
DOMAIN_FILES = sorted(
    [
        *(
            p
            for app in ("tournaments", "clock", "decklists", "penalties", "floor")
            for p in (REPO / app / "domain").glob("*.py")
        ),
        *PURE_PLANNERS,
    ]
)


def _forbidden_imports(path: Path) -> list[str]:
    """Each import of django or of a models module in ``path``, as "line: name"."""
    found = []
    for node in ast.walk(parse(path)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            names = [module] + [f"{module}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.lstrip(".").split(".")
            if parts[0] == "django" or "models" in parts:
                found.append(f"{node.lineno}: {name}")
    return found


def test_domain_modules_exist() -> None:
    assert any(p.parent.parent.name == "tournaments" for p in DOMAIN_FILES)


@pytest.mark.parametrize("path", DOMAIN_FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_domain_module_imports_no_django_and_no_models(path: Path) -> None:
    assert _forbidden_imports(path) == []


def test_the_check_catches_django_and_models_imports(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import django.db\nfrom ..models import Team\nfrom tournaments import models\nimport json\n"
    )
    assert _forbidden_imports(bad) == [
        "1: django.db",
        "2: ..models",
        "2: ..models.Team",
        "3: tournaments.models",
    ]
