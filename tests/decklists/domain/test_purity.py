"""The decklist domain stays pure: no Django and no ORM models, so it runs anywhere (STYLE 2.3)."""

from __future__ import annotations

import ast
from pathlib import Path

DOMAIN = Path(__file__).resolve().parents[3] / "decklists" / "domain"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add("." * node.level + (node.module or ""))
    return names


def test_decklist_domain_imports_no_django_and_no_models() -> None:
    offenders = {
        f"{path.name}: {name}"
        for path in sorted(DOMAIN.glob("*.py"))
        for name in _imports(path)
        if name.split(".")[0] in {"django", "rest_framework"} or name.endswith("models") or ".models." in name
    }

    assert sorted(DOMAIN.glob("*.py")), "domain package not found"
    assert offenders == set()
