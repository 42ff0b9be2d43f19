from __future__ import annotations

import pytest

from tournaments.domain import (
    MatchResult,
    PlayoffError,
    RoundPlan,
    first_playoff_round,
    next_playoff_round,
    playoff_winner,
    recommended_rounds,
)


@pytest.mark.parametrize(
    ("teams", "plan"),
    [
        (4, RoundPlan(4, 0, 4, 2)),
        (5, RoundPlan(5, 0, 8, 3)),
        (8, RoundPlan(8, 0, 8, 3)),
        (9, RoundPlan(9, 5, 4, 2)),
        (16, RoundPlan(16, 5, 4, 2)),
        (17, RoundPlan(17, 5, 8, 3)),
        (32, RoundPlan(32, 5, 8, 3)),
        (33, RoundPlan(33, 6, 8, 3)),
        (64, RoundPlan(64, 6, 8, 3)),
        (65, RoundPlan(65, 7, 8, 3)),
        (128, RoundPlan(128, 7, 8, 3)),
        (129, RoundPlan(129, 8, 8, 3)),
        (226, RoundPlan(226, 8, 8, 3)),
        (227, RoundPlan(227, 9, 8, 3)),
        (409, RoundPlan(409, 9, 8, 3)),
        (410, RoundPlan(410, 10, 8, 3)),
        (2048, RoundPlan(2048, 10, 8, 3)),
    ],
)
def test_mtr_appendix_e_chart(teams, plan) -> None:
    assert recommended_rounds(teams) == plan


def test_booster_draft_playoff_and_individual_rows() -> None:
    assert recommended_rounds(12, booster_draft_playoff=True) == RoundPlan(12, 4, 8, 3)
    assert recommended_rounds(4, team_event=False) == RoundPlan(4, 3, 0, 0)
    with pytest.raises(PlayoffError):
        recommended_rounds(3)


def test_top_eight_bracket_and_semifinals() -> None:
    seeded = [11, 12, 13, 14, 15, 16, 17, 18]
    quarters = first_playoff_round(seeded, 8)
    assert [(m.team_a, m.team_b) for m in quarters] == [(11, 18), (14, 15), (12, 17), (13, 16)]
    winners = [18, 14, 12, 16]
    semis = next_playoff_round(quarters, winners)
    assert [(m.team_a, m.team_b, m.seed_a, m.seed_b) for m in semis] == [(18, 14, 8, 4), (12, 16, 2, 6)]
    final = next_playoff_round(semis, [14, 12])
    assert [(m.team_a, m.team_b) for m in final] == [(14, 12)]


def test_top_four_bracket() -> None:
    assert [(m.team_a, m.team_b) for m in first_playoff_round([1, 2, 3, 4], 4)] == [(1, 4), (2, 3)]


def test_small_single_elimination_event_gives_byes_to_top_seeds() -> None:
    matches = first_playoff_round([1, 2, 3, 4, 5, 6], 8)
    assert [(m.team_a, m.team_b) for m in matches] == [(1, None), (4, 5), (2, None), (3, 6)]
    assert playoff_winner(matches[0], None) == 1


def test_playoff_cannot_end_in_a_draw() -> None:
    match = first_playoff_round([1, 2, 3, 4], 4)[0]
    with pytest.raises(PlayoffError):
        playoff_winner(match, MatchResult.played(6, 1, 4, 0, 0, 1))
    with pytest.raises(PlayoffError):
        playoff_winner(match, MatchResult.double_loss(6, 1, 4))
    assert playoff_winner(match, MatchResult.played(6, 4, 1, 1, 0)) == 4


def test_drop_after_the_cut_is_not_replaced_its_opponent_advances() -> None:
    match = first_playoff_round([1, 2, 3, 4], 4)[1]
    assert playoff_winner(match, None, dropped={3}) == 2


def test_result_for_other_teams_is_refused() -> None:
    match = first_playoff_round([1, 2, 3, 4], 4)[0]
    with pytest.raises(PlayoffError):
        playoff_winner(match, MatchResult.played(6, 2, 3, 1, 0))
