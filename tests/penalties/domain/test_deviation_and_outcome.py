"""Head judge deviations [IPG 1, 1.2], match results from penalties [IPG 1.1] and overturns."""

from __future__ import annotations

import pytest

from penalties.domain import (
    MatchPenalty,
    Penalty,
    PenaltyContext,
    PenaltyEffects,
    PenaltyPolicy,
    PenaltyRuleError,
    Rel,
    TeamEffect,
    apply_deviation,
    match_outcome_from_penalties,
    overturn,
    propose_penalty,
)

W = Penalty.WARNING
GL = Penalty.GAME_LOSS
ML = Penalty.MATCH_LOSS
MP = Penalty.MATCH_POINT
DQ = Penalty.DISQUALIFICATION


def _propose(code, context=None, *, policy=PenaltyPolicy.MATCH_POINT):
    return propose_penalty(infraction_code=code, rel=Rel.COMPETITIVE, policy=policy, day=1, context=context)


def test_head_judge_deviation_with_reason_changes_penalty_and_effects():
    decision = _propose("TE-DLP")

    deviated = apply_deviation(decision, penalty=W, reason="obvious, unambiguous entry", by_head_judge=True)

    assert deviated.penalty == W
    assert deviated.proposed_penalty == GL
    assert deviated.deviated is True
    assert deviated.deviation_reason == "obvious, unambiguous entry"
    assert deviated.team_effect == TeamEffect.NONE
    assert deviated.explanation == (
        "Competitive, TE-DLP (Decklist Problem): Game Loss → match_point policy: not one of the guide's cases "
        "→ Game Loss → head judge deviation: Game Loss → Warning (obvious, unambiguous entry)"
    )


def test_deviation_by_a_floor_judge_is_refused():
    with pytest.raises(PenaltyRuleError, match="Only the head judge") as error:
        apply_deviation(_propose("TE-SP"), penalty=GL, reason="x", by_head_judge=False)
    assert error.value.status_code == 403


@pytest.mark.parametrize("reason", ["", "   "])
def test_deviation_without_reason_is_refused(reason):
    with pytest.raises(PenaltyRuleError, match="needs a reason"):
        apply_deviation(_propose("TE-SP"), penalty=GL, reason=reason, by_head_judge=True)


def test_deviation_to_the_same_penalty_is_refused():
    with pytest.raises(PenaltyRuleError, match="not a deviation"):
        apply_deviation(_propose("TE-SP"), penalty=W, reason="x", by_head_judge=True)


def test_match_point_deviation_only_under_match_point_policy_and_never_for_tardiness():
    with pytest.raises(PenaltyRuleError, match="only under the match_point policy"):
        apply_deviation(
            _propose("TE-DLP", policy=PenaltyPolicy.IPG), penalty=MP, reason="x", by_head_judge=True
        )
    with pytest.raises(PenaltyRuleError, match="never used for TE-T"):
        apply_deviation(_propose("TE-T"), penalty=MP, reason="x", by_head_judge=True)

    deviated = apply_deviation(
        _propose("TE-DLP"), penalty=MP, reason="found at the table", by_head_judge=True
    )
    assert deviated.match_point_adjustment == -1
    assert deviated.team_effect == TeamEffect.MATCH_POINT


def test_slow_play_deviated_to_game_loss_drops_the_extra_turns():
    decision = _propose("TE-SP")
    assert decision.extra_turns == 2

    deviated = apply_deviation(decision, penalty=GL, reason="repeated after warning", by_head_judge=True)

    assert deviated.extra_turns == 0
    assert deviated.team_effect == TeamEffect.LOSE_MATCH


def test_deviation_keeps_ftmgs_offers_unless_disqualified():
    decision = _propose("GPE-GRV", PenaltyContext(other_player_ids=("b", "c", "d")))

    assert apply_deviation(decision, penalty=GL, reason="r", by_head_judge=True).offer_ftmgs_to == (
        "b",
        "c",
        "d",
    )
    assert apply_deviation(decision, penalty=DQ, reason="r", by_head_judge=True).offer_ftmgs_to == ()


def _mp(pid, team, penalty, moment, overturned=False):
    return MatchPenalty(penalty_id=pid, team_id=team, penalty=penalty, moment=moment, overturned=overturned)


def test_no_penalties_leave_the_result_to_play():
    outcome = match_outcome_from_penalties(team_ids=("A", "B"), penalties=[])

    assert outcome.losing_team_id is None


@pytest.mark.parametrize("penalty", [GL, ML, DQ])
def test_a_loss_to_one_team_sets_the_result_against_it(penalty):
    outcome = match_outcome_from_penalties(team_ids=("A", "B"), penalties=[_mp(1, "B", penalty, 1)])

    assert outcome.losing_team_id == "B"
    assert outcome.deciding_penalty_ids == (1,)


@pytest.mark.parametrize("penalty", [W, MP, Penalty.NO_PENALTY])
def test_warnings_and_match_points_do_not_touch_the_result(penalty):
    outcome = match_outcome_from_penalties(team_ids=("A", "B"), penalties=[_mp(1, "B", penalty, 1)])

    assert outcome.losing_team_id is None


def test_simultaneous_game_losses_on_both_teams_are_recorded_without_score_change():
    penalties = [_mp(1, "A", GL, 5), _mp(2, "B", GL, 5)]

    outcome = match_outcome_from_penalties(team_ids=("A", "B"), penalties=penalties)

    assert outcome.losing_team_id is None
    assert outcome.double_loss is False
    assert outcome.recorded_without_score_change == (1, 2)


@pytest.mark.parametrize(("first", "second"), [(ML, ML), (ML, DQ), (DQ, DQ)])
def test_simultaneous_match_losses_on_both_teams_are_a_double_loss(first, second):
    penalties = [_mp(1, "A", first, 5), _mp(2, "B", second, 5)]

    outcome = match_outcome_from_penalties(team_ids=("A", "B"), penalties=penalties)

    assert outcome.losing_team_id is None
    assert outcome.double_loss is True
    assert outcome.deciding_penalty_ids == (1, 2)
    assert outcome.recorded_without_score_change == ()


def test_a_match_loss_beside_a_simultaneous_game_loss_decides_against_its_team():
    penalties = [_mp(1, "A", GL, 5), _mp(2, "B", ML, 5)]

    outcome = match_outcome_from_penalties(team_ids=("A", "B"), penalties=penalties)

    assert (outcome.losing_team_id, outcome.double_loss) == ("B", False)
    assert outcome.deciding_penalty_ids == (2,)
    assert outcome.recorded_without_score_change == (1,)


def test_a_loss_after_a_double_loss_goes_to_the_next_match():
    penalties = [_mp(1, "A", ML, 5), _mp(2, "B", ML, 5), _mp(3, "A", GL, 6)]

    outcome = match_outcome_from_penalties(team_ids=("A", "B"), penalties=penalties)

    assert outcome.double_loss is True
    assert outcome.for_next_match == (3,)


def test_simultaneous_losses_then_a_later_loss_decides():
    penalties = [_mp(3, "A", GL, 9), _mp(1, "A", GL, 5), _mp(2, "B", GL, 5)]

    outcome = match_outcome_from_penalties(team_ids=("A", "B"), penalties=penalties)

    assert outcome.losing_team_id == "A"
    assert outcome.deciding_penalty_ids == (3,)
    assert outcome.recorded_without_score_change == (1, 2)


def test_loss_after_the_match_was_decided_goes_to_the_next_match():
    penalties = [_mp(1, "A", GL, 1), _mp(2, "B", ML, 2)]

    outcome = match_outcome_from_penalties(team_ids=("A", "B"), penalties=penalties)

    assert outcome.losing_team_id == "A"
    assert outcome.for_next_match == (2,)


def test_two_game_losses_to_both_teammates_at_once_count_as_one_loss():
    outcome = match_outcome_from_penalties(
        team_ids=("A", "B"), penalties=[_mp(1, "A", GL, 1), _mp(2, "A", GL, 1)]
    )

    assert outcome.losing_team_id == "A"
    assert outcome.deciding_penalty_ids == (1, 2)


def test_overturned_penalty_restores_the_played_result():
    penalties = [_mp(1, "B", GL, 1, overturned=True)]

    assert match_outcome_from_penalties(team_ids=("A", "B"), penalties=penalties).losing_team_id is None


def test_penalty_for_a_team_outside_the_match_is_refused():
    with pytest.raises(PenaltyRuleError):
        match_outcome_from_penalties(team_ids=("A", "B"), penalties=[_mp(1, "C", GL, 1)])


def test_overturn_of_a_match_point_penalty_gives_the_point_back():
    decision = _propose("TE-DLP", PenaltyContext(found_during_deck_check=True))

    result = overturn(decision.effects, reason="list was correct", by_head_judge=True)

    assert result.match_point_adjustment_delta == 1
    assert result.recompute_match_result is False
    assert result.reinstate_team is False
    assert result.explanation == "overturned by the head judge (list was correct): team match points +1"


def test_overturn_of_a_game_loss_recomputes_the_match():
    decision = _propose("TE-DLP", policy=PenaltyPolicy.IPG)

    result = overturn(decision.effects, reason="appeal upheld", by_head_judge=True)

    assert result.recompute_match_result is True
    assert result.match_point_adjustment_delta == 0


def test_overturn_of_slow_play_removes_its_turns_and_of_dq_reinstates():
    assert overturn(_propose("TE-SP").effects, reason="r", by_head_judge=True).extra_turns_delta == -2
    dq = overturn(_propose("USC-C").effects, reason="r", by_head_judge=True)
    assert dq.reinstate_team is True
    assert dq.recompute_match_result is True
    tardy = overturn(
        _propose("TE-T", PenaltyContext(minutes_late=15)).effects, reason="r", by_head_judge=True
    )
    assert tardy.reinstate_team is True


def test_overturn_needs_the_head_judge_and_a_reason():
    effects = PenaltyEffects(team_effect=TeamEffect.NONE)
    with pytest.raises(PenaltyRuleError, match="Only the head judge"):
        overturn(effects, reason="r", by_head_judge=False)
    with pytest.raises(PenaltyRuleError, match="needs a reason"):
        overturn(effects, reason=" ", by_head_judge=True)
