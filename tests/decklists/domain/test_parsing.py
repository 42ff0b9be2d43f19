"""Decklist text formats players paste, and line-numbered errors for everything else."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from decklists.domain import (
    MAX_CHARS,
    MAX_LINES,
    CardIndex,
    Deck,
    ErrorCode,
    Section,
    parse_decklist,
    read_deck,
    render_arena,
    render_csv,
    render_mtgo,
)


def _triples(text: str) -> list[tuple[str, int, str]]:
    return [(e.section.value, e.count, e.name) for e in parse_decklist(text).entries]


def test_parse_mtgo_blank_line_starts_the_sideboard() -> None:
    text = "4 Lightning Bolt\n20 Mountain\n\n2 Pyroblast\n"

    assert _triples(text) == [
        ("main", 4, "Lightning Bolt"),
        ("main", 20, "Mountain"),
        ("sideboard", 2, "Pyroblast"),
    ]


def test_parse_mtgo_sideboard_header_and_crlf() -> None:
    text = "\ufeff4 Lightning Bolt\r\nSideboard\r\n2 Pyroblast\r\n"

    assert _triples(text) == [("main", 4, "Lightning Bolt"), ("sideboard", 2, "Pyroblast")]


def test_parse_arena_export_with_sections_and_printings() -> None:
    text = (
        "About\nName Burn\n\nCompanion\n1 Lurrus of the Dream-Den (IKO) 226\n\n"
        "Deck\n4 Lightning Bolt (M10) 146\n4 Fire // Ice (MH2) 290 *F*\n\n"
        "Sideboard\n1 Lurrus of the Dream-Den (IKO) 226\n"
    )
    parsed = parse_decklist(text)

    assert _triples(text) == [
        ("companion", 1, "Lurrus of the Dream-Den"),
        ("main", 4, "Lightning Bolt"),
        ("main", 4, "Fire // Ice"),
        ("sideboard", 1, "Lurrus of the Dream-Den"),
    ]
    assert parsed.entries[1].printing == "(M10) 146"
    assert parsed.entries[1].line == 8


def test_parse_arena_commander_then_blank_then_cards_goes_to_main() -> None:
    text = "Commander\n1 Relentless Rats\n\n4 Lightning Bolt\n"

    assert _triples(text) == [("commander", 1, "Relentless Rats"), ("main", 4, "Lightning Bolt")]


def test_parse_x_counts_and_sb_prefix() -> None:
    text = "4x Lightning Bolt\n4 x Counterspell\n1X Xenagos, the Reveler\nSB: 2 Pyroblast\n3 Mountain\n"

    assert _triples(text) == [
        ("main", 4, "Lightning Bolt"),
        ("main", 4, "Counterspell"),
        ("main", 1, "Xenagos, the Reveler"),
        ("sideboard", 2, "Pyroblast"),
        ("main", 3, "Mountain"),
    ]


def test_parse_csv_with_header_and_quoted_commas() -> None:
    text = 'count,name\n4,Lightning Bolt\n2,"Ragavan, Nimble Pilferer"\n"1","Fire // Ice"\n'

    assert _triples(text) == [
        ("main", 4, "Lightning Bolt"),
        ("main", 2, "Ragavan, Nimble Pilferer"),
        ("main", 1, "Fire // Ice"),
    ]


def test_parse_csv_without_header() -> None:
    assert _triples("4,Lightning Bolt\n20, Mountain\n") == [
        ("main", 4, "Lightning Bolt"),
        ("main", 20, "Mountain"),
    ]


def test_parse_mtgo_name_with_comma_is_not_csv() -> None:
    assert _triples("1 Ragavan, Nimble Pilferer\n") == [("main", 1, "Ragavan, Nimble Pilferer")]


def test_parse_errors_name_line_number_and_text() -> None:
    text = "4 Lightning Bolt\nLightning Bolt\n0 Mountain\n-2 Island\n1.5 Forest\n4x\n9999 Swamp\n4,Bolt,M10\n"
    parsed = parse_decklist(text)

    assert [(e.code, e.line, e.line_text) for e in parsed.errors] == [
        (ErrorCode.PARSE_MISSING_COUNT, 2, "Lightning Bolt"),
        (ErrorCode.PARSE_BAD_COUNT, 3, "0 Mountain"),
        (ErrorCode.PARSE_BAD_COUNT, 4, "-2 Island"),
        (ErrorCode.PARSE_BAD_COUNT, 5, "1.5 Forest"),
        (ErrorCode.PARSE_MISSING_NAME, 6, "4x"),
        (ErrorCode.PARSE_COUNT_TOO_LARGE, 7, "9999 Swamp"),
        (ErrorCode.PARSE_BAD_CSV, 8, "4,Bolt,M10"),
    ]
    assert [e.name for e in parsed.entries] == ["Lightning Bolt"]


def test_parse_rejects_control_characters() -> None:
    parsed = parse_decklist("4 Lightning Bolt\n4 Light\x00ning\n")

    assert [(e.code, e.line) for e in parsed.errors] == [(ErrorCode.PARSE_INVALID_CHARACTER, 2)]


def test_parse_limits_are_single_clear_errors() -> None:
    too_long = parse_decklist("4 Lightning Bolt\n" * (MAX_CHARS // 10))
    too_many = parse_decklist("1 Island\n" * (MAX_LINES + 1))

    assert [e.code for e in too_long.errors] == [ErrorCode.PARSE_TOO_LONG]
    assert [e.code for e in too_many.errors] == [ErrorCode.PARSE_TOO_MANY_LINES]
    assert too_long.entries == too_many.entries == ()


def test_parse_empty_and_card_free_text() -> None:
    assert [e.code for e in parse_decklist("  \n\n").errors] == [ErrorCode.PARSE_EMPTY]
    assert [e.code for e in parse_decklist("Deck\nSideboard\n// nothing\n").errors] == [
        ErrorCode.PARSE_NO_CARDS
    ]


def test_read_deck_misspelling_gets_line_and_suggestion(index: CardIndex) -> None:
    submission = read_deck("20 Mountain\n4 Lightnig Bolt\n", index, player="p1", format_id="modern")

    assert submission.deck is None
    [error] = submission.errors
    assert (error.code, error.line, error.line_text, error.players) == (
        ErrorCode.UNKNOWN_CARD,
        2,
        "4 Lightnig Bolt",
        ("p1",),
    )
    assert error.suggestions[0] == "Lightning Bolt"
    assert "did you mean 'Lightning Bolt'" in error.message


def test_read_deck_garbage_gets_errors_for_every_line(index: CardIndex) -> None:
    text = "asdf qwer\n3 zzzzqqqq\n\x07\n4 Lightning Bolt\n"
    submission = read_deck(text, index, player="p1", format_id="modern")

    assert [(e.code, e.line) for e in submission.errors] == [
        (ErrorCode.PARSE_MISSING_COUNT, 1),
        (ErrorCode.UNKNOWN_CARD, 2),
        (ErrorCode.PARSE_INVALID_CHARACTER, 3),
    ]


def test_read_deck_sums_repeated_names_and_drops_arena_companion_duplicate(index: CardIndex) -> None:
    text = "Companion\n1 Lurrus of the Dream-Den\n\nDeck\n2 Lightning Bolt\n2 lightning bolt\n1 Fire/Ice\n\n"
    text += "Sideboard\n1 Lurrus of the Dream-Den\n"
    deck = read_deck(text, index, player="p1", format_id="modern").deck

    assert deck == Deck(
        player="p1",
        format="modern",
        main={"Lightning Bolt": 4, "Fire // Ice": 1},
        sideboard={},
        companion={"Lurrus of the Dream-Den": 1},
    )


def test_read_deck_keeps_a_parenthesised_name_that_looks_like_a_printing(index: CardIndex) -> None:
    deck = read_deck(
        "1 Hazmat Suit (Used)\n1 Lightning Bolt (M10) 146\n", index, player="p", format_id="legacy"
    ).deck

    assert deck.main == {"Hazmat Suit (Used)": 1, "Lightning Bolt": 1}


def test_read_deck_resolves_front_face_and_omenpath_alias(index: CardIndex) -> None:
    deck = read_deck(
        "2 Delver of Secrets\n1 Kavaero, Mind-Bitten\n", index, player="p", format_id="modern"
    ).deck

    assert deck.main == {"Delver of Secrets // Insectile Aberration": 2, "Superior Spider-Man": 1}


_NAMES = [
    "Lightning Bolt",
    "Fire // Ice",
    "Wear // Tear",
    "Delver of Secrets // Insectile Aberration",
    "Bonecrusher Giant // Stomp",
    "Ragavan, Nimble Pilferer",
    "Nazgûl",
    "Mishra's Bauble",
    "Snow-Covered Island",
    "Summon: Choco/Mog",
    "Emeritus of Conflict // Lightning Bolt",
]
_counts = st.dictionaries(
    st.sampled_from(_NAMES), st.integers(min_value=1, max_value=60), max_size=len(_NAMES)
)


@settings(max_examples=150, deadline=None)
@given(main=_counts.filter(bool), sideboard=_counts)
def test_parse_of_render_is_identity(
    index: CardIndex, main: dict[str, int], sideboard: dict[str, int]
) -> None:
    deck = Deck(player="p", format="modern", main=main, sideboard=sideboard)

    for rendered in (render_mtgo(deck, index), render_arena(deck, index)):
        assert read_deck(rendered, index, player="p", format_id="modern").deck == deck
    main_only = Deck(player="p", format="modern", main=main)
    assert read_deck(render_csv(main_only), index, player="p", format_id="modern").deck == main_only


def test_sections_enum_values_are_stable() -> None:
    assert [s.value for s in Section] == ["main", "sideboard", "commander", "companion"]


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=400))
def test_parse_never_raises_and_errors_point_at_real_lines(text: str) -> None:
    parsed = parse_decklist(text)
    line_count = len(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))

    assert parsed.entries or parsed.errors
    assert all(e.line is None or 1 <= e.line <= line_count for e in parsed.errors)
    assert all(1 <= e.count <= 250 and e.name for e in parsed.entries)


def test_a_4900_character_line_is_echoed_cut_to_200_characters(index: CardIndex) -> None:
    long_name = "x" * 4900  # four such lines stay under MAX_CHARS (20,000)
    text = f"4 {long_name}\n{long_name}\n{'1' * 4900} Island\n{'1.' + '5' * 4900} Forest\n"

    submission = read_deck(text, index, player="p1", format_id="modern")

    assert [(e.code, e.line) for e in submission.errors] == [
        (ErrorCode.UNKNOWN_CARD, 1),
        (ErrorCode.PARSE_MISSING_COUNT, 2),
        (ErrorCode.PARSE_COUNT_TOO_LARGE, 3),
        (ErrorCode.PARSE_BAD_COUNT, 4),
    ]
    for error in submission.errors:
        assert error.line_text is not None
        assert len(error.line_text) == 201
        assert error.line_text.endswith("…")
        assert len(error.message) < 300
        assert "x" * 201 not in error.message and "1" * 201 not in error.message
    assert submission.errors[0].line_text == "4 " + "x" * 198 + "…"
    assert submission.errors[0].card == "x" * 200 + "…"
    assert submission.errors[0].message.startswith("Line 1: unknown card '" + "x" * 200 + "…'")


def test_a_count_int_refuses_to_convert_is_a_parse_error_not_an_exception() -> None:
    parsed = parse_decklist("²,Island\n0000,Island\n" + "0" * 5000 + "4 Island\n")

    assert [(e.code, e.line) for e in parsed.errors] == [
        (ErrorCode.PARSE_BAD_COUNT, 1),
        (ErrorCode.PARSE_BAD_COUNT, 2),
    ]
    assert [(e.count, e.line) for e in parsed.entries] == [(4, 3)]
