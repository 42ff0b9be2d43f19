from __future__ import annotations

import pytest

from tournaments.domain import MatchResult, Outcome, ResultError, ResultKind


@pytest.mark.parametrize(
    ("result", "points_a", "points_b"),
    [
        (MatchResult.played(1, 1, 2, 1, 0), 3, 0),  # 2HG single game
        (MatchResult.played(1, 1, 2, 0, 1), 0, 3),
        (MatchResult.played(1, 1, 2, 1, 0, 1), 3, 0),  # drawn game replayed
        (MatchResult.played(1, 1, 2, 0, 0, 1), 1, 1),  # time draw
        (MatchResult.intentional_draw(1, 1, 2), 1, 1),  # 0-0-3
        (MatchResult.played(1, 1, 2, 2, 1), 3, 0),  # best of three
        (MatchResult.played(1, 1, 2, 1, 1, 1), 1, 1),
        (MatchResult.played(1, 1, 2, 1, 1), 1, 1),
        (MatchResult.match_loss(1, 1, 2), 0, 3),
        (MatchResult(1, 1, 2, 2, 0, 0, ResultKind.MATCH_LOSS), 0, 3),  # the penalty overrides the games
        (MatchResult.double_loss(1, 1, 2), 0, 0),
    ],
)
def test_match_points_follow_the_outcome(result: MatchResult, points_a: int, points_b: int) -> None:
    assert (result.match_points_for(1), result.match_points_for(2)) == (points_a, points_b)


def test_intentional_draw_is_recorded_as_three_drawn_games() -> None:
    assert MatchResult.intentional_draw(2, 5, 6) == MatchResult(2, 5, 6, 0, 0, 3)


def test_bye_is_a_match_win_without_opponent() -> None:
    bye = MatchResult.bye(1, 7)
    assert (bye.outcome_for(7), bye.match_points_for(7), bye.opponent_of(7), bye.is_bye) == (
        Outcome.WIN,
        3,
        None,
        True,
    )


def test_missed_round_is_a_loss_without_opponent() -> None:
    missed = MatchResult.missed_round(1, 7)
    assert (missed.outcome_for(7), missed.match_points_for(7), missed.opponent_of(7)) == (
        Outcome.LOSS,
        0,
        None,
    )


def test_match_loss_gives_the_winner_the_games_needed() -> None:
    assert MatchResult.match_loss(3, 1, 2, games_per_match=3) == MatchResult(
        3, 1, 2, 0, 2, 0, ResultKind.MATCH_LOSS
    )


@pytest.mark.parametrize(
    "make",
    [
        lambda: MatchResult(0, 1, 2, 1, 0),
        lambda: MatchResult(1, 1, 2, -1, 0),
        lambda: MatchResult(1, 1, 1, 1, 0),
        lambda: MatchResult(1, 1, None, 1, 0),
        lambda: MatchResult(1, 1, 2, kind=ResultKind.BYE),
        lambda: MatchResult(1, 1, 2, kind=ResultKind.MISSED_ROUND),
    ],
)
def test_malformed_results_are_refused(make) -> None:
    with pytest.raises(ResultError):
        make()


def test_asking_a_result_about_another_team_is_an_error() -> None:
    with pytest.raises(ResultError):
        MatchResult.played(1, 1, 2, 1, 0).outcome_for(3)
