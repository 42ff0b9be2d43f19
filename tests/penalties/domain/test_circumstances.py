"""Infraction-specific circumstances, Regular REL escalations and team effects [IPG §§1–4; JAR]."""

from __future__ import annotations

import pytest

from penalties.domain import (
    Penalty,
    PenaltyContext,
    PenaltyPolicy,
    PenaltyRuleError,
    PriorPenalty,
    Rel,
    TeamEffect,
    propose_penalty,
)

NP = Penalty.NO_PENALTY
W = Penalty.WARNING
GL = Penalty.GAME_LOSS
ML = Penalty.MATCH_LOSS
DQ = Penalty.DISQUALIFICATION


def _propose(code, context=None, *, rel=Rel.COMPETITIVE, policy=PenaltyPolicy.MATCH_POINT, history=(), day=1):
    return propose_penalty(
        infraction_code=code, rel=rel, policy=policy, day=day, history=list(history), context=context
    )


@pytest.mark.parametrize(
    ("minutes", "expected", "drops"),
    [
        (None, GL, False),
        (0.0, W, False),
        (0.99, W, False),
        (1.0, GL, False),
        (9.5, GL, False),
        (10.0, ML, True),
        (25, ML, True),
    ],
)
@pytest.mark.parametrize("policy", list(PenaltyPolicy))
def test_tardiness_by_minutes_late(minutes, expected, drops, policy):
    decision = _propose("TE-T", PenaltyContext(minutes_late=minutes), policy=policy)

    assert decision.penalty == expected
    assert decision.drops_team is drops


@pytest.mark.parametrize(
    ("minutes", "expected", "drops"), [(None, NP, False), (5, NP, False), (10, NP, False), (10.5, ML, True)]
)
def test_tardiness_at_regular_forfeits_only_after_ten_minutes(minutes, expected, drops):
    decision = _propose("TE-T", PenaltyContext(minutes_late=minutes), rel=Rel.REGULAR)

    assert decision.penalty == expected
    assert decision.drops_team is drops


def test_tardiness_match_loss_explanation():
    decision = _propose("TE-T", PenaltyContext(minutes_late=12))

    assert decision.explanation == (
        "Competitive, TE-T (Tardiness): Game Loss → not seated 10 minutes into the round → Match Loss, team "
        "dropped unless it reports to the head judge or scorekeeper before the end of the round"
    )
    assert decision.team_effect == TeamEffect.LOSE_MATCH


def test_negative_minutes_late_is_refused():
    with pytest.raises(PenaltyRuleError):
        _propose("TE-T", PenaltyContext(minutes_late=-1))


def test_outside_assistance_between_games_information_is_a_game_loss():
    assert (
        _propose(
            "TE-OA", PenaltyContext(information_available_between_games=True), policy=PenaltyPolicy.IPG
        ).penalty
        == GL
    )


def test_hidden_card_error_illegal_face_down_is_a_game_loss():
    assert _propose("GPE-HCE", PenaltyContext(illegal_face_down=True), policy=PenaltyPolicy.IPG).penalty == GL


@pytest.mark.parametrize("context", [PenaltyContext(malicious_or_unremorseful=True)])
def test_usc_major_malicious_is_a_disqualification(context):
    decision = _propose("USC-MAJOR", context)

    assert decision.penalty == DQ
    assert decision.team_effect == TeamEffect.DISQUALIFY_TEAM


def test_repeated_usc_major_is_a_disqualification_on_any_day():
    history = [PriorPenalty(infraction_code="USC-MAJOR", day=1, base_penalty=ML)]

    decision = _propose("USC-MAJOR", history=history, day=2)

    assert decision.penalty == DQ
    assert decision.steps[-1] == "repeated → Disqualification"


@pytest.mark.parametrize("code", ["USC-IDW", "USC-BW", "GPE-GRV", "TE-DLP"])
@pytest.mark.parametrize("rel", list(Rel))
def test_knowingly_breaking_a_rule_is_a_disqualification(code, rel):
    decision = _propose(code, PenaltyContext(knowingly=True), rel=rel)

    assert decision.penalty == DQ
    assert decision.team_effect == TeamEffect.DISQUALIFY_TEAM
    assert decision.offer_ftmgs_to == ()


@pytest.mark.parametrize("code", ["GPE-LEC", "TE-SP", "TE-OA", "TE-IS", "USC-MINOR", "USC-IDW", "USC-BW"])
@pytest.mark.parametrize("policy", list(PenaltyPolicy))
def test_regular_game_loss_when_repeated_after_reminders(code, policy):
    decision = _propose(code, PenaltyContext(repeated_after_reminders=True), rel=Rel.REGULAR, policy=policy)

    assert decision.penalty == GL
    assert decision.team_effect == TeamEffect.LOSE_MATCH


def test_regular_explanations():
    assert _propose("TE-SP", rel=Rel.REGULAR).explanation == (
        "Regular, TE-SP (Slow Play): unwanted behaviour: educate; Game Loss if it continues "
        "→ fix and educate → No Penalty"
    )
    assert _propose("USC-AB", rel=Rel.REGULAR).explanation == (
        "Regular, USC-AB (Aggressive Behavior): aggressive behaviour is a Serious Problem "
        "→ Serious Problem (JAR) → Disqualification"
    )


def test_game_rule_violation_offers_ftmgs_to_the_other_three_players():
    context = PenaltyContext(other_player_ids=("teammate", "opponent-1", "opponent-2"))

    decision = _propose("GPE-GRV", context)

    assert decision.penalty == W
    assert decision.offer_ftmgs_to == ("teammate", "opponent-1", "opponent-2")
    assert decision.notes == (
        "offer FtMGS (GPE-FTMGS) to each other player, one by one: teammate, opponent-1, opponent-2",
    )


def test_game_rule_violation_at_regular_offers_no_ftmgs():
    context = PenaltyContext(other_player_ids=("teammate", "opponent-1", "opponent-2"))

    assert _propose("GPE-GRV", context, rel=Rel.REGULAR).offer_ftmgs_to == ()


def test_other_infractions_offer_no_ftmgs():
    context = PenaltyContext(other_player_ids=("teammate", "opponent-1", "opponent-2"))

    assert _propose("GPE-LEC", context).offer_ftmgs_to == ()


@pytest.mark.parametrize("rel", [Rel.COMPETITIVE, Rel.PROFESSIONAL])
def test_slow_play_adds_two_turns(rel):
    decision = _propose("TE-SP", rel=rel)

    assert decision.penalty == W
    assert decision.extra_turns == 2
    assert decision.team_effect == TeamEffect.NONE
    assert decision.notes == ("+2 turns at the end of the round for this table",)


def test_slow_play_in_extra_turns_adds_none_but_the_warning_stands():
    decision = _propose("TE-SP", PenaltyContext(in_extra_turns=True))

    assert decision.penalty == W
    assert decision.extra_turns == 0


def test_slow_play_at_regular_adds_no_turns():
    assert _propose("TE-SP", rel=Rel.REGULAR).extra_turns == 0


def test_game_loss_between_matches_applies_to_next_match():
    decision = _propose("TE-DLP", PenaltyContext(between_matches=True), policy=PenaltyPolicy.IPG)

    assert decision.applies_to_next_match is True


def test_unknown_infraction_code_is_refused():
    with pytest.raises(PenaltyRuleError, match="Unknown infraction code 'GPE-DEC'"):
        _propose("GPE-DEC")


def test_history_with_unknown_code_or_future_day_is_refused():
    with pytest.raises(PenaltyRuleError):
        _propose("TE-SP", history=[PriorPenalty(infraction_code="TE-XX", day=1, base_penalty=W)])
    with pytest.raises(PenaltyRuleError):
        _propose("TE-SP", history=[PriorPenalty(infraction_code="TE-SP", day=3, base_penalty=W)], day=2)
    with pytest.raises(PenaltyRuleError):
        _propose("TE-SP", day=0)
