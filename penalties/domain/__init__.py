"""Pure rules core of penalties: infraction catalogue, penalty proposal, deviations, match effects.

No Django, no ORM, no clock: the adapter passes plain values in and stores what comes out.
"""

from __future__ import annotations

from penalties.domain.catalogue import CATALOGUE, Infraction, get_infraction
from penalties.domain.decision import (
    PenaltyDecision,
    PenaltyEffects,
    apply_deviation,
    penalty_explanation,
    propose_penalty,
)
from penalties.domain.enums import (
    DeckProblemUpgrade,
    InfractionCategory,
    Penalty,
    PenaltyPolicy,
    Rel,
    TeamEffect,
)
from penalties.domain.errors import PenaltyRuleError
from penalties.domain.outcome import (
    MatchPenalty,
    MatchPenaltyOutcome,
    Overturn,
    check_loss_has_match,
    is_proposal_only,
    loss_moves_to_next_match,
    match_outcome_from_penalties,
    overturn,
)
from penalties.domain.upgrades import PenaltyContext, PriorPenalty

__all__ = [
    "CATALOGUE",
    "DeckProblemUpgrade",
    "Infraction",
    "InfractionCategory",
    "MatchPenalty",
    "MatchPenaltyOutcome",
    "Overturn",
    "Penalty",
    "PenaltyContext",
    "PenaltyDecision",
    "PenaltyEffects",
    "PenaltyRuleError",
    "PenaltyPolicy",
    "PriorPenalty",
    "Rel",
    "TeamEffect",
    "apply_deviation",
    "check_loss_has_match",
    "get_infraction",
    "is_proposal_only",
    "loss_moves_to_next_match",
    "match_outcome_from_penalties",
    "overturn",
    "penalty_explanation",
    "propose_penalty",
]
