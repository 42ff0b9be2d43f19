"""Standings and tiebreakers, with every worked example of docs/rules.md#worked-examples under both floors."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.domain import (
    EventSettings,
    EventState,
    MatchResult,
    SettingsError,
    StandingRow,
    Tiebreaker,
    compute_standings,
    format_percentage,
    parse_floor,
)

MTR_FLOOR = EventSettings.team_event("0.33")
THIRD_FLOOR = EventSettings.team_event("1/3")


class _Builder:
    """Builds an event in which chosen teams end with chosen records, against one-match filler teams.

    Fillers play a single match each, so they change nobody's tiebreakers but their opponent's.
    """

    def __init__(self) -> None:
        self.results: list[MatchResult] = []
        self.teams: set[int] = set()
        self.next_filler = 1000

    def play(self, round_number: int, a: int, b: int, a_wins: int, b_wins: int, draws: int = 0) -> None:
        self.results.append(MatchResult.played(round_number, a, b, a_wins, b_wins, draws))
        self.teams |= {a, b}

    def bye(self, round_number: int, team: int) -> None:
        self.results.append(MatchResult.bye(round_number, team))
        self.teams.add(team)

    def fill(self, team: int, wins: int, losses: int, draws: int, busy_rounds: set[int]) -> None:
        """Give ``team`` more results against fresh fillers, in rounds it has not played yet."""
        free_rounds = (r for r in range(1, 30) if r not in busy_rounds)
        for outcome in ["w"] * wins + ["l"] * losses + ["d"] * draws:
            filler = self.next_filler
            self.next_filler += 1
            games = {"w": (1, 0, 0), "l": (0, 1, 0), "d": (0, 0, 1)}[outcome]
            self.play(next(free_rounds), team, filler, *games)

    def state(self, settings: EventSettings, **kwargs) -> EventState:
        return EventState(tuple(sorted(self.teams)), tuple(self.results), settings, **kwargs)


def _row(rows: list[StandingRow], team: int) -> StandingRow:
    return next(row for row in rows if row.team_id == team)


# §3.4 B: a player at 6-2-0 whose opponents went these records; the player lost to 7-1-0 and 6-1-1.
OPPONENT_RECORDS = [(4, 4, 0), (7, 1, 0), (1, 3, 1), (3, 3, 1), (6, 2, 0), (5, 2, 1), (4, 3, 1), (6, 1, 1)]
PLAYER_LOST_TO = {1, 7}


def _example_b(settings: EventSettings, *, bye_in_round_one: bool) -> StandingRow:
    builder = _Builder()
    player = 1
    for index, (wins, losses, draws) in enumerate(OPPONENT_RECORDS):
        opponent = 10 + index
        round_number = index + 1
        if index == 0 and bye_in_round_one:
            builder.bye(1, player)
            builder.fill(opponent, wins, losses, draws, busy_rounds=set())
            continue
        if index in PLAYER_LOST_TO:
            builder.play(round_number, player, opponent, 0, 1)
            wins -= 1
        else:
            builder.play(round_number, player, opponent, 1, 0)
            losses -= 1
        builder.fill(opponent, wins, losses, draws, busy_rounds={round_number})
    rows = compute_standings(builder.state(settings), seed=1)
    return _row(rows, player)


@pytest.mark.parametrize(
    ("settings", "expected", "expected_with_bye"),
    [(MTR_FLOOR, "0.6164", "0.6330"), (THIRD_FLOOR, "0.6168", "0.6335")],
)
def test_worked_example_b_omw_with_and_without_a_bye(settings, expected, expected_with_bye) -> None:
    assert format_percentage(_example_b(settings, bye_in_round_one=False).omw) == expected
    assert format_percentage(_example_b(settings, bye_in_round_one=True).omw) == expected_with_bye


def test_worked_example_b_exact_values() -> None:
    mw = [Fraction(12, 24), Fraction(21, 24), Fraction(1, 3), Fraction(10, 21)]
    mw += [Fraction(18, 24), Fraction(16, 24), Fraction(13, 24), Fraction(19, 24)]
    assert _example_b(THIRD_FLOOR, bye_in_round_one=False).omw == sum(mw) / 8
    assert _example_b(THIRD_FLOOR, bye_in_round_one=True).omw == sum(mw[1:]) / 7


def _example_d(settings: EventSettings, penalty: int = 0) -> tuple[list[StandingRow], EventState]:
    """§3.4 D: T had a round-1 bye, beat X, lost to Y, drew with Z; X ends 1-3-0, Y 4-0-0, Z 2-1-1."""
    builder = _Builder()
    t, x, y, z = 1, 2, 3, 4
    builder.bye(1, t)
    builder.play(2, t, x, 1, 0)
    builder.play(3, t, y, 0, 1)
    builder.play(4, t, z, 0, 0, 1)
    builder.fill(x, 1, 2, 0, busy_rounds={2})
    builder.fill(y, 3, 0, 0, busy_rounds={3})
    builder.fill(z, 2, 1, 0, busy_rounds={4})
    state = builder.state(settings, penalty_points={t: penalty} if penalty else {})
    return compute_standings(state, seed=7), state


@pytest.mark.parametrize(("settings", "expected"), [(MTR_FLOOR, "0.6378"), (THIRD_FLOOR, "0.6389")])
def test_worked_example_d_2hg_team_with_a_bye(settings, expected) -> None:
    rows, _ = _example_d(settings)
    team = _row(rows, 1)
    assert (team.match_points, team.wins, team.losses, team.draws, team.byes) == (7, 2, 1, 1, 1)
    assert team.mw == Fraction(7, 12)
    assert format_percentage(team.omw) == expected


def test_worked_example_d_penalty_lowers_mw_and_what_opponents_see() -> None:
    rows, _ = _example_d(THIRD_FLOOR, penalty=-1)
    team = _row(rows, 1)
    assert (team.match_points, team.penalty_points, team.mw) == (6, -1, Fraction(1, 2))
    # X's opponents: T (adjusted 6/12), the filler X beat (0-1, floored) and two fillers that beat X (1-0).
    assert _row(rows, 2).omw == (Fraction(1, 2) + Fraction(1, 3) + 2) / 4
    unpenalised, _ = _example_d(THIRD_FLOOR)
    assert _row(unpenalised, 2).omw == (Fraction(7, 12) + Fraction(1, 3) + 2) / 4


@pytest.mark.parametrize(
    ("wins", "losses", "draws", "byes", "expected"),
    [
        (5, 2, 1, 0, Fraction(16, 24)),  # 5-2-1 over 8 rounds
        (1, 3, 0, 0, Fraction(1, 3)),  # 1-3-0 then dropped: 0.25 floored
        (2, 2, 0, 1, Fraction(9, 15)),  # 3-2-0 including a bye: 0.60
    ],
)
def test_worked_example_a_match_win_percentage(wins, losses, draws, byes, expected) -> None:
    builder = _Builder()
    if byes:
        builder.bye(1, 1)
    builder.fill(1, wins, losses, draws, busy_rounds={1} if byes else set())
    rows = compute_standings(builder.state(THIRD_FLOOR), seed=1)
    assert _row(rows, 1).mw == expected


def test_worked_example_a_mtr_floor_is_exactly_033() -> None:
    builder = _Builder()
    builder.fill(1, 1, 3, 0, busy_rounds=set())
    assert _row(compute_standings(builder.state(MTR_FLOOR), seed=1), 1).mw == Fraction(33, 100)


@pytest.mark.parametrize(("won", "lost", "expected"), [(7, 3, Fraction(7, 10)), (3, 8, Fraction(1, 3))])
def test_worked_example_c_game_win_percentage(won, lost, expected) -> None:
    # 21 game points over 10 games -> 0.70; 9 over 11 -> 0.27, floored.
    results = [MatchResult.played(i + 1, 1, 100 + i, 1, 0) for i in range(won)]
    results += [MatchResult.played(won + i + 1, 1, 200 + i, 0, 1) for i in range(lost)]
    teams = (1, *range(100, 100 + won), *range(200, 200 + lost))
    rows = compute_standings(EventState(teams, tuple(results), EventSettings.individual_event()), seed=1)
    assert _row(rows, 1).gw == expected


def test_bye_counts_the_games_needed_to_win() -> None:
    results = (MatchResult.bye(1, 1), MatchResult.played(2, 1, 2, 0, 2))
    best_of_three = compute_standings(EventState((1, 2), results, EventSettings.individual_event()), seed=1)
    single_game = compute_standings(EventState((1, 2), results, EventSettings.team_event()), seed=1)
    assert _row(best_of_three, 1).gw == Fraction(6, 12)
    assert _row(single_game, 1).gw == Fraction(3, 9)


def test_own_byes_are_left_out_of_omw_and_missed_rounds_are_nobodys_opponent() -> None:
    results = (
        MatchResult.bye(1, 1),
        MatchResult.missed_round(1, 3),
        MatchResult.played(1, 2, 4, 1, 0),
        MatchResult.played(2, 1, 3, 1, 0),
        MatchResult.played(2, 2, 4, 1, 0),
    )
    rows = compute_standings(EventState((1, 2, 3, 4), results), seed=1)
    late = _row(rows, 3)
    assert (late.rounds_played, late.losses, late.mw) == (2, 2, Fraction(1, 3))
    assert _row(rows, 1).omw == Fraction(1, 3)  # only team 3, floored
    assert _row(rows, 1).mw == Fraction(6, 6)


def test_intentional_draw_and_double_loss_in_standings() -> None:
    results = (MatchResult.intentional_draw(1, 1, 2), MatchResult.double_loss(1, 3, 4))
    rows = compute_standings(EventState((1, 2, 3, 4), results, EventSettings.individual_event()), seed=1)
    assert [(r.match_points, r.draws, r.losses) for r in sorted(rows, key=lambda r: r.team_id)] == [
        (1, 1, 0),
        (1, 1, 0),
        (0, 0, 1),
        (0, 0, 1),
    ]
    assert _row(rows, 1).gw == Fraction(3, 9)
    assert _row(rows, 3).omw == Fraction(1, 3)


def test_penalty_may_take_a_team_below_zero() -> None:
    state = EventState((1, 2), (MatchResult.played(1, 1, 2, 1, 0),), penalty_points={2: -2})
    rows = compute_standings(state, seed=1)
    assert (_row(rows, 2).match_points, _row(rows, 2).mw, _row(rows, 1).omw) == (
        -2,
        Fraction(1, 3),
        Fraction(1, 3),
    )


def test_dropped_team_keeps_its_frozen_record_and_counts_as_opponent() -> None:
    results = (
        MatchResult.played(1, 1, 2, 1, 0),
        MatchResult.played(1, 3, 4, 1, 0),
        MatchResult.played(2, 1, 3, 1, 0),
        MatchResult.bye(2, 4),
    )
    rows = compute_standings(EventState((1, 2, 3, 4), results, drops={2: 2}), seed=1)
    dropped = _row(rows, 2)
    assert (dropped.dropped, dropped.rounds_played, dropped.mw) == (True, 1, Fraction(1, 3))
    assert _row(rows, 1).omw == (Fraction(1, 3) + Fraction(1, 2)) / 2


def test_team_dropped_before_round_one_is_not_in_the_standings() -> None:
    results = (MatchResult.played(1, 1, 2, 1, 0),)
    rows = compute_standings(EventState((1, 2, 3), results, drops={3: 1}), seed=1)
    assert [r.team_id for r in rows] == [1, 2]


def test_disqualified_team_is_removed_everyone_below_moves_up_and_it_still_counts_as_opponent() -> None:
    results = (
        MatchResult.played(1, 1, 2, 1, 0),
        MatchResult.played(1, 3, 4, 1, 0),
        MatchResult.played(2, 1, 3, 1, 0),
    )
    results += (MatchResult.played(2, 2, 4, 1, 0),)
    full = compute_standings(EventState((1, 2, 3, 4), results), seed=1)
    without = compute_standings(EventState((1, 2, 3, 4), results, disqualified={1}), seed=1)
    assert full[0].team_id == 1
    assert [r.team_id for r in without] == [r.team_id for r in full[1:]]
    assert [r.rank for r in without] == [1, 2, 3]
    assert _row(without, 2).omw == _row(full, 2).omw


def test_team_event_ranks_by_points_then_omw_only() -> None:
    # Team 1 and 3 both 3 points; 1 beat the stronger opponent.
    results = (
        MatchResult.played(1, 1, 2, 1, 0),
        MatchResult.played(1, 3, 4, 1, 0),
        MatchResult.played(2, 2, 5, 1, 0),
        MatchResult.played(2, 1, 3, 0, 0, 1),
    )
    rows = compute_standings(EventState((1, 2, 3, 4, 5), results), seed=3)
    assert [r.team_id for r in rows[:2]] == [1, 3]


def test_ties_on_every_tiebreaker_follow_the_seed_and_are_stable() -> None:
    results = tuple(MatchResult.played(1, a, a + 1, 1, 0) for a in range(1, 17, 2))
    state = EventState(tuple(range(1, 17)), results)
    first = [r.team_id for r in compute_standings(state, seed=11)]
    assert first == [r.team_id for r in compute_standings(state, seed=11)]
    orders = {tuple(r.team_id for r in compute_standings(state, seed=s)) for s in range(5)}
    assert len(orders) > 1
    assert set(first[:8]) == set(range(1, 17, 2))


def test_custom_tiebreaker_list_is_applied_in_order() -> None:
    results = (MatchResult.played(1, 1, 2, 2, 1), MatchResult.played(1, 3, 4, 2, 0))
    settings = EventSettings((Tiebreaker.MATCH_POINTS, Tiebreaker.GAME_WIN), parse_floor("1/3"), 3)
    rows = compute_standings(EventState((1, 2, 3, 4), results, settings), seed=5)
    assert [r.team_id for r in rows[:2]] == [3, 1]


def test_settings_read_stored_values() -> None:
    settings = EventSettings.from_values(
        tiebreakers=["match_points", "omw", "gw", "ogw"], percentage_floor="0.33", games_per_match=3
    )
    assert (settings.percentage_floor, settings.games_to_win) == (Fraction(33, 100), 2)
    assert parse_floor("1/3") == Fraction(1, 3)


@pytest.mark.parametrize(
    "values",
    [
        {"tiebreakers": ["omw", "match_points"], "percentage_floor": "1/3", "games_per_match": 1},
        {"tiebreakers": ["match_points", "xyz"], "percentage_floor": "1/3", "games_per_match": 1},
        {"tiebreakers": ["match_points", "match_points"], "percentage_floor": "1/3", "games_per_match": 1},
        {"tiebreakers": ["match_points"], "percentage_floor": "one third", "games_per_match": 1},
        {"tiebreakers": ["match_points"], "percentage_floor": "1.5", "games_per_match": 1},
        {"tiebreakers": ["match_points"], "percentage_floor": "1/3", "games_per_match": 2},
    ],
)
def test_bad_settings_are_refused(values) -> None:
    with pytest.raises(SettingsError):
        EventSettings.from_values(**values)


def test_state_refuses_unknown_teams() -> None:
    with pytest.raises(SettingsError):
        EventState((1, 2), (MatchResult.played(1, 1, 3, 1, 0),))


def test_format_percentage_rounds_half_up_exactly() -> None:
    assert [format_percentage(Fraction(x, 100000)) for x in (61635, 61645, 100000)] == [
        "0.6164",
        "0.6165",
        "1.0000",
    ]
