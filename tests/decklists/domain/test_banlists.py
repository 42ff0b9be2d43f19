"""Banned and restricted lists with their effective dates: legality on the event's date."""

from __future__ import annotations

import datetime

import pytest

from decklists.domain import (
    BanListError,
    BanListHistory,
    CardIndex,
    Deck,
    ErrorCode,
    Legality,
    check_constructed_deck,
)

D = datetime.date


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
    history = BanListHistory.from_json({"modern": [["2027-01-05", {"Lightning Bolt": "banned"}]]})
    dated = CardIndex(index.cards, formats=index.formats, ban_history=history)
    deck = Deck(player="Ana", format="modern", main={"Lightning Bolt": 4, "Mountain": 56})

    assert check_constructed_deck(deck, dated, on=D(2027, 1, 4)) == ()
    assert [e.code for e in check_constructed_deck(deck, dated, on=D(2027, 1, 5))] == [ErrorCode.BANNED]


def test_an_unban_makes_the_card_banned_before_and_legal_from_its_date(index: CardIndex) -> None:
    history = BanListHistory.from_json(
        {"modern": [["2026-01-01", {"Ponder": "legal"}]], "vintage": [["2026-01-01", {"Ponder": "legal"}]]}
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
    raw = {
        "pauper": [["2026-09-02", {"Narcomoeba": "banned", "Price of Progress": "banned"}]],
        "vintage": [["2026-08-10", {"The Fantasticar": "restricted"}]],
    }

    history = BanListHistory.from_json(raw)

    assert history.to_json() == raw
    assert len(history) == 3


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ([], "expected an object of formats"),
        ({"modern": {}}, "modern: expected a list"),
        ({"modern": [["2026-13-01", {"Ponder": "banned"}]]}, "modern entry 0: bad date '2026-13-01'"),
        ({"modern": [["2026-01-01", {"Ponder": "not_legal"}]]}, "'Ponder' has unknown status 'not_legal'"),
        ({"modern": [["2026-01-01"]]}, "modern entry 0: expected [date, {card: status}]"),
    ],
)
def test_malformed_history_says_where(raw, message: str) -> None:
    with pytest.raises(BanListError) as error:
        BanListHistory.from_json(raw)

    assert message in str(error.value)
