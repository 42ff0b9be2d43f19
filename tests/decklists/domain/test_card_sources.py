"""Scryfall and MTGJSON parsers, checked against the real records of the shipped snapshot.

The inputs are built from snapshot records (real names, type lines and oracle text), so
the parsers must re-derive the same basic flag and copy limit the snapshot carries.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from decklists.domain import (
    SNAPSHOT_PATH,
    CardIndex,
    CardSourceError,
    Legality,
    copies_limit_from_text,
    is_basic_land_type,
    load_snapshot,
    parse_mtgjson_atomic_cards,
    parse_scryfall_oracle_cards,
    parse_snapshot,
)

NAMES = [
    "Relentless Rats",
    "Seven Dwarves",
    "Nazgûl",
    "Fire // Ice",
    "Delver of Secrets // Insectile Aberration",
    "Snow-Covered Forest",
    "Wastes",
    "Lightning Bolt",
    "Black Lotus",
]
_SUPERTYPES = {"Basic", "Legendary", "Snow", "World", "Ongoing"}


def _scryfall(index: CardIndex, name: str) -> dict[str, Any]:
    card = index.card(name)
    entry: dict[str, Any] = {
        "object": "card",
        "oracle_id": card.oracle_id,
        "name": card.name,
        "layout": card.layout,
        "legalities": {f: legality.value for f, legality in card.legalities.items()},
    }
    if len(card.face_names) > 1:
        entry["type_line"] = card.type_line
        entry["card_faces"] = [
            {"name": face, "type_line": type_line, "oracle_text": text}
            for face, type_line, text in zip(
                card.face_names, card.type_line.split(" // "), card.oracle_text.split("\n//\n"), strict=True
            )
        ]
    else:
        entry["type_line"] = card.type_line
        entry["oracle_text"] = card.oracle_text
    return entry


def _mtgjson_faces(index: CardIndex, name: str) -> list[dict[str, Any]]:
    card = index.card(name)
    legal = {f: legality.value.replace("_", " ").title() for f, legality in card.legalities.items()}
    legal = {f: v for f, v in legal.items() if v != "Not Legal"}
    faces = []
    for side, (face, type_line, text) in enumerate(
        zip(card.face_names, card.type_line.split(" // "), card.oracle_text.split("\n//\n"), strict=True)
    ):
        words = type_line.split(" \u2014 ")[0].split()
        face_record: dict[str, Any] = {
            "name": card.name,
            "type": type_line,
            "text": text,
            "layout": card.layout,
            "supertypes": [w for w in words if w in _SUPERTYPES],
            "types": [w for w in words if w not in _SUPERTYPES],
            "legalities": legal,
            "identifiers": {"scryfallOracleId": card.oracle_id},
        }
        if len(card.face_names) > 1:
            face_record["faceName"] = face
            face_record["side"] = "ab"[side]
        faces.append(face_record)
    return faces


def _same_card_fields(index: CardIndex, parsed: list[Any]) -> None:
    assert [c.name for c in parsed] == NAMES
    for card in parsed:
        expected = index.card(card.name)
        assert (card.face_names, card.type_line, card.is_basic_land, card.copies_limit, card.oracle_id) == (
            expected.face_names,
            expected.type_line,
            expected.is_basic_land,
            expected.copies_limit,
            expected.oracle_id,
        )
        assert dict(card.legalities) == dict(expected.legalities)


def test_scryfall_parser_rederives_snapshot_fields(index: CardIndex) -> None:
    token = {"object": "card", "name": "Goblin", "layout": "token", "type_line": "Token Creature — Goblin"}
    data = [_scryfall(index, n) for n in NAMES[:3]] + [token] + [_scryfall(index, n) for n in NAMES[3:]]

    _same_card_fields(index, list(parse_scryfall_oracle_cards(data)))


def test_mtgjson_parser_rederives_snapshot_fields(index: CardIndex) -> None:
    data = {"meta": {"version": "test"}, "data": {n: _mtgjson_faces(index, n) for n in NAMES}}
    parsed = list(parse_mtgjson_atomic_cards(data))

    _same_card_fields(index, parsed)
    assert parsed[-1].legality("vintage") is Legality.RESTRICTED
    assert parsed[-1].legality("modern") is Legality.NOT_LEGAL


@pytest.mark.parametrize(
    ("text", "limit"),
    [
        ("A deck can have any number of cards named Relentless Rats.", "any"),
        ("A deck can have up to seven cards named Seven Dwarves.", 7),
        ("A deck can have up to nine cards named Nazgûl.", 9),
        ("A deck can have up to 12 cards named Test.", 12),
        ("Flying", None),
        ("", None),
    ],
)
def test_copies_limit_from_text(text: str, limit: object) -> None:
    assert copies_limit_from_text(text) == limit


def test_copies_limit_of_basics_is_any_without_text() -> None:
    assert copies_limit_from_text("", is_basic_land=True) == "any"


def test_copies_limit_unreadable_number_is_an_error() -> None:
    with pytest.raises(CardSourceError, match="up to many"):
        copies_limit_from_text("A deck can have up to many cards named X.")


@pytest.mark.parametrize(
    ("type_line", "basic"),
    [
        ("Basic Land — Island", True),
        ("Basic Snow Land — Forest", True),
        ("Basic Land", True),
        ("Land — Island Mountain", False),
        ("Legendary Land", False),
        ("Snow Land — Island", False),
    ],
)
def test_is_basic_land_type(type_line: str, basic: bool) -> None:
    assert is_basic_land_type(type_line) is basic


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"data": []}, "expected a JSON list"),
        ([], "no cards"),
        (["oops"], "entry 0: not a JSON object"),
        ([{"layout": "normal"}], "entry 0: missing field 'name'"),
        (
            [{"name": "Lightning Bolt", "layout": "normal", "type_line": "Instant"}],
            "missing field 'legalities'",
        ),
        (
            [
                {
                    "name": "Lightning Bolt",
                    "layout": "normal",
                    "type_line": "Instant",
                    "legalities": {"modern": "legalish"},
                }
            ],
            "unknown legality 'legalish'",
        ),
        ([{"name": "Lightning Bolt", "layout": "normal", "legalities": {}}], "'Lightning Bolt'.*type_line"),
        ([{"object": "set", "name": "Magic 2010", "layout": "normal"}], "expected 'card'"),
    ],
)
def test_scryfall_parser_names_what_is_wrong(data: Any, message: str) -> None:
    with pytest.raises(CardSourceError, match=message):
        list(parse_scryfall_oracle_cards(data))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "expected an object with a 'data' object"),
        ({"data": {}}, "no cards"),
        ({"data": {"Lightning Bolt": []}}, "'Lightning Bolt': expected a non-empty list"),
        (
            {"data": {"Lightning Bolt": [{"name": "Lightning Bolt", "layout": "normal"}]}},
            "missing field 'type'",
        ),
    ],
)
def test_mtgjson_parser_names_what_is_wrong(data: Any, message: str) -> None:
    with pytest.raises(CardSourceError, match=message):
        list(parse_mtgjson_atomic_cards(data))


def test_snapshot_parser_detects_truncated_card_list() -> None:
    data = json.loads(gzip.decompress(SNAPSHOT_PATH.read_bytes()))
    data["cards"] = data["cards"][:100]

    with pytest.raises(CardSourceError, match="meta.n_cards is 34622 but 100"):
        parse_snapshot(data)


def test_snapshot_parser_names_missing_field() -> None:
    record = {"name": "Lightning Bolt", "face_names": ["Lightning Bolt"], "layout": "normal"}

    with pytest.raises(
        CardSourceError, match="card 0: missing type_line, is_basic_land, copies_limit, legalities"
    ):
        parse_snapshot({"meta": {}, "cards": [record]})


def test_load_snapshot_truncated_file_is_a_clear_error(tmp_path: Path) -> None:
    broken = tmp_path / "cards.json.gz"
    broken.write_bytes(SNAPSHOT_PATH.read_bytes()[:50_000])

    with pytest.raises(CardSourceError, match="cannot read"):
        load_snapshot(broken)
