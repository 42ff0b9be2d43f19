"""A cut to day 2: who advances, who is paired after the cut, and the eliminated teams' tiebreakers."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.domain import (
    EventSettings,
    EventState,
    MatchResult,
    compute_standings,
    pair_round,
    tally,
    with_day_two_cut,
)
from tournaments.domain.day_two import DayTwo, DayTwoTiebreakers, day_two_problems


def _swiss(teams: int, rounds: int, seed: int, cut: DayTwo | None) -> EventState:
    """``rounds`` Swiss rounds paired by the engine, each match won by a random side."""
    outcomes = random.Random(seed)
    state = EventState(
        team_ids=tuple(range(1, teams + 1)), settings=replace(EventSettings.team_event(), day_two=cut)
    )
    for number in range(1, rounds + 1):
        if cut is not None and cut.applies_to(number):
            state = with_day_two_cut(state)
        pairing = pair_round(state, round_number=number, seed=seed + number)
        results = []
        for line in pairing.tables:
            if line.team_b is None:
                results.append(MatchResult.bye(number, line.team_a))
            else:
                a_wins = outcomes.random() < 0.5
                results.append(
                    MatchResult.played(number, line.team_a, line.team_b, int(a_wins), int(not a_wins))
                )
        state = state.with_results(results)
    return state


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_round_4_of_32_teams_pairs_exactly_the_teams_with_6_or_more_points(seed: int) -> None:
    cut = DayTwo(after_round=3, min_match_points=6)
    state = with_day_two_cut(_swiss(32, 3, seed, cut))
    points = {team: record.match_points for team, record in tally(state).items()}

    pairing = pair_round(state, round_number=4, seed=seed)
    paired = {team for line in pairing.tables for team in (line.team_a, line.team_b) if team is not None}

    assert paired == {team for team, p in points.items() if p >= 6}
    assert state.eliminated == {team for team, p in points.items() if p < 6}


def test_eliminated_teams_keep_their_rows_marked_and_are_never_paired_again() -> None:
    cut = DayTwo(after_round=2, min_match_points=6)
    state = _swiss(16, 4, 7, cut)
    rows = compute_standings(state, seed=1)

    assert len(rows) == 16
    eliminated = {row.team_id for row in rows if row.eliminated}
    assert eliminated == state.eliminated and 0 < len(eliminated) < 16
    late = [r for r in state.results if r.round_number > 2]
    assert not {t for r in late for t in r.teams} & eliminated
    assert all(not row.dropped for row in rows)
    assert max(r.rank for r in rows if r.eliminated) == 16
    assert min(r.rank for r in rows if r.eliminated) == 16 - len(eliminated) + 1


def test_frozen_tiebreakers_stay_as_at_the_cut_and_mtr_ones_move_on() -> None:
    mtr = _swiss(16, 4, 11, DayTwo(2, 6))
    frozen = replace(mtr, settings=replace(mtr.settings, day_two=DayTwo(2, 6, DayTwoTiebreakers.FROZEN)))
    at_cut = {
        row.team_id: row
        for row in compute_standings(
            EventState(team_ids=mtr.team_ids, results=mtr.results_through(2), settings=mtr.settings), seed=1
        )
    }

    by_mtr = {row.team_id: row for row in compute_standings(mtr, seed=1)}
    by_frozen = {row.team_id: row for row in compute_standings(frozen, seed=1)}

    for team in mtr.eliminated:
        assert by_frozen[team].omw == at_cut[team].omw
        assert by_frozen[team].eliminated
    assert any(by_mtr[team].omw != at_cut[team].omw for team in mtr.eliminated)


def test_day_two_setting_problems_name_what_is_wrong() -> None:
    assert day_two_problems({"after_round": 3, "min_match_points": 6}, 6) == []
    assert day_two_problems(None, 6) == []
    assert day_two_problems({"after_round": 6, "min_match_points": 6}, 6) == [
        "after_round must be before the last Swiss round (6)"
    ]
    assert day_two_problems({"after_round": 2, "min_match_points": 7}, None) == [
        "min_match_points 7 is more than 6, a perfect record after round 2"
    ]
    assert day_two_problems({"after_round": 3}, 6) == [
        'give {"after_round": R, "min_match_points": P}, or null for no cut'
    ]


def test_the_example_of_the_decisions_page() -> None:
    """docs/decisions.md "A cut to day 2": X is cut at 1-2 after round 3; its opponents A (2-1),
    B (1-2) and C (3-0) end at 4-2, 1-2 and 5-1."""
    x, a, b, c = 1, 2, 3, 4
    d, e, f, g, h, i, j, k, m = range(5, 14)
    rounds = {
        1: [(c, x), (d, a), (b, f), (h, j), (k, i)],
        2: [(a, x), (g, b), (c, h), (j, e), (k, m)],
        3: [(x, b), (a, e), (c, i), (j, k), (d, m)],
        4: [(a, j), (k, c)],
        5: [(j, a), (c, k)],
        6: [(a, k), (c, j)],
    }
    results = [
        MatchResult.played(n, winner, loser, 1, 0) for n, pairs in rounds.items() for winner, loser in pairs
    ]
    cut = DayTwo(after_round=3, min_match_points=6)
    state = with_day_two_cut(
        EventState(
            team_ids=tuple(range(1, 14)),
            results=tuple(results),
            settings=replace(EventSettings.team_event(), day_two=cut),
        )
    )
    frozen = replace(
        state, settings=replace(state.settings, day_two=replace(cut, tiebreakers=DayTwoTiebreakers.FROZEN))
    )

    assert {x, b} <= state.eliminated and not {a, c, j, k} & state.eliminated
    by_mtr = {row.team_id: row for row in compute_standings(state, seed=1)}
    by_frozen = {row.team_id: row for row in compute_standings(frozen, seed=1)}
    assert by_mtr[x].omw == Fraction(11, 18)  # (2/3 + 1/3 + 5/6) / 3 = 61.11%
    assert by_frozen[x].omw == Fraction(2, 3)  # (2/3 + 1/3 + 1) / 3 = 66.67%
