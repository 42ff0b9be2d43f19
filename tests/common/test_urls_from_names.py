"""Pages name their URLs ({% url %} / reverse), never a hard-coded /api/v1/ path (issue 14 point 7)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_no_template_or_view_hard_codes_an_api_path():
    # Every page module: the apps' views.py and the page package (tournaments/pages/).
    sources = [
        *ROOT.glob("templates/**/*.html"),
        *ROOT.glob("*/*views*.py"),
        *ROOT.glob("*/*/*views*.py"),
        *ROOT.glob("*/pages/*.py"),
    ]
    offending = [
        str(path.relative_to(ROOT))
        for path in sources
        if ".venv" not in path.parts and "/api/v1/" in path.read_text(encoding="utf-8")
    ]

    assert len(sources) > 20
    assert offending == []
