"""Repeat-offence upgrades [IPG 2, 3, 4.1; rules §5.3] under both 2HG policies."""

from __future__ import annotations

import pytest

from penalties.domain import (
    Penalty,
    PenaltyContext,
    PenaltyPolicy,
    PriorPenalty,
    Rel,
    TeamEffect,
    propose_penalty,
)

W = Penalty.WARNING
GL = Penalty.GAME_LOSS
ML = Penalty.MATCH_LOSS

GPE_WARNINGS = ["GPE-LEC", "GPE-HCE", "GPE-MPE", "GPE-GRV"]
TE_WARNINGS = ["TE-SP", "TE-DP", "TE-LPV", "TE-CPV", "TE-MC", "TE-IS"]


def _propose(code, *, history=(), day=1, rel=Rel.COMPETITIVE, policy=PenaltyPolicy.IPG, context=None):
    return propose_penalty(
        infraction_code=code, rel=rel, policy=policy, day=day, history=list(history), context=context
    )


def _warnings(code, n, day=1):
    return [PriorPenalty(infraction_code=code, day=day, base_penalty=W) for _ in range(n)]


@pytest.mark.parametrize("code", GPE_WARNINGS)
@pytest.mark.parametrize(
    ("prior", "policy", "expected"),
    [
        (0, PenaltyPolicy.IPG, W),
        (1, PenaltyPolicy.IPG, W),
        (2, PenaltyPolicy.IPG, GL),
        (3, PenaltyPolicy.IPG, GL),
        (1, PenaltyPolicy.MATCH_POINT, W),
        (2, PenaltyPolicy.MATCH_POINT, ML),
        (3, PenaltyPolicy.MATCH_POINT, ML),
    ],
)
def test_gpe_third_and_later_warning_in_same_category_is_upgraded(code, prior, policy, expected):
    decision = _propose(code, history=_warnings(code, prior), policy=policy)

    assert decision.penalty == expected
    assert decision.upgraded == (expected != W)
    assert decision.base_penalty == W


@pytest.mark.parametrize("policy", list(PenaltyPolicy))
def test_failure_to_maintain_game_state_is_never_upgraded(policy):
    decision = _propose("GPE-FTMGS", history=_warnings("GPE-FTMGS", 5), policy=policy)

    assert decision.penalty == W
    assert decision.upgraded is False


@pytest.mark.parametrize("code", TE_WARNINGS)
@pytest.mark.parametrize(("policy", "expected"), [(PenaltyPolicy.IPG, GL), (PenaltyPolicy.MATCH_POINT, ML)])
def test_te_second_warning_in_same_category_is_upgraded(code, policy, expected):
    assert _propose(code, policy=policy).penalty == W

    decision = _propose(code, history=_warnings(code, 1), policy=policy)

    assert decision.penalty == expected
    assert decision.upgraded is True
    assert decision.team_effect == TeamEffect.LOSE_MATCH


@pytest.mark.parametrize(("policy", "expected"), [(PenaltyPolicy.IPG, GL), (PenaltyPolicy.MATCH_POINT, ML)])
def test_any_second_usc_minor_is_upgraded(policy, expected):
    decision = _propose("USC-MINOR", history=_warnings("USC-MINOR", 1), policy=policy)

    assert decision.penalty == expected
    assert decision.upgraded is True


def test_usc_minor_count_does_not_reset_between_days():
    decision = _propose("USC-MINOR", history=_warnings("USC-MINOR", 1, day=1), day=2)

    assert decision.penalty == GL


@pytest.mark.parametrize(("code", "prior"), [("GPE-LEC", 2), ("TE-SP", 1)])
def test_gpe_and_te_counts_reset_between_days(code, prior):
    decision = _propose(code, history=_warnings(code, prior, day=1), day=2)

    assert decision.penalty == W
    assert decision.upgraded is False


def test_gpe_counts_only_warnings_of_the_same_day():
    history = _warnings("GPE-LEC", 1, day=1) + _warnings("GPE-LEC", 1, day=2)

    assert _propose("GPE-LEC", history=history, day=2).penalty == W
    assert _propose("GPE-LEC", history=[*history, *_warnings("GPE-LEC", 1, day=2)], day=2).penalty == GL


def test_warnings_of_another_category_do_not_count():
    history = _warnings("TE-LPV", 1) + _warnings("TE-CPV", 1) + _warnings("GPE-LEC", 2)

    assert _propose("TE-SP", history=history).penalty == W
    assert _propose("GPE-HCE", history=history).penalty == W


def test_overturned_warning_does_not_count():
    history = [PriorPenalty(infraction_code="TE-SP", day=1, base_penalty=W, overturned=True)]

    assert _propose("TE-SP", history=history).penalty == W


def test_missed_trigger_without_penalty_does_not_count_but_detrimental_warnings_do():
    no_penalty = [PriorPenalty(infraction_code="GPE-MT", day=1, base_penalty=Penalty.NO_PENALTY)] * 4
    detrimental = PenaltyContext(trigger_detrimental=True)

    assert _propose("GPE-MT", history=no_penalty).penalty == Penalty.NO_PENALTY
    assert _propose("GPE-MT", history=no_penalty, context=detrimental).penalty == W
    decision = _propose("GPE-MT", history=_warnings("GPE-MT", 2), context=detrimental)
    assert decision.penalty == GL
    assert decision.explanation == (
        "Competitive, GPE-MT (Missed Trigger): No Penalty → trigger usually detrimental to its controller "
        "→ Warning → 3rd GPE-MT Warning → upgraded to Game Loss"
    )


def test_upgraded_prior_warning_still_counts_as_a_warning():
    # A 3rd LEC was a Game Loss, but its base was a Warning: the 4th is upgraded too.
    assert _propose("GPE-LEC", history=_warnings("GPE-LEC", 3)).penalty == GL


def test_tardiness_warning_then_second_is_a_game_loss_even_under_match_point():
    late_seconds = PenaltyContext(minutes_late=0.5)
    history = [PriorPenalty(infraction_code="TE-T", day=1, base_penalty=W)]

    assert _propose("TE-T", context=late_seconds).penalty == W
    decision = _propose("TE-T", history=history, context=late_seconds, policy=PenaltyPolicy.MATCH_POINT)
    assert decision.penalty == GL
    assert decision.explanation == (
        "Competitive, TE-T (Tardiness): Game Loss → seated within the first minute → Warning "
        "→ 2nd TE-T Warning → upgraded to Game Loss → match_point policy: never for TE-T → Game Loss"
    )


@pytest.mark.parametrize("policy", list(PenaltyPolicy))
def test_regular_rel_has_no_repeat_upgrades(policy):
    decision = _propose("TE-SP", history=_warnings("TE-SP", 3), rel=Rel.REGULAR, policy=policy)

    assert decision.penalty == Penalty.NO_PENALTY


def test_professional_upgrades_like_competitive():
    decision = _propose(
        "TE-SP", history=_warnings("TE-SP", 1), rel=Rel.PROFESSIONAL, policy=PenaltyPolicy.MATCH_POINT
    )

    assert decision.explanation == (
        "Professional, 2nd TE-SP Warning → upgraded to Game Loss → match_point policy: upgrade → Match Loss"
    )


def test_issue_example_explanation():
    decision = _propose("TE-SP", history=_warnings("TE-SP", 1), policy=PenaltyPolicy.MATCH_POINT)

    assert decision.explanation == (
        "Competitive, 2nd TE-SP Warning → upgraded to Game Loss → match_point policy: upgrade → Match Loss"
    )
    assert decision.steps == (
        "Competitive, 2nd TE-SP Warning",
        "upgraded to Game Loss",
        "match_point policy: upgrade → Match Loss",
    )
    assert decision.extra_turns == 0


def test_third_gpe_explanation_under_ipg():
    decision = _propose("GPE-LEC", history=_warnings("GPE-LEC", 2))

    assert decision.explanation == "Competitive, 3rd GPE-LEC Warning → upgraded to Game Loss"
    assert decision.notes == ("the team loses the match",)
