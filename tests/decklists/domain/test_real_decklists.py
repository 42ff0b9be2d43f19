"""The 200 real July 2026 MTGO lists, submitted as 2HG teams, against an independent check.

The expected verdicts are computed here from the raw snapshot JSON with plain set and
dict operations (resolution: full name, then front face, then Omenpath alias), never
through the code under test; each list is checked on its event's date, under the lists then in
force (the shipped ban-list history file), and the two Pauper cards the issue found wrongly not
legal there (Go for the Throat, Utrom Monitor) are legal. The tests assert that verdicts
*equal* that computation, and that all 200 published lists are legal on their dates.
"""

from __future__ import annotations

import datetime
import gzip
import itertools
import json
import random
from typing import Any

import pytest

from decklists.domain import (
    BAN_HISTORY_PATH,
    SNAPSHOT_PATH,
    CardIndex,
    ErrorCode,
    UdcMode,
    check_constructed_team,
    read_deck,
    render_arena,
    render_mtgo,
)
from tests.decklists.realdata import mtgo_text, real_decklists

RECORDS = real_decklists()
PAUPER_LEGAL_DESPITE_DATA = {"Go for the Throat", "Utrom Monitor"}


@pytest.fixture(scope="module")
def raw() -> dict[str, dict[str, Any]]:
    """Independent name → raw snapshot record, following the data README's resolution order."""
    data = json.loads(gzip.decompress(SNAPSHOT_PATH.read_bytes()))
    by_name = {c["name"]: c for c in data["cards"]}
    front = {c["face_names"][0]: c for c in data["cards"] if len(c["face_names"]) > 1}
    resolved: dict[str, dict[str, Any]] = {}
    for record in RECORDS:
        for _, name in record["main"] + record["side"]:
            card = (
                by_name.get(name)
                or front.get(name)
                or by_name.get(data["meta"]["name_aliases"].get(name, ""))
            )
            assert card is not None, name
            resolved[name] = card
    return resolved


@pytest.fixture(scope="module")
def history() -> dict[tuple[str, str], list[tuple[str, str]]]:
    """(format, card) → [(ISO date, status)] from the shipped ban-list history file."""
    found: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for change in json.loads(BAN_HISTORY_PATH.read_text(encoding="utf-8"))["changes"]:
        day = change["date"] or "0000-00-00"
        found.setdefault((change["format"], change["card"]), []).append((day, change["status"]))
    return found


def _main_text(record: dict[str, Any]) -> str:
    return "\n".join(f"{count} {name}" for count, name in record["main"]) + "\n"


def _legality_on_event_date(record: dict[str, Any], card: dict[str, Any], history: dict) -> str:
    fmt = record["format"]
    if fmt == "pauper" and card["name"] in PAUPER_LEGAL_DESPITE_DATA:
        return "legal"
    changes = sorted(history.get((fmt, card["name"]), []))
    if not changes:
        return card["legalities"][fmt]
    in_force = [status for day, status in changes if day <= record["event_date"]]
    if in_force:
        return in_force[-1]
    return "legal" if changes[0][1] != "legal" else "banned"


def _expected_deck_errors(
    record: dict[str, Any], raw: dict[str, dict[str, Any]], history: dict | None = None
) -> set[tuple]:
    counts: dict[str, int] = {}
    for count, name in record["main"]:
        counts[raw[name]["name"]] = counts.get(raw[name]["name"], 0) + count
    cards = {raw[name]["name"]: raw[name] for _, name in record["main"]}
    expected: set[tuple] = set()
    if sum(counts.values()) < 60:
        expected.add((ErrorCode.DECK_TOO_SMALL, None, (record["player"],)))
    for name, count in counts.items():
        legality = _legality_on_event_date(record, cards[name], history or {})
        if legality == "banned":
            expected.add((ErrorCode.BANNED, name, (record["player"],)))
        elif legality == "not_legal":
            expected.add((ErrorCode.NOT_LEGAL, name, (record["player"],)))
        elif cards[name]["copies_limit"] is None and count > 4:
            expected.add((ErrorCode.TOO_MANY_COPIES, name, (record["player"],)))
    return expected


def _nonbasic(record: dict[str, Any], raw: dict[str, dict[str, Any]]) -> set[str]:
    return {raw[name]["name"] for _, name in record["main"] if not raw[name]["is_basic_land"]}


def _expected_mtr(team: list[dict[str, Any]], raw: dict[str, dict[str, Any]]) -> set[tuple]:
    expected: set[tuple] = set()
    for a, b in itertools.combinations(team, 2):
        for name in _nonbasic(a, raw) & _nonbasic(b, raw):
            holders = tuple(sorted(r["player"] for r in team if name in _nonbasic(r, raw)))
            expected.add((ErrorCode.UDC_SHARED_CARD, name, holders))
    return expected


def _expected_legacy4(team: list[dict[str, Any]], raw: dict[str, dict[str, Any]]) -> set[tuple]:
    expected: set[tuple] = set()
    shared = set.union(*(_nonbasic(a, raw) & _nonbasic(b, raw) for a, b in itertools.combinations(team, 2)))
    for name in shared:
        holders = [r for r in team if name in _nonbasic(r, raw)]
        total = sum(c for r in holders for c, n in r["main"] if raw[n]["name"] == name)
        limit = next(raw[n] for r in holders for _, n in r["main"] if raw[n]["name"] == name)["copies_limit"]
        if total > (limit if isinstance(limit, int) else 10**6 if limit == "any" else 4):
            expected.add((ErrorCode.UDC_OVER_4_COMBINED, name, tuple(sorted(r["player"] for r in holders))))
    return expected


def _teams(size: int, count: int, seed: int) -> list[list[dict[str, Any]]]:
    """Random teams of distinct players drawn from decks of one format."""
    rng = random.Random(seed)
    by_format: dict[str, list[dict[str, Any]]] = {}
    for record in RECORDS:
        by_format.setdefault(record["format"], []).append(record)
    formats = sorted(by_format)
    teams = []
    while len(teams) < count:
        team = rng.sample(by_format[rng.choice(formats)], size)
        if len({r["player"] for r in team}) == size:
            teams.append(team)
    return teams


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: f"{r['format']}-{r['player']}")
def test_real_list_parses_and_round_trips_through_mtgo_and_arena(
    index: CardIndex, record: dict[str, Any]
) -> None:
    submission = read_deck(mtgo_text(record), index, player=record["player"], format_id=record["format"])

    assert submission.errors == ()
    deck = submission.deck
    assert sum(deck.main.values()) == sum(c for c, _ in record["main"])
    assert sum(deck.sideboard.values()) == sum(c for c, _ in record["side"])
    for text in (render_mtgo(deck, index), render_arena(deck, index)):
        assert read_deck(text, index, player=record["player"], format_id=record["format"]).deck == deck


def test_real_lists_legality_verdicts_match_independent_check(
    index: CardIndex, raw: dict, history: dict
) -> None:
    refused = []
    for record in RECORDS:
        deck = read_deck(_main_text(record), index, player=record["player"], format_id=record["format"]).deck
        on = datetime.date.fromisoformat(record["event_date"])
        got = {(e.code, e.card, e.players) for e in check_constructed_team([deck], index, on=on).errors}
        assert got == _expected_deck_errors(record, raw, history), record["player"]
        refused += [e[1] for e in got if e[0] in (ErrorCode.NOT_LEGAL, ErrorCode.BANNED)]

    assert refused == []


def test_real_lists_with_sideboard_are_rejected_for_2hg(index: CardIndex) -> None:
    record = RECORDS[0]
    deck = read_deck(mtgo_text(record), index, player=record["player"], format_id=record["format"]).deck

    codes = [e.code for e in check_constructed_team([deck], index).errors]
    assert codes == [ErrorCode.SIDEBOARD_NOT_ALLOWED]


@pytest.mark.parametrize(("size", "count", "seed"), [(2, 600, 1), (3, 150, 2), (4, 100, 3)])
@pytest.mark.parametrize("mode", list(UdcMode))
def test_real_teams_udc_verdicts_match_independent_check(
    index: CardIndex, raw: dict, size: int, count: int, seed: int, mode: UdcMode
) -> None:
    independent = _expected_mtr if mode is UdcMode.MTR else _expected_legacy4
    seen_codes: set[ErrorCode] = set()
    for team in _teams(size, count, seed):
        decks = [
            read_deck(_main_text(r), index, player=r["player"], format_id=r["format"]).deck for r in team
        ]
        verdict = check_constructed_team(decks, index, udc_mode=mode)
        udc = {(e.code, e.card, e.players) for e in verdict.errors if e.code.value.startswith("UDC_")}
        assert udc == independent(team, raw), [r["player"] for r in team]
        deck_level = {
            (e.code, e.card, e.players) for e in verdict.errors if not e.code.value.startswith("UDC_")
        }
        assert deck_level == set().union(*(_expected_deck_errors(r, raw) for r in team))
        seen_codes |= {e.code for e in verdict.errors}

    expected_code = ErrorCode.UDC_SHARED_CARD if mode is UdcMode.MTR else ErrorCode.UDC_OVER_4_COMBINED
    assert expected_code in seen_codes
