"""2HG Constructed per-deck rules (MTR 9.5, 6.1, 6.2) and 2HG Limited pool rules (MTR 9.6, 7.2)."""

from __future__ import annotations

import pytest

from decklists.domain import (
    DEFAULT_BOOSTERS,
    CardIndex,
    Deck,
    ErrorCode,
    LimitedKind,
    LimitedPool,
    check_constructed_deck,
    check_limited_team,
)


def _deck(format_id: str = "modern", filler: str = "Mountain", size: int = 60, **cards: int) -> Deck:
    """A deck of ``cards`` (keyword = card name with spaces) topped up to ``size`` with a basic."""
    main = {name.replace("_", " "): count for name, count in cards.items()}
    main[filler] = main.get(filler, 0) + max(0, size - sum(main.values()))
    return Deck(player="Ana", format=format_id, main=main)


def _codes(deck: Deck, index: CardIndex) -> list[tuple[ErrorCode, str | None]]:
    return [(e.code, e.card) for e in check_constructed_deck(deck, index)]


def test_constructed_real_main_deck_is_legal(index: CardIndex) -> None:
    deck = Deck(
        player="toondoslav",
        format="modern",
        main={"Lightning Bolt": 4, "Monastery Swiftspear": 4, "Mishra's Bauble": 4, "Mountain": 48},
    )

    assert check_constructed_deck(deck, index) == ()


def test_constructed_59_cards_is_too_small(index: CardIndex) -> None:
    errors = check_constructed_deck(_deck(size=59), index)

    assert [(e.code, e.players) for e in errors] == [(ErrorCode.DECK_TOO_SMALL, ("Ana",))]
    assert "59 cards" in errors[0].message


def test_constructed_more_than_60_is_fine(index: CardIndex) -> None:
    assert check_constructed_deck(_deck(size=75), index) == ()


def test_constructed_sideboard_is_not_allowed(index: CardIndex) -> None:
    deck = Deck(player="Ana", format="modern", main={"Mountain": 60}, sideboard={"Pyroblast": 2})

    assert _codes(deck, index) == [(ErrorCode.SIDEBOARD_NOT_ALLOWED, None)]


def test_constructed_companion_and_commander_are_not_allowed(index: CardIndex) -> None:
    deck = Deck(
        player="Ana",
        format="modern",
        main={"Mountain": 60},
        companion={"Lurrus of the Dream-Den": 1},
        commander={"Ragavan, Nimble Pilferer": 1},
    )

    assert _codes(deck, index) == [
        (ErrorCode.COMMANDER_NOT_ALLOWED, "Ragavan, Nimble Pilferer"),
        (ErrorCode.SIDEBOARD_NOT_ALLOWED, "Lurrus of the Dream-Den"),
    ]


@pytest.mark.parametrize(
    ("format_id", "card", "count", "expected"),
    [
        ("modern", "Ponder", 1, [(ErrorCode.BANNED, "Ponder")]),
        ("modern", "Brainstorm", 1, [(ErrorCode.NOT_LEGAL, "Brainstorm")]),
        ("pauper", "Utrom Monitor", 4, []),
        ("pauper", "Go for the Throat", 4, []),
        ("modern", "Utrom Monitor", 4, [(ErrorCode.NOT_LEGAL, "Utrom Monitor")]),
        ("vintage", "Black Lotus", 1, []),
        ("vintage", "Black Lotus", 2, [(ErrorCode.RESTRICTED_OVER_1, "Black Lotus")]),
        ("modern", "Lightning Bolt", 4, []),
        ("modern", "Lightning Bolt", 5, [(ErrorCode.TOO_MANY_COPIES, "Lightning Bolt")]),
        ("modern", "Relentless Rats", 30, []),
        ("modern", "Seven Dwarves", 7, []),
        ("modern", "Seven Dwarves", 8, [(ErrorCode.TOO_MANY_COPIES, "Seven Dwarves")]),
        ("modern", "Nazgûl", 9, []),
        ("modern", "Nazgûl", 10, [(ErrorCode.TOO_MANY_COPIES, "Nazgûl")]),
        ("modern", "Snow-Covered Island", 30, []),
        ("modern", "Wastes", 25, []),
    ],
)
def test_constructed_legality_and_copy_limits(
    index: CardIndex, format_id: str, card: str, count: int, expected: list[tuple[ErrorCode, str]]
) -> None:
    deck = Deck(player="Ana", format=format_id, main={card: count, "Island": 60})

    assert _codes(deck, index) == expected


def test_constructed_erayo_is_banned_in_every_2hg_format(index: CardIndex) -> None:
    erayo = "Erayo, Soratami Ascendant // Erayo's Essence"
    assert index.card(erayo).legality("modern").value == "legal"

    for format_id in ("modern", "legacy", "vintage"):
        deck = Deck(player="Ana", format=format_id, main={erayo: 1, "Island": 60})
        assert _codes(deck, index) == [(ErrorCode.TWO_HG_BANNED, erayo)]


def test_constructed_too_many_copies_message_names_the_own_limit(index: CardIndex) -> None:
    [error] = check_constructed_deck(
        Deck(player="Ana", format="modern", main={"Seven Dwarves": 8, "Island": 52}), index
    )

    assert error.message == "Ana: 8 copies of Seven Dwarves; the card's own limit is 7."


def test_constructed_name_missing_from_card_data_is_an_error_value(index: CardIndex) -> None:
    deck = Deck(player="Ana", format="modern", main={"Not A Card Name": 4, "Island": 60})

    assert _codes(deck, index) == [(ErrorCode.UNKNOWN_CARD, "Not A Card Name")]


def test_constructed_unknown_format(index: CardIndex) -> None:
    assert _codes(_deck(format_id="extended"), index) == [(ErrorCode.UNKNOWN_FORMAT, None)]


POOL = LimitedPool(
    kind=LimitedKind.SEALED,
    cards={"Lightning Bolt": 1, "Counterspell": 2, "Goblin Bushwhacker": 5, "Wastes": 1, "Mountain": 2},
)


def _limited(player: str, **cards: int) -> Deck:
    main = {name.replace("_", " "): count for name, count in cards.items()}
    return Deck(player=player, format="sealed", main=main)


def test_limited_decks_from_pool_plus_basics_are_legal(index: CardIndex) -> None:
    decks = [
        _limited("Ana", Lightning_Bolt=1, Goblin_Bushwhacker=5, Wastes=1, Mountain=33),
        _limited("Ben", Counterspell=1, Island=39),
    ]
    verdict = check_limited_team(POOL, decks)

    assert verdict.errors == ()
    assert verdict.shared_sideboard == {"Counterspell": 1, "Mountain": 2}


def test_limited_card_outside_the_pool(index: CardIndex) -> None:
    ana = Deck(player="Ana", format="sealed", main={"Ponder": 1, "Snow-Covered Island": 1, "Island": 38})
    decks = [ana, _limited("Ben", Wastes=2, Island=38)]
    verdict = check_limited_team(POOL, decks)

    assert [(e.code, e.card, e.players) for e in verdict.errors] == [
        (ErrorCode.NOT_IN_POOL, "Ponder", ("Ana",)),
        (ErrorCode.NOT_IN_POOL, "Snow-Covered Island", ("Ana",)),
        (ErrorCode.OVER_POOL_COUNT, "Wastes", ("Ben",)),
    ]


def test_limited_pool_counts_are_summed_across_the_team(index: CardIndex) -> None:
    decks = [_limited("Ben", Lightning_Bolt=1, Mountain=39), _limited("Ana", Lightning_Bolt=1, Mountain=39)]
    verdict = check_limited_team(POOL, decks)

    assert [(e.code, e.card, e.players) for e in verdict.errors] == [
        (ErrorCode.OVER_POOL_COUNT, "Lightning Bolt", ("Ana", "Ben"))
    ]
    assert (
        verdict.errors[0].message
        == "Ana, Ben: 2 copies of Lightning Bolt in the team's decks; the pool has 1."
    )


def test_limited_39_cards_is_too_small(index: CardIndex) -> None:
    verdict = check_limited_team(POOL, [_limited("Ana", Mountain=39), _limited("Ben", Mountain=40)])

    assert [(e.code, e.players) for e in verdict.errors] == [(ErrorCode.DECK_TOO_SMALL, ("Ana",))]


def test_limited_default_booster_counts() -> None:
    assert DEFAULT_BOOSTERS == {LimitedKind.SEALED: 8, LimitedKind.DRAFT: 6}
    assert LimitedPool(kind=LimitedKind.DRAFT, cards={}).booster_count == 6
    assert LimitedPool(kind=LimitedKind.SEALED, cards={}, boosters=12).booster_count == 12
