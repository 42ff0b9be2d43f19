"""Banned and restricted lists with their effective dates: legality on the event's date."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest

from decklists.domain import (
    BanListError,
    BanListHistory,
    CardIndex,
    Deck,
    ErrorCode,
    Legality,
    check_constructed_deck,
    load_ban_history,
)

D = datetime.date
EVENTS = Path(__file__).resolve().parents[2] / "fixtures" / "events"


def changes(*rows: tuple[str, str | None, str, str]) -> dict:
    """The shipped file's shape from (format, date, card, status) rows."""
    return {"changes": [{"format": f, "date": d, "card": c, "status": s} for f, d, c, s in rows]}


def test_pauper_ban_of_2026_09_02_applies_from_its_date_and_says_banned(index: CardIndex) -> None:
    for name in ("Narcomoeba", "Price of Progress"):
        card = index.card(name)

        assert index.legality(card, "pauper", D(2026, 9, 1)) is Legality.LEGAL
        assert index.legality(card, "pauper", D(2026, 9, 2)) is Legality.BANNED
        assert index.legality(card, "pauper", None) is Legality.BANNED


def test_cards_wrongly_derived_not_legal_in_pauper_are_legal(index: CardIndex) -> None:
    for name in ("Go for the Throat", "Utrom Monitor"):
        assert index.legality(index.card(name), "pauper", D(2026, 11, 1)) is Legality.LEGAL

    assert index.legality(index.card("Utrom Monitor"), "modern", D(2026, 11, 1)) is Legality.NOT_LEGAL


def test_restriction_and_ban_of_the_same_day_in_two_formats(index: CardIndex) -> None:
    card = index.card("The Fantasticar")

    assert index.legality(card, "vintage", D(2026, 8, 9)) is Legality.LEGAL
    assert index.legality(card, "vintage", D(2026, 8, 10)) is Legality.RESTRICTED
    assert index.legality(card, "legacy", D(2026, 8, 9)) is Legality.LEGAL
    assert index.legality(card, "legacy", D(2026, 8, 10)) is Legality.BANNED


def test_a_card_banned_after_the_event_is_legal_for_it(index: CardIndex) -> None:
    deck = Deck(player="Ana", format="standard", main={"Badgermole Cub": 4, "Forest": 56})

    assert check_constructed_deck(deck, index, on=D(2026, 8, 1)) == ()
    banned = check_constructed_deck(deck, index, on=D(2026, 8, 10))
    assert [(e.code, e.card) for e in banned] == [(ErrorCode.BANNED, "Badgermole Cub")]


def test_a_ban_announced_for_a_future_date_applies_from_that_date(index: CardIndex) -> None:
    history = BanListHistory.from_json(changes(("modern", "2027-01-05", "Lightning Bolt", "banned")))
    dated = CardIndex(index.cards, formats=index.formats, ban_history=history)
    deck = Deck(player="Ana", format="modern", main={"Lightning Bolt": 4, "Mountain": 56})

    assert check_constructed_deck(deck, dated, on=D(2027, 1, 4)) == ()
    assert [e.code for e in check_constructed_deck(deck, dated, on=D(2027, 1, 5))] == [ErrorCode.BANNED]


def test_an_unban_makes_the_card_banned_before_and_legal_from_its_date(index: CardIndex) -> None:
    history = BanListHistory.from_json(
        changes(("modern", "2026-01-01", "Ponder", "legal"), ("vintage", "2026-01-01", "Ponder", "legal"))
    )
    card = index.card("Ponder")

    assert history.legality_on(card, "modern", D(2025, 12, 31)) is Legality.BANNED
    assert history.legality_on(card, "modern", D(2026, 1, 1)) is Legality.LEGAL
    assert history.legality_on(card, "vintage", D(2025, 12, 31)) is Legality.RESTRICTED


def test_a_card_with_no_list_entry_keeps_its_card_data(index: CardIndex) -> None:
    card = index.card("Brainstorm")

    assert index.legality(card, "modern", D(2020, 1, 1)) is Legality.NOT_LEGAL
    assert index.legality(card, "legacy", D(2020, 1, 1)) is Legality.LEGAL


def test_history_round_trips_through_its_stored_shape() -> None:
    raw = changes(
        ("pauper", None, "Cranial Plating", "banned"),
        ("pauper", "2026-09-02", "Narcomoeba", "banned"),
        ("pauper", "2026-09-02", "Price of Progress", "banned"),
        ("vintage", "2026-08-10", "The Fantasticar", "restricted"),
    )

    history = BanListHistory.from_json(raw)

    assert history.to_json() == raw
    assert len(history) == 4


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ([], "expected an object with a 'changes' list"),
        ({"modern": []}, "expected an object with a 'changes' list"),
        (changes(("modern", "2026-13-01", "Ponder", "banned")), "change 0 (Ponder): bad date '2026-13-01'"),
        (
            changes(("modern", "2026-01-01", "Ponder", "not_legal")),
            "change 0 (Ponder): unknown status 'not_legal'",
        ),
        (
            {"changes": [{"format": "modern", "date": "2026-01-01", "status": "banned"}]},
            "change 0: 'card' is",
        ),
        ({"changes": ["Ponder"]}, "change 0: expected an object"),
    ],
)
def test_malformed_history_says_where(raw, message: str) -> None:
    with pytest.raises(BanListError) as error:
        BanListHistory.from_json(raw)

    assert message in str(error.value)


# The shipped history (decklists/data/banlist-history.json): the probes, the day
# before and the day of each change, and a month after.
SHIPPED_PROBES = [
    ("modern", "Phlage, Titan of Fire's Fury", D(2026, 5, 17), Legality.LEGAL),
    ("modern", "Phlage, Titan of Fire's Fury", D(2026, 5, 18), Legality.BANNED),
    ("modern", "Violent Outburst", D(2025, 3, 10), Legality.LEGAL),
    ("modern", "Violent Outburst", D(2025, 3, 11), Legality.BANNED),
    ("modern", "Violent Outburst", D(2026, 5, 17), Legality.BANNED),
    ("modern", "Violent Outburst", D(2026, 5, 18), Legality.LEGAL),
    ("modern", "Umezawa's Jitte", D(2026, 5, 17), Legality.BANNED),
    ("modern", "Umezawa's Jitte", D(2026, 6, 18), Legality.LEGAL),
    ("modern", "Lotus Field", D(2026, 5, 17), Legality.LEGAL),
    ("modern", "Lotus Field", D(2026, 5, 18), Legality.BANNED),
    ("legacy", "Candelabra of Tawnos", D(2026, 6, 28), Legality.LEGAL),
    ("legacy", "Candelabra of Tawnos", D(2026, 6, 29), Legality.BANNED),
    ("pioneer", "Cori-Steel Cutter", D(2026, 5, 17), Legality.LEGAL),
    ("pioneer", "Cori-Steel Cutter", D(2026, 5, 18), Legality.BANNED),
    ("standard", "Cori-Steel Cutter", D(2025, 6, 29), Legality.LEGAL),
    ("standard", "Cori-Steel Cutter", D(2025, 6, 30), Legality.BANNED),
    ("pauper", "Bonder's Ornament", D(2022, 1, 20), Legality.LEGAL),
    ("pauper", "Bonder's Ornament", D(2022, 1, 21), Legality.BANNED),
    ("pauper", "Bonder's Ornament", D(2026, 5, 17), Legality.BANNED),
    ("pauper", "Bonder's Ornament", D(2026, 5, 18), Legality.LEGAL),
    ("pauper", "High Tide", D(2025, 3, 31), Legality.LEGAL),
    ("pauper", "High Tide", D(2025, 11, 10), Legality.BANNED),
    ("pauper", "Cranial Plating", D(2004, 1, 1), Legality.BANNED),
    ("vintage", "Ponder", D(2025, 3, 10), Legality.RESTRICTED),
    ("vintage", "Ponder", D(2025, 3, 11), Legality.LEGAL),
]


@pytest.mark.parametrize(("format_id", "name", "on", "expected"), SHIPPED_PROBES)
def test_the_shipped_history_gives_the_status_in_force_that_day(
    index: CardIndex, format_id: str, name: str, on: datetime.date, expected: Legality
) -> None:
    assert index.legality(index.card(name), format_id, on) is expected


def test_every_card_the_shipped_history_names_is_a_card_of_the_data(index: CardIndex) -> None:
    """A misspelt name would silently never apply; a back face (the source lists Reflection of
    Kiki-Jiki beside Fable of the Mirror-Breaker) is never what a decklist names."""
    faces = {face for card in index.cards for face in card.face_names}
    named = {change["card"] for change in load_ban_history().to_json()["changes"]}

    assert {name for name in named if index.get(name) is None} <= faces
    assert len(load_ban_history()) == 134


def test_a_ban_names_its_date_and_a_ban_since_the_format_began_does_not(index: CardIndex) -> None:
    modern = Deck(player="Ana", format="modern", main={"Phlage, Titan of Fire's Fury": 4, "Mountain": 56})
    pauper = Deck(player="Ana", format="pauper", main={"Cranial Plating": 4, "Mountain": 56})

    assert check_constructed_deck(modern, index, on=D(2026, 5, 17)) == ()
    [banned] = check_constructed_deck(modern, index, on=D(2026, 5, 18))
    [always] = check_constructed_deck(pauper, index, on=D(2026, 5, 18))

    assert str(banned.message) == "Ana: Phlage, Titan of Fire's Fury: banned in Modern since 2026-05-18."
    assert str(always.message) == "Ana: Cranial Plating is banned in Pauper."


def test_an_unban_does_not_bring_a_card_outside_the_pool_into_the_format(index: CardIndex) -> None:
    history = BanListHistory.from_json(changes(("standard", "2026-01-01", "Brainstorm", "legal")))

    assert history.legality_on(index.card("Brainstorm"), "standard", D(2026, 2, 1)) is Legality.NOT_LEGAL


@pytest.mark.parametrize("event_file", ["melee-340292.json", "melee-450124.json"])
def test_the_lists_of_real_events_are_legal_on_their_own_dates(index: CardIndex, event_file: str) -> None:
    """A Pauper event of 2025-07-15 (High Tide unbanned 2025-03-31, banned again 2025-11-10) and
    a Premodern event of 2026-08-08: every list played there passes the ban check of its date."""
    event = json.loads((EVENTS / event_file).read_text(encoding="utf-8"))
    on = D.fromisoformat(event["date"][:10])
    format_id = event["format"].lower()
    refused = {}
    for player, lists in event["decklists"].items():
        counts: dict[str, int] = {}
        for count, name in lists["main"]:
            card = index.get(name)
            assert card is not None, name
            counts[card.name] = counts.get(card.name, 0) + count
        deck = Deck(player=player, format=format_id, main=counts)
        codes = {e.code for e in check_constructed_deck(deck, index, on=on)} - {ErrorCode.DECK_TOO_SMALL}
        if codes & {ErrorCode.BANNED, ErrorCode.RESTRICTED_OVER_1}:
            refused[player] = [str(e.message) for e in check_constructed_deck(deck, index, on=on)]

    assert refused == {}
    assert len(event["decklists"]) >= 21
