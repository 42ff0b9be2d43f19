"""Shared fixtures for the decklist tests: the shipped card index and the real decklists."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from decklists.domain import CardIndex, Deck, load_card_index

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "decklists"


def real_decklists() -> list[dict[str, Any]]:
    """The 200 real July 2026 MTGO Challenge decklists (data, not written here)."""
    return [json.loads(path.read_text(encoding="utf-8")) for path in sorted(FIXTURES.glob("*.json"))]


def mtgo_text(record: dict[str, Any]) -> str:
    """The list as published: one line per MTGO entry, a blank line, the sideboard."""
    main = "\n".join(f"{count} {name}" for count, name in record["main"])
    side = "\n".join(f"{count} {name}" for count, name in record["side"])
    return f"{main}\n\n{side}\n" if side else f"{main}\n"


def main_only_deck(record: dict[str, Any], index: CardIndex, player: str | None = None) -> Deck:
    """The record's main deck resolved to canonical names (2HG registers no sideboard)."""
    return Deck.from_counts(
        player or record["player"],
        record["format"],
        [(count, index.card(name).name) for count, name in record["main"]],
    )


@pytest.fixture(scope="session")
def index() -> CardIndex:
    return load_card_index()


@pytest.fixture(scope="session")
def records() -> list[dict[str, Any]]:
    return real_decklists()
