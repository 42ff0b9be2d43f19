"""The rules ``penalties.services.penalty_issue`` asks the core, and the explanation as a message.

The issue service was split so that no function is over 100 lines; what it decides (a loss needs a
match, a loss after the match is over moves to the next one, a judge's Disqualification is only a
proposal) is pure and tested here. The explanation is one message (msgid and values) the adapter
translates when it is read (docs/decisions.md "Translations and official terms")."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from django.utils import translation

from common.i18n import localize
from common.translatable import N_, as_data, from_data
from penalties.domain import Penalty as PenaltyKind
from penalties.domain import (
    PenaltyContext,
    PenaltyPolicy,
    PenaltyRuleError,
    PriorPenalty,
    Rel,
    check_loss_has_match,
    is_proposal_only,
    loss_moves_to_next_match,
    penalty_explanation,
    propose_penalty,
)

SERVICES = Path(__file__).resolve().parents[3] / "penalties" / "services.py"


def _propose(code, **kwargs):
    return propose_penalty(
        infraction_code=code,
        rel=kwargs.pop("rel", Rel.COMPETITIVE),
        policy=kwargs.pop("policy", PenaltyPolicy.MATCH_POINT),
        day=1,
        **kwargs,
    )


def test_no_function_of_the_issue_service_is_over_100_lines():
    tree = ast.parse(SERVICES.read_text())
    lengths = {
        node.name: node.end_lineno - node.lineno + 1
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    assert "penalty_issue" in lengths
    assert {name: n for name, n in lengths.items() if n > 100} == {}


def test_a_loss_needs_a_match_to_lose_a_warning_does_not():
    loss = _propose("TE-OA", context=PenaltyContext(information_available_between_games=True))
    with pytest.raises(PenaltyRuleError) as refused:
        check_loss_has_match(loss, has_match=False, player="Ann", round_number=2)
    assert str(refused.value.message).startswith("Ann's team has no match in round 2 to lose")
    check_loss_has_match(loss, has_match=True, player="Ann", round_number=2)
    check_loss_has_match(_propose("TE-SP"), has_match=False, player="Ann", round_number=2)


@pytest.mark.parametrize(
    ("simultaneous", "match_over", "moves"), [(False, True, True), (True, True, False), (False, False, False)]
)
def test_a_loss_for_a_match_already_over_moves_to_the_next_match(simultaneous, match_over, moves):
    loss = _propose("TE-OA", context=PenaltyContext(information_available_between_games=True))
    assert loss_moves_to_next_match(loss, simultaneous=simultaneous, match_over=match_over) is moves
    assert loss_moves_to_next_match(_propose("TE-SP"), simultaneous=False, match_over=True) is False


def test_a_disqualification_from_who_may_not_issue_it_is_a_proposal():
    disqualification = _propose("USC-C")
    assert disqualification.penalty is PenaltyKind.DISQUALIFICATION
    assert is_proposal_only(disqualification, may_issue=False) is True
    assert is_proposal_only(disqualification, may_issue=True) is False
    assert is_proposal_only(_propose("TE-SP"), may_issue=False) is False


def test_the_explanation_is_one_message_stored_as_data_and_read_in_japanese():
    decision = _propose(
        "TE-SP", history=[PriorPenalty("TE-SP", 1, PenaltyKind.WARNING)], policy=PenaltyPolicy.MATCH_POINT
    )
    message = penalty_explanation(decision.steps)
    assert isinstance(message, N_) and message == decision.explanation
    assert (
        message
        == "Competitive, 2nd TE-SP Warning → upgraded to Game Loss → match_point policy: upgrade → Match Loss"
    )
    stored = json.loads(json.dumps(as_data(message)))
    assert stored["msgid"] == "%(before)s → %(step)s"
    with translation.override("ja"):
        assert localize(from_data(stored)) == (
            "競技、TE-SP の2 回目の警告 → ゲームの敗北に格上げ → match_point 方針: 格上げ → マッチの敗北"
        )
    with translation.override("es"):
        assert localize(from_data(stored)).startswith("Competitivo, 2.ª Advertencia por TE-SP")


def test_a_step_without_a_message_stays_as_written():
    assert penalty_explanation(["an old record's step"]) == "an old record's step"
    with translation.override("ja"):
        assert localize(penalty_explanation(["an old record's step"])) == "an old record's step"


def test_penalty_names_are_messages_the_reader_gets_in_their_language():
    with translation.override("ja"):
        names = [localize(kind.label) for kind in PenaltyKind]
    assert names == ["懲罰なし", "警告", "ゲームの敗北", "マッチの敗北", "1 マッチポイントの懲罰", "失格"]
    assert [str(kind.label) for kind in PenaltyKind][1:4] == ["Warning", "Game Loss", "Match Loss"]
