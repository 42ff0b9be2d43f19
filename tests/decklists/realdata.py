"""Helpers over the real decklists copied into ``tests/fixtures/decklists`` (data, not written here)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "decklists"


def real_decklists() -> list[dict[str, Any]]:
    """The 200 real July 2026 MTGO Challenge decklists (80 Modern, 60 Pioneer, 60 Pauper)."""
    return [json.loads(path.read_text(encoding="utf-8")) for path in sorted(FIXTURES.glob("*.json"))]


def mtgo_text(record: dict[str, Any]) -> str:
    """The list as published: one line per MTGO entry, a blank line, the sideboard."""
    main = "\n".join(f"{count} {name}" for count, name in record["main"])
    side = "\n".join(f"{count} {name}" for count, name in record["side"])
    return f"{main}\n\n{side}\n" if side else f"{main}\n"
