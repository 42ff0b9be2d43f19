from __future__ import annotations

import pytest

from tests.tournaments.domain.events import simulate, teams_in
from tournaments.domain import (
    EventState,
    MatchResult,
    PairingError,
    SettingsError,
    pair_round,
    standings_order,
    tally,
)

W = MatchResult.played


def _state(results=(), teams=8, **kwargs) -> EventState:
    return EventState(tuple(range(1, teams + 1)), tuple(results), **kwargs)


def test_round_one_is_random_from_the_seed_and_reproducible() -> None:
    state = _state(teams=20)
    first = pair_round(state, round_number=1, seed=42)
    assert first == pair_round(state, round_number=1, seed=42)
    others = {tuple(pair_round(state, round_number=1, seed=s).matches) for s in range(6)}
    assert len(others) == 6
    assert sorted(teams_in(first)) == list(range(1, 21))


def test_odd_round_one_gives_one_random_bye() -> None:
    byes = {pair_round(_state(teams=7), round_number=1, seed=s).bye_team for s in range(30)}
    assert len(byes) > 3


def test_bye_goes_to_the_lowest_team_without_a_bye() -> None:
    # After round 1 (5 teams): 1 beat 2, 3 beat 4, 5 had the bye.
    state = _state([W(1, 1, 2, 1, 0), W(1, 3, 4, 1, 0), MatchResult.bye(1, 5)], teams=5)
    byes = {pair_round(state, round_number=2, seed=s).bye_team for s in range(20)}
    assert byes == {2, 4}


def test_no_second_bye_while_another_team_can_take_it() -> None:
    # Team 5 had a bye and lost since; it is lowest, but 4 has no bye yet.
    results = [W(1, 1, 2, 1, 0), W(1, 3, 4, 1, 0), MatchResult.bye(1, 5), W(2, 1, 3, 1, 0), W(2, 2, 5, 1, 0)]
    results.append(MatchResult.bye(2, 4))
    state = _state(results, teams=5)
    pairing = pair_round(state, round_number=3, seed=1)
    assert pairing.bye_team not in (4, 5)
    assert pairing.second_bye is False


def test_rematch_is_avoided_even_when_the_group_pairing_would_need_one() -> None:
    # Four teams on 3 points where 1-2 and 3-4 already... plus 1 v 3 played: only 1-4, 2-3 is free.
    results = [W(1, 1, 5, 1, 0), W(1, 2, 6, 1, 0), W(1, 3, 7, 1, 0), W(1, 4, 8, 1, 0)]
    results += [W(2, 1, 2, 0, 0, 1), W(2, 3, 4, 0, 0, 1), W(2, 5, 6, 0, 0, 1), W(2, 7, 8, 0, 0, 1)]
    results += [W(3, 1, 3, 0, 0, 1), W(3, 2, 4, 0, 0, 1), W(3, 5, 7, 0, 0, 1), W(3, 6, 8, 0, 0, 1)]
    pairing = pair_round(_state(results), round_number=4, seed=3)
    assert pairing.rematches == ()
    assert {frozenset(m) for m in pairing.matches} >= {frozenset((1, 4)), frozenset((2, 3))}


def test_unavoidable_rematch_is_reported() -> None:
    results = [W(1, 1, 2, 1, 0), W(2, 1, 2, 0, 1)]
    pairing = pair_round(_state(results, teams=2), round_number=3, seed=1)
    assert pairing.rematches == ((1, 2),) or pairing.rematches == ((2, 1),)
    assert any("Rematch" in line for line in pairing.explanation)


def test_keep_apart_pairs_are_avoided_in_round_one_and_reported_when_impossible() -> None:
    state = _state(teams=4, keep_apart=((1, 2), (3, 4)))
    for seed in range(10):
        assert not {frozenset(m) for m in pair_round(state, round_number=1, seed=seed).matches} & {
            frozenset((1, 2)),
            frozenset((3, 4)),
        }
    impossible = _state(teams=2, keep_apart=((1, 2),))
    pairing = pair_round(impossible, round_number=1, seed=1)
    assert len(pairing.unmet_keep_apart) == 1
    assert any("Keep-apart not met" in line for line in pairing.explanation)


def test_dropped_and_disqualified_teams_are_never_paired() -> None:
    results = [W(1, a, a + 1, 1, 0) for a in range(1, 9, 2)]
    state = _state(results, drops={3: 2}, disqualified={6})
    pairing = pair_round(state, round_number=2, seed=9)
    assert sorted(teams_in(pairing)) == [1, 2, 4, 5, 7, 8]


def test_drop_after_pairing_takes_effect_next_round() -> None:
    state = _state(drops={3: 2})
    assert 3 in teams_in(pair_round(state, round_number=1, seed=1))


def test_odd_group_pairs_down_with_an_explanation() -> None:
    # After round 1 with a bye: 3 teams on 3 points (1, 3, 5), 2 teams on 0.
    state = _state([W(1, 1, 2, 1, 0), W(1, 3, 4, 1, 0), MatchResult.bye(1, 5)], teams=5)
    pairing = pair_round(state, round_number=2, seed=4)
    assert len(pairing.paired_down) == 1
    down = pairing.paired_down[0]
    assert (down.higher_points, down.lower_points) == (3, 0)
    assert "odd number of teams" in down.reason
    assert any(line.startswith(f"Team {down.higher} (3 points) paired down") for line in pairing.explanation)
    assert any(line.startswith("Bye: team") for line in pairing.explanation)


def test_tables_follow_the_standings_and_fixed_tables_are_kept() -> None:
    state = simulate(16, 2, seed=5)
    plain = pair_round(state, round_number=3, seed=5)
    rank = {team: i for i, team in enumerate(standings_order(state, seed=5))}
    assert [t.table for t in plain.tables] == list(range(1, 9))
    assert all(rank[t.team_a] < rank[t.team_b] for t in plain.tables)
    assert [rank[t.team_a] for t in plain.tables] == sorted(rank[t.team_a] for t in plain.tables)
    fixed_team = plain.tables[-1].team_a
    pinned = EventState(state.team_ids, state.results, fixed_tables={fixed_team: 1})
    with_fixed = pair_round(pinned, round_number=3, seed=5)
    assert set(with_fixed.matches) == set(plain.matches)
    table_of = {t.team_a: t.table for t in with_fixed.tables} | {t.team_b: t.table for t in with_fixed.tables}
    assert table_of[fixed_team] == 1
    assert sorted(t.table for t in with_fixed.tables) == list(range(1, 9))


def test_two_fixed_tables_in_one_match_are_reported() -> None:
    state = _state(teams=2, fixed_tables={1: 5, 2: 7})
    pairing = pair_round(state, round_number=1, seed=1)
    assert pairing.tables[0].table in (5, 7)
    assert len(pairing.unmet_fixed_tables) == 1


def test_late_entry_is_paired_with_its_missed_round_as_a_loss() -> None:
    results = [W(1, 1, 2, 1, 0), W(1, 3, 4, 1, 0), MatchResult.missed_round(1, 5), MatchResult.bye(1, 6)]
    pairing = pair_round(_state(results, teams=6), round_number=2, seed=2)
    assert 5 in teams_in(pairing)


def test_pairing_a_round_with_results_or_without_teams_is_refused() -> None:
    with pytest.raises(PairingError):
        pair_round(_state([W(1, 1, 2, 1, 0)]), round_number=1, seed=1)
    with pytest.raises(PairingError):
        pair_round(_state(teams=1), round_number=1, seed=1)
    with pytest.raises(PairingError):
        pair_round(_state(), round_number=0, seed=1)


def test_pairs_give_table_team_a_team_b_with_the_bye_last() -> None:
    pairing = pair_round(_state(teams=5), round_number=1, seed=8)
    assert pairing.pairs[-1] == (None, pairing.bye_team, None)
    assert [p[0] for p in pairing.pairs[:-1]] == [1, 2]


def _dropped_opponents_state() -> EventState:
    """Teams 1-4 on 6, 3, 1 and 0 points, none of them met yet; their past opponents 5-8 dropped."""
    results = [W(1, 1, 5, 1, 0), W(1, 2, 6, 1, 0), W(1, 3, 7, 0, 0, 1), W(1, 8, 4, 1, 0)]
    results += [W(2, 1, 7, 1, 0), W(2, 5, 2, 1, 0), W(2, 8, 3, 1, 0), W(2, 6, 4, 1, 0)]
    return _state(results, drops={t: 3 for t in range(5, 9)})


def test_equal_pair_downs_take_the_smallest_point_gap() -> None:
    # Every pairing of 6, 3, 1, 0 has two off-group pairs and no rematch: counting pair-downs alone
    # ties 6-3 + 1-0 (gap 4) with 6-1 + 3-0 and 6-0 + 3-1 (gap 8); the smallest gap must win.
    state = _dropped_opponents_state()
    for seed in range(10):
        pairing = pair_round(state, round_number=3, seed=seed)
        assert {frozenset(m) for m in pairing.matches} == {frozenset((1, 2)), frozenset((3, 4))}
        assert sorted((d.higher_points, d.lower_points) for d in pairing.paired_down) == [(1, 0), (6, 3)]


def test_floater_from_the_six_point_group_meets_a_three_point_team_not_a_zero() -> None:
    # 12 teams, two rounds (odd ids win), then 11 and 12 drop: 6 points {1, 5, 9}, 3 points
    # {2, 3, 6, 7, 10}, 0 points {4, 8}. The 6-point group's extra team pairs down into the adjacent
    # 3-point group (which has its own extra team), not across it to the 0-point group.
    results = [W(1, a, a + 1, 1, 0) for a in range(1, 12, 2)]
    results += [W(2, 1, 3, 1, 0), W(2, 5, 7, 1, 0), W(2, 9, 11, 1, 0)]
    results += [W(2, 2, 4, 1, 0), W(2, 6, 8, 1, 0), W(2, 10, 12, 1, 0)]
    state = _state(results, teams=12, drops={11: 3, 12: 3})
    for seed in range(10):
        pairing = pair_round(state, round_number=3, seed=seed)
        assert pairing.rematches == ()
        assert [(d.higher_points, d.lower_points) for d in pairing.paired_down] == [(6, 3)]
        assert frozenset((4, 8)) in {frozenset(m) for m in pairing.matches}


def _groups(*groups: tuple[int, int]) -> EventState:
    """Teams after four rounds with the given (points, count) groups, none of them met yet.

    Each team's wins, draws and losses were against its own opponents, who dropped after round 4,
    so nothing but the points shapes the pairing of round 5.
    """
    results, ghosts, teams = [], 1000, []
    for points, count in groups:
        for _ in range(count):
            team = len(teams) + 1
            teams.append(team)
            wins, draws = divmod(points, 3)
            for round_number in range(1, 5):
                ghosts += 1
                a, b = (1, 0) if round_number <= wins else (0, 0)
                draw = 1 if wins < round_number <= wins + draws else 0
                if not a and not draw:
                    b = 1
                results.append(W(round_number, team, ghosts, a, b, draw))
    ghost_ids = range(1001, ghosts + 1)
    return EventState(tuple(teams) + tuple(ghost_ids), tuple(results), drops={g: 5 for g in ghost_ids})


@pytest.mark.parametrize(
    ("groups", "pair_downs"),
    [
        # The 12-point leader plays a 9, one 9 floats to the 6s, one 6 to the 3s: 1 + 1 + 1 = 3, not 12 v 3 (9).
        (((12, 1), (9, 6), (6, 6), (3, 5)), [(6, 3), (9, 6), (12, 9)]),
        # 9 v 6 and 6 v 3 (1 + 1) rather than 9 v 3 and 6 v 6 (4).
        (((9, 1), (6, 2), (3, 1)), [(6, 3), (9, 6)]),
        # 12 v 10 and 9 v 7: two pair-downs, each to the next group; not 12v10, 9v6, 7v6 skipping the 7s.
        (((12, 1), (10, 1), (9, 3), (7, 1), (6, 6), (3, 4)), [(9, 7), (12, 10)]),
        # The same with two 0-point teams: 18 teams, beyond the size the old exact search covered.
        (((12, 1), (10, 1), (9, 3), (7, 1), (6, 6), (3, 4), (0, 2)), [(9, 7), (12, 10)]),
    ],
)
def test_pair_downs_go_to_the_next_group_and_no_more_of_them_than_needed(groups, pair_downs) -> None:
    state = _groups(*groups)
    points = {t: r.match_points for t, r in tally(state).items()}
    assert sorted(points[t] for t in state.active_teams(5)) == sorted(p for p, n in groups for _ in range(n))
    for seed in range(12):
        pairing = pair_round(state, round_number=5, seed=seed)
        assert sorted((d.higher_points, d.lower_points) for d in pairing.paired_down) == pair_downs
        assert len(pairing.matches) == sum(n for _, n in groups) // 2


def test_awarded_byes_are_byes_for_their_rounds_then_the_team_is_paired() -> None:
    # 9 teams; team 1 holds a 2-round awarded bye, team 2 a 1-round one.
    state = _state(teams=9, awarded_byes={1: 2, 2: 1})
    for round_number in (1, 2, 3):
        pairing = pair_round(state, round_number=round_number, seed=round_number)
        awarded = {1, 2} if round_number == 1 else {1} if round_number == 2 else set()
        assert set(pairing.awarded_byes) == awarded
        assert {t.team_a for t in pairing.tables if t.team_b is None} >= awarded
        assert not awarded & {t for m in pairing.matches for t in m}
        assert sorted(teams_in(pairing)) == list(range(1, 10))
        results = [
            MatchResult.bye(round_number, t.team_a)
            if t.team_b is None
            else W(round_number, t.team_a, t.team_b, 1, 0)
            for t in pairing.tables
        ]
        state = state.with_results(results)
        if round_number == 2:
            record = tally(state)[1]
            assert (record.match_points, record.opponents, record.byes) == (6, (), 2)
    assert 1 in {t for m in pairing.matches for t in m}


def test_awarded_byes_are_zero_to_three_rounds() -> None:
    with pytest.raises(SettingsError):
        _state(teams=4, awarded_byes={1: 4})


def test_a_group_that_cannot_pair_inside_sends_both_teams_to_the_nearest_cheaper_group() -> None:
    # Round 1: teams 1-20 beat 21-40, and 41 drew 42. The 1-point group is only 41 and 42, who met:
    # both must leave it. Up (both against 3-point teams) and down (both against 0-point teams)
    # cost 1 + 1, one each way would make both big groups odd (cost 6); down has the smaller gaps.
    # The chain cannot prove this round, so the segments between the two large groups solve it.
    results = [W(1, a, a + 20, 1, 0) for a in range(1, 21)] + [W(1, 41, 42, 0, 0, 1)]
    state = _state(results, teams=42)
    for seed in range(6):
        pairing = pair_round(state, round_number=2, seed=seed)
        assert pairing.rematches == ()
        assert sorted((d.higher_points, d.lower_points) for d in pairing.paired_down) == [(1, 0), (1, 0)]
