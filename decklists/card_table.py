"""Conversions between the domain's :class:`Card` and the card table's columns.

Shared by the data migration that loads the shipped snapshot and by the ``cards_import``
service, so both write rows the same way and an index built back from the table equals
the one built from the source. No model imports here: the migration passes its
historical model.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from decklists.domain import SNAPSHOT_PATH, Card, Legality

CARD_FIELDS = (
    "face_names",
    "layout",
    "type_line",
    "is_basic_land",
    "any_number",
    "copies_limit",
    "legalities",
    "oracle_id",
    "oracle_text",
    "is_funny",
)
"""Every column but ``name``; an import compares these to count a card as changed."""

INDEX_FIELDS = ("name", *(f for f in CARD_FIELDS if f != "oracle_text"))
"""What validation needs: the index built from the table skips the 5 MB of rules text."""


def card_fields(card: Card) -> dict[str, Any]:
    """The column values for ``card`` (without ``name``), in JSON-comparable form."""
    return {
        "face_names": list(card.face_names),
        "layout": card.layout,
        "type_line": card.type_line,
        "is_basic_land": card.is_basic_land,
        "any_number": card.copies_limit == "any",
        "copies_limit": card.copies_limit if isinstance(card.copies_limit, int) else None,
        "legalities": {fmt: str(value) for fmt, value in sorted(card.legalities.items())},
        "oracle_id": card.oracle_id or "",
        "oracle_text": card.oracle_text,
        "is_funny": card.is_funny,
    }


def card_from_row(row: Mapping[str, Any], legalities_cache: dict[tuple, dict[str, Legality]]) -> Card:
    """A domain card from a ``values()`` row of :data:`INDEX_FIELDS`.

    Identical legality maps are shared (34k cards have a few hundred distinct ones), as the
    snapshot parser does, to keep the in-process index small.
    """
    signature = tuple(sorted(row["legalities"].items()))
    legalities = legalities_cache.get(signature)
    if legalities is None:
        legalities = legalities_cache[signature] = {fmt: Legality(value) for fmt, value in signature}
    return Card(
        name=row["name"],
        face_names=tuple(row["face_names"]),
        layout=row["layout"],
        type_line=row["type_line"],
        is_basic_land=row["is_basic_land"],
        copies_limit="any" if row["any_number"] else row["copies_limit"],
        legalities=legalities,
        oracle_id=row["oracle_id"] or None,
        is_funny=row["is_funny"],
    )


def one_per_name(cards: Iterable[Card]) -> dict[str, Card]:
    """Name → card, keeping for a shared name (un-set cards) the record the domain's name
    matching prefers: not funny, then with an oracle id, then the smallest oracle id."""
    chosen: dict[str, Card] = {}
    for card in cards:
        held = chosen.get(card.name)
        if held is None or _preference(card) < _preference(held):
            chosen[card.name] = card
    return chosen


def _preference(card: Card) -> tuple[bool, bool, str]:
    return (card.is_funny, card.oracle_id is None, card.oracle_id or "")


def file_sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@lru_cache(maxsize=1)
def shipped_snapshot_sha256() -> str:
    """Hash of the snapshot file shipped with this code (read once per process)."""
    return file_sha256(SNAPSHOT_PATH.read_bytes())
