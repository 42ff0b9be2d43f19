"""Name matching against the shipped 34k-card snapshot: forgiving where safe, strict on back faces."""

from __future__ import annotations

import time

import pytest

from decklists.domain import CardIndex, ErrorCode, Legality, load_card_index, name_key


@pytest.mark.parametrize(
    ("submitted", "canonical"),
    [
        ("Lightning Bolt", "Lightning Bolt"),
        ("  lightning BOLT  ", "Lightning Bolt"),
        ("Lightning   Bolt", "Lightning Bolt"),
        ("Mishra\u2019s Bauble", "Mishra's Bauble"),
        ("Nazgul", "Nazgûl"),
        ("Æther Vial", "Aether Vial"),
        ("Fire/Ice", "Fire // Ice"),
        ("Fire//Ice", "Fire // Ice"),
        ("fire // ice", "Fire // Ice"),
        ("Fire", "Fire // Ice"),
        ("Ice", "Fire // Ice"),
        ("Wear/Tear", "Wear // Tear"),
        ("Delver of Secrets", "Delver of Secrets // Insectile Aberration"),
        ("Bonecrusher Giant", "Bonecrusher Giant // Stomp"),
        ("Summon: Choco/Mog", "Summon: Choco/Mog"),
        ("Kavaero, Mind-Bitten", "Superior Spider-Man"),
    ],
)
def test_match_accepts_safe_spellings(index: CardIndex, submitted: str, canonical: str) -> None:
    assert index.match(submitted).card.name == canonical


def test_match_full_name_beats_a_back_face_with_the_same_name(index: CardIndex) -> None:
    assert index.card("Lightning Bolt").face_names == ("Lightning Bolt",)
    assert index.get("Emeritus of Conflict").name == "Emeritus of Conflict // Lightning Bolt"


@pytest.mark.parametrize("back_face", ["Insectile Aberration", "Stomp"])
def test_match_never_accepts_a_back_face(index: CardIndex, back_face: str) -> None:
    assert index.match(back_face).card is None
    assert index.match(back_face).error is ErrorCode.UNKNOWN_CARD


def test_match_full_name_beats_a_front_face(index: CardIndex) -> None:
    assert index.card("Bind").name == "Bind"


def test_match_front_face_of_two_cards_is_ambiguous(index: CardIndex) -> None:
    found = index.match("Start")

    assert found.card is None
    assert found.error is ErrorCode.AMBIGUOUS_CARD
    assert found.suggestions == ("Start // Finish", "Start // Fire")


def test_match_unknown_name_suggests_the_real_card(index: CardIndex) -> None:
    found = index.match("Lightnig Bolt")

    assert found.error is ErrorCode.UNKNOWN_CARD
    assert found.suggestions[0] == "Lightning Bolt"
    assert len(found.suggestions) <= 3


def test_suggest_garbage_gives_no_suggestion(index: CardIndex) -> None:
    assert index.suggest("qqqq zzzz xxxx") == ()


def test_suggest_is_fast_on_the_full_index(index: CardIndex) -> None:
    index.suggest("warmup")
    typos = ["Tarmagoyf", "Counterspel", "Ragavan Nimble Pilferer", "Urzas Saga", "Snapcaster Mag"]
    start = time.perf_counter()
    results = [index.suggest(t) for t in typos]
    elapsed = time.perf_counter() - start

    assert [r[0] for r in results] == [
        "Tarmogoyf",
        "Counterspell",
        "Ragavan, Nimble Pilferer",
        "Urza's Saga",
        "Snapcaster Mage",
    ]
    assert elapsed < 0.25


def test_snapshot_copy_limits_come_from_card_text(index: CardIndex) -> None:
    assert index.card("Nazgûl").max_copies == 9
    assert index.card("Seven Dwarves").max_copies == 7
    assert index.card("Relentless Rats").max_copies is None
    assert index.card("Lightning Bolt").max_copies == 4
    assert index.card("Relentless Rats").overrides_copy_limit is True
    assert index.card("Island").overrides_copy_limit is False


@pytest.mark.parametrize("name", ["Island", "Snow-Covered Island", "Wastes", "Snow-Covered Wastes"])
def test_snapshot_basic_supertype_lands_are_basic(index: CardIndex, name: str) -> None:
    assert index.card(name).is_basic_land is True


def test_snapshot_legalities_are_enums(index: CardIndex) -> None:
    assert index.card("Black Lotus").legality("vintage") is Legality.RESTRICTED
    assert index.card("Ponder").legality("modern") is Legality.BANNED
    assert index.card("Lightning Bolt").legality("no-such-format") is Legality.NOT_LEGAL


def test_load_card_index_is_cached_in_process() -> None:
    assert load_card_index() is load_card_index()
    assert len(load_card_index()) == 34_622


def test_name_key_folds_case_accents_quotes_and_slashes() -> None:
    assert name_key(" Lim-D\u00fbl\u2019s  Vault ") == "lim-dul's vault"
    assert name_key("Fire/Ice") == name_key("Fire // Ice") == "fire // ice"
