"""Replaying real published events (tests/fixtures/events) must reproduce their standings.

The files are best-of-three individual events: each player is a team of one, games per match 3,
the individual tiebreakers (MP, OMW%, GW%, OGW%) and the default 1/3 floor. Percentages are
compared to the printed precision (7 or 8 decimals); ranks are compared except among players
tied on every tiebreaker, whose order is the seed's.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from tournaments.domain import EventSettings, EventState, MatchResult, StandingRow, compute_standings

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "events"
EVENT_FILES = sorted(FIXTURES.glob("*.json"))
PRINTED_PRECISION = 1e-7


def _replay(path: Path) -> tuple[dict, dict[str, int], list[StandingRow]]:
    event = json.loads(path.read_text())
    ids = {name: index for index, name in enumerate(event["players"], start=1)}
    results = []
    for round_number, event_round in enumerate(event["rounds"], start=1):
        for player_a, player_b, games in event_round["matches"]:
            if player_b is None:
                results.append(MatchResult.bye(round_number, ids[player_a]))
            else:
                results.append(
                    MatchResult.played(
                        round_number,
                        ids[player_a],
                        ids[player_b],
                        games["wins"],
                        games["losses"],
                        games["draws"],
                    )
                )
    state = EventState(tuple(ids.values()), tuple(results), EventSettings.individual_event())
    return event, ids, compute_standings(state, seed=20250715)


def test_fixtures_are_present() -> None:
    assert [p.name for p in EVENT_FILES] == ["melee-340292.json", "melee-450124.json"]


@pytest.mark.parametrize("path", EVENT_FILES, ids=lambda p: p.stem)
def test_points_and_tiebreakers_match_the_published_standings(path: Path) -> None:
    event, ids, rows = _replay(path)
    by_team = {row.team_id: row for row in rows}
    assert len(rows) == len(event["standings"])
    for _, player, points, omw, gw, ogw in event["standings"]:
        row = by_team[ids[player]]
        assert row.match_points == points, player
        assert float(row.omw) == pytest.approx(omw, abs=PRINTED_PRECISION), player
        assert float(row.ogw) == pytest.approx(ogw, abs=PRINTED_PRECISION), player
        # melee-340292 prints own GW% unfloored (0.0); the rule floors it, so compare where they agree.
        if gw >= 1 / 3:
            assert float(row.gw) == pytest.approx(gw, abs=PRINTED_PRECISION), player
        else:
            assert row.gw == Fraction(1, 3), player


#: melee.gg ranks these two by their unfloored own GW% (0.30 v 0.2857) although both are floored
#: to 1/3 by the rule (docs/rules.md#percentages), which leaves OGW% to decide the other way. Every other
#: published rank is reproduced.
KNOWN_SITE_DIVERGENCES = {"melee-340292": {"VaT 69": 38, "pedropannunzio": 39}}


@pytest.mark.parametrize("path", EVENT_FILES, ids=lambda p: p.stem)
def test_ranks_match_the_published_standings(path: Path) -> None:
    event, ids, rows = _replay(path)
    by_team = {row.team_id: row for row in rows}
    key = {row.team_id: (row.match_points, row.omw, row.gw, row.ogw) for row in rows}
    divergent = KNOWN_SITE_DIVERGENCES.get(path.stem, {})
    for published_rank, player, *_ in event["standings"]:
        team = ids[player]
        if player in divergent:
            continue
        tied_ranks = sorted(by_team[t].rank for t in key if key[t] == key[team])
        published_tied = sorted(r for r, p, *_ in event["standings"] if key[ids[p]] == key[team])
        assert tied_ranks == published_tied, player
        if len(tied_ranks) == 1:
            assert by_team[team].rank == published_rank, player


def test_the_known_divergence_is_exactly_the_unfloored_own_gw_ordering() -> None:
    event, ids, rows = _replay(FIXTURES / "melee-340292.json")
    by_team = {row.team_id: row for row in rows}
    published = {p: (rank, gw) for rank, p, _, _, gw, _ in event["standings"]}
    first, second = by_team[ids["VaT 69"]], by_team[ids["pedropannunzio"]]
    assert (first.match_points, first.omw, first.gw) == (second.match_points, second.omw, second.gw)
    assert first.ogw < second.ogw
    assert (second.rank, first.rank) == (38, 39)
    assert published["VaT 69"][1] > published["pedropannunzio"][1]
    assert (published["VaT 69"][0], published["pedropannunzio"][0]) == (38, 39)
