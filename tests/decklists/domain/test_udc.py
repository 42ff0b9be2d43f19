"""Unified Deck Construction, both modes of docs/rules.md#unified-deck-construction, for teams of 2, 3 and 4."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decklists.domain import (
    CardIndex,
    Deck,
    ErrorCode,
    UdcMode,
    UnifiedDeckConstruction,
    check_constructed_team,
)

MTR = UnifiedDeckConstruction(UdcMode.MTR)
LEGACY4 = UnifiedDeckConstruction(UdcMode.LEGACY4)


def _deck(player: str, cards: dict[str, int], format_id: str = "modern") -> Deck:
    main = dict(cards)
    main["Island"] = main.get("Island", 0) + max(0, 60 - sum(main.values()))
    return Deck(player=player, format=format_id, main=main)


def _udc(
    udc: UnifiedDeckConstruction, decks: list[Deck], index: CardIndex
) -> list[tuple[ErrorCode, str | None, tuple]]:
    return [(e.code, e.card, e.players) for e in udc.check(decks, index)]


def test_mtr_shared_card_is_an_error_naming_both_players(index: CardIndex) -> None:
    decks = [_deck("Ben", {"Lightning Bolt": 4}), _deck("Ana", {"Lightning Bolt": 1})]

    assert _udc(MTR, decks, index) == [(ErrorCode.UDC_SHARED_CARD, "Lightning Bolt", ("Ana", "Ben"))]


def test_mtr_basic_supertype_lands_may_be_shared(index: CardIndex) -> None:
    basics = {"Island": 10, "Snow-Covered Island": 10, "Wastes": 10}

    assert _udc(MTR, [_deck("Ana", basics), _deck("Ben", basics)], index) == []


def test_mtr_nonbasic_land_may_not_be_shared(index: CardIndex) -> None:
    decks = [_deck("Ana", {"Steam Vents": 4}), _deck("Ben", {"Steam Vents": 1})]

    assert _udc(MTR, decks, index) == [(ErrorCode.UDC_SHARED_CARD, "Steam Vents", ("Ana", "Ben"))]


@pytest.mark.parametrize("size", [3, 4])
def test_mtr_larger_teams(index: CardIndex, size: int) -> None:
    players = ["Ana", "Ben", "Cy", "Di"][:size]
    decks = [_deck(p, {"Counterspell": 1, f"{'Ponder' if p == 'Ana' else 'Preordain'}": 1}) for p in players]

    assert _udc(MTR, decks, index) == [
        (ErrorCode.UDC_SHARED_CARD, "Counterspell", tuple(players)),
        (ErrorCode.UDC_SHARED_CARD, "Preordain", tuple(players[1:])),
    ]


def test_mtr_copy_limit_override_in_two_decks(index: CardIndex) -> None:
    decks = [_deck("Ana", {"Relentless Rats": 20}), _deck("Ben", {"Shadowborn Apostle": 12})]
    [error] = MTR.check(decks, index)

    assert (error.code, error.players) == (ErrorCode.UDC_OVERRIDE_TWO_DECKS, ("Ana", "Ben"))
    assert "Ana: 20 Relentless Rats; Ben: 12 Shadowborn Apostle" in error.message


def test_mtr_override_card_within_4_does_not_count(index: CardIndex) -> None:
    decks = [_deck("Ana", {"Relentless Rats": 20}), _deck("Ben", {"Shadowborn Apostle": 4})]

    assert _udc(MTR, decks, index) == []


def test_udc_only_applies_when_every_deck_is_in_the_same_format(index: CardIndex) -> None:
    decks = [_deck("Ana", {"Lightning Bolt": 4}, "modern"), _deck("Ben", {"Lightning Bolt": 4}, "legacy")]
    verdict = check_constructed_team(decks, index)

    assert MTR.applies(decks) is False
    assert verdict.udc_applied is False
    assert verdict.errors == ()


def test_udc_does_not_apply_to_limited_or_a_single_deck(index: CardIndex) -> None:
    assert MTR.applies([_deck("Ana", {}, "sealed"), _deck("Ben", {}, "sealed")]) is False
    assert MTR.applies([_deck("Ana", {})]) is False


@pytest.mark.parametrize(
    ("ana", "ben", "expected"),
    [
        ({"Lightning Bolt": 2}, {"Lightning Bolt": 2}, []),
        ({"Lightning Bolt": 3}, {"Lightning Bolt": 2}, [(ErrorCode.UDC_OVER_4_COMBINED, "Lightning Bolt")]),
        ({"Seven Dwarves": 4}, {"Seven Dwarves": 3}, []),
        ({"Seven Dwarves": 4}, {"Seven Dwarves": 4}, [(ErrorCode.UDC_OVER_4_COMBINED, "Seven Dwarves")]),
        ({"Relentless Rats": 20}, {"Relentless Rats": 20}, []),
        ({"Snow-Covered Island": 20}, {"Snow-Covered Island": 20}, []),
    ],
)
def test_legacy4_combined_copy_limit(
    index: CardIndex, ana: dict[str, int], ben: dict[str, int], expected: list[tuple[ErrorCode, str]]
) -> None:
    decks = [_deck("Ana", ana), _deck("Ben", ben)]

    assert [(code, card) for code, card, _ in _udc(LEGACY4, decks, index)] == expected


def test_legacy4_restricted_once_per_team(index: CardIndex) -> None:
    decks = [_deck("Ana", {"Black Lotus": 1}, "vintage"), _deck("Ben", {"Black Lotus": 1}, "vintage")]

    assert _udc(LEGACY4, decks, index) == [(ErrorCode.UDC_RESTRICTED_TEAM, "Black Lotus", ("Ana", "Ben"))]
    assert _udc(MTR, decks, index) == [(ErrorCode.UDC_SHARED_CARD, "Black Lotus", ("Ana", "Ben"))]


def test_legacy4_team_of_three(index: CardIndex) -> None:
    ok = [
        _deck("Ana", {"Ponder": 2}, "legacy"),
        _deck("Ben", {"Ponder": 1}, "legacy"),
        _deck("Cy", {"Ponder": 1}, "legacy"),
    ]
    over = [*ok[:2], _deck("Cy", {"Ponder": 2}, "legacy")]

    assert _udc(LEGACY4, ok, index) == []
    assert _udc(LEGACY4, over, index) == [(ErrorCode.UDC_OVER_4_COMBINED, "Ponder", ("Ana", "Ben", "Cy"))]


def test_team_verdict_combines_deck_and_udc_errors(index: CardIndex) -> None:
    decks = [_deck("Ana", {"Lightning Bolt": 5}), _deck("Ben", {"Lightning Bolt": 1, "Ponder": 1})]
    verdict = check_constructed_team(decks, index, udc_mode=UdcMode.MTR)

    assert verdict.udc_applied is True
    assert [(e.code, e.card, e.players) for e in verdict.errors] == [
        (ErrorCode.BANNED, "Ponder", ("Ben",)),
        (ErrorCode.TOO_MANY_COPIES, "Lightning Bolt", ("Ana",)),
        (ErrorCode.UDC_SHARED_CARD, "Lightning Bolt", ("Ana", "Ben")),
    ]


_POOL = [
    "Lightning Bolt",
    "Counterspell",
    "Ponder",
    "Brainstorm",
    "Black Lotus",
    "Sol Ring",
    "Relentless Rats",
    "Shadowborn Apostle",
    "Seven Dwarves",
    "Nazgûl",
    "Island",
    "Snow-Covered Island",
    "Wastes",
    "Steam Vents",
    "Erayo, Soratami Ascendant // Erayo's Essence",
]
_cards = st.dictionaries(st.sampled_from(_POOL), st.integers(min_value=1, max_value=12), max_size=6)


@settings(max_examples=200, deadline=None)
@given(
    contents=st.lists(_cards, min_size=2, max_size=4),
    mode=st.sampled_from(list(UdcMode)),
    data=st.data(),
)
def test_udc_verdict_does_not_depend_on_deck_order(
    index: CardIndex, contents: list[dict[str, int]], mode: UdcMode, data: st.DataObject
) -> None:
    decks = [Deck(player=f"p{i}", format="vintage", main=cards) for i, cards in enumerate(contents)]
    shuffled = data.draw(st.permutations(decks))

    assert check_constructed_team(shuffled, index, udc_mode=mode) == check_constructed_team(
        decks, index, udc_mode=mode
    )
