"""The 2HG policies (``penalty_policy``; 2009 "2HG Guide for Judges"; docs/rules.md#game-loss-in-2hg).

The guide's four Match Point cases today: a deck error found during a deck check (TE-DLP, or TE-DP
upgraded to Game Loss); marked cards with a pattern (TE-MC upgraded); and the two old infractions
that are Warnings under today's names (Drawing Extra Cards → Hidden Card Error, Insufficient
Randomization → Insufficient Shuffling). Exceptions: a game that cannot continue keeps its Game
Loss; a repeat-offence upgrade is a Match Loss; never for Tardiness or USC-Major.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from penalties.domain import (
    DeckProblemUpgrade,
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
MP = Penalty.MATCH_POINT


def _propose(code, context, *, policy=PenaltyPolicy.MATCH_POINT, rel=Rel.COMPETITIVE, history=()):
    return propose_penalty(
        infraction_code=code, rel=rel, policy=policy, day=1, history=list(history), context=context
    )


DECK_CHECK = PenaltyContext(found_during_deck_check=True)

MATCH_POINT_CASES = [
    pytest.param("TE-DLP", DECK_CHECK, id="decklist-problem-deck-check"),
    *[
        pytest.param(
            "TE-DP",
            PenaltyContext(found_during_deck_check=True, deck_problem_upgrade=reason),
            id=f"deck-problem-{reason}",
        )
        for reason in DeckProblemUpgrade
    ],
    pytest.param("TE-MC", PenaltyContext(marked_pattern_advantage=True), id="marked-cards-pattern"),
]


@pytest.mark.parametrize(("code", "context"), MATCH_POINT_CASES)
@pytest.mark.parametrize("rel", [Rel.COMPETITIVE, Rel.PROFESSIONAL])
def test_listed_game_loss_becomes_one_match_point(code, context, rel):
    decision = _propose(code, context, rel=rel)

    assert decision.base_penalty == GL
    assert decision.penalty == MP
    assert decision.team_effect == TeamEffect.MATCH_POINT
    assert decision.match_point_adjustment == -1
    assert decision.notes == ("the team loses one match point",)


@pytest.mark.parametrize(("code", "context"), MATCH_POINT_CASES)
def test_listed_game_loss_stays_a_game_loss_under_ipg(code, context):
    decision = _propose(code, context, policy=PenaltyPolicy.IPG)

    assert decision.penalty == GL
    assert decision.team_effect == TeamEffect.LOSE_MATCH
    assert decision.match_point_adjustment == 0


@pytest.mark.parametrize(("code", "context"), MATCH_POINT_CASES)
def test_game_that_cannot_continue_keeps_the_game_loss(code, context):
    decision = _propose(code, replace(context, game_cannot_continue=True))

    assert decision.penalty == GL
    assert decision.team_effect == TeamEffect.LOSE_MATCH
    assert decision.steps[-1].endswith("but the game cannot continue → Game Loss")


def test_decklist_problem_explanation():
    decision = _propose("TE-DLP", DECK_CHECK)

    assert decision.explanation == (
        "Competitive, TE-DLP (Decklist Problem): Game Loss → match_point policy: deck error found during "
        "a deck check → one match point penalty"
    )


def test_decklist_problem_not_found_in_a_deck_check_keeps_the_game_loss():
    decision = _propose("TE-DLP", PenaltyContext(between_matches=True))

    assert decision.penalty == GL
    assert decision.applies_to_next_match is True
    assert decision.steps[-1] == "match_point policy: not one of the guide's cases → Game Loss"
    assert decision.notes == ("the team loses its next match",)


def test_deck_problem_upgrade_outside_a_deck_check_keeps_the_game_loss():
    context = PenaltyContext(deck_problem_upgrade=DeckProblemUpgrade.OPPONENT_ACTED_ON_SIDEBOARD_CARD)

    assert _propose("TE-DP", context).penalty == GL


def test_deck_problem_without_upgrade_in_a_deck_check_is_a_warning():
    assert _propose("TE-DP", DECK_CHECK).penalty == W


def test_marked_cards_without_replacements_is_not_the_pattern_case():
    decision = _propose("TE-MC", PenaltyContext(marked_no_replacements=True, found_during_deck_check=True))

    assert decision.penalty == GL


def test_marked_cards_without_pattern_is_a_warning():
    assert _propose("TE-MC", DECK_CHECK).penalty == W


@pytest.mark.parametrize(
    ("code", "old_name"), [("GPE-HCE", "Drawing Extra Cards"), ("TE-IS", "Insufficient Randomization")]
)
@pytest.mark.parametrize("policy", list(PenaltyPolicy))
def test_guide_cases_renamed_to_warnings_no_longer_arise(code, old_name, policy):
    decision = _propose(code, DECK_CHECK, policy=policy)

    assert decision.penalty == W, old_name
    assert decision.match_point_adjustment == 0


def test_hidden_card_error_game_loss_is_not_a_match_point_case():
    decision = _propose("GPE-HCE", PenaltyContext(illegal_face_down=True, found_during_deck_check=True))

    assert decision.penalty == GL


@pytest.mark.parametrize("policy", list(PenaltyPolicy))
def test_tardiness_never_becomes_a_match_point(policy):
    decision = _propose("TE-T", DECK_CHECK, policy=policy)

    assert decision.penalty == GL
    assert decision.team_effect == TeamEffect.LOSE_MATCH
    if policy is PenaltyPolicy.MATCH_POINT:
        assert decision.steps[-1] == "match_point policy: never for TE-T → Game Loss"


@pytest.mark.parametrize("policy", list(PenaltyPolicy))
def test_usc_major_keeps_its_match_loss(policy):
    decision = _propose("USC-MAJOR", DECK_CHECK, policy=policy)

    assert decision.penalty == ML
    assert decision.match_point_adjustment == 0


def test_repeat_upgrade_becomes_match_loss_even_when_found_in_a_deck_check():
    history = [PriorPenalty(infraction_code="TE-DP", day=1, base_penalty=W)]

    decision = _propose("TE-DP", DECK_CHECK, history=history)

    assert decision.penalty == ML
    assert decision.upgraded is True
    assert decision.steps[-1] == "match_point policy: upgrade → Match Loss"


def test_repeat_upgrade_match_loss_even_when_the_game_cannot_continue():
    history = [PriorPenalty(infraction_code="TE-IS", day=1, base_penalty=W)]

    decision = _propose("TE-IS", PenaltyContext(game_cannot_continue=True), history=history)

    assert decision.penalty == ML


def test_other_game_losses_stay_game_losses_under_match_point():
    decision = _propose("TE-OA", PenaltyContext(information_available_between_games=True))

    assert decision.penalty == GL
    assert decision.team_effect == TeamEffect.LOSE_MATCH
