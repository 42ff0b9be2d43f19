"""Every infraction × REL × policy with the default circumstances.

The expectations are written from docs/rules.md#penalties-by-rel (IPG 2024 defaults
at Competitive and Professional; the JAR at Regular) and docs/decisions.md, not read from the catalogue.
"""

from __future__ import annotations

import pytest

from penalties.domain import (
    CATALOGUE,
    InfractionCategory,
    Penalty,
    PenaltyContext,
    PenaltyPolicy,
    Rel,
    TeamEffect,
    propose_penalty,
)

NP = Penalty.NO_PENALTY
W = Penalty.WARNING
GL = Penalty.GAME_LOSS
ML = Penalty.MATCH_LOSS
MP = Penalty.MATCH_POINT
DQ = Penalty.DISQUALIFICATION

# code: (category, name, IPG section, Competitive/Professional default, Regular default)
EXPECTED = {
    "GPE-MT": ("GPE", "Missed Trigger", "2.1", NP, NP),
    "GPE-LEC": ("GPE", "Looking at Extra Cards", "2.2", W, NP),
    "GPE-HCE": ("GPE", "Hidden Card Error", "2.3", W, NP),
    "GPE-MPE": ("GPE", "Mulligan Procedure Error", "2.4", W, NP),
    "GPE-GRV": ("GPE", "Game Rule Violation", "2.5", W, NP),
    "GPE-FTMGS": ("GPE", "Failure to Maintain Game State", "2.6", W, NP),
    "TE-T": ("TE", "Tardiness", "3.1", GL, NP),
    "TE-OA": ("TE", "Outside Assistance", "3.2", ML, NP),
    "TE-SP": ("TE", "Slow Play", "3.3", W, NP),
    "TE-DLP": ("TE", "Decklist Problem", "3.4", GL, NP),
    "TE-DP": ("TE", "Deck Problem", "3.5", W, NP),
    "TE-LPV": ("TE", "Limited Procedure Violation", "3.6", W, NP),
    "TE-CPV": ("TE", "Communication Policy Violation", "3.7", W, NP),
    "TE-MC": ("TE", "Marked Cards", "3.8", W, NP),
    "TE-IS": ("TE", "Insufficient Shuffling", "3.9", W, NP),
    "USC-MINOR": ("USC", "Unsporting Conduct — Minor", "4.1", W, NP),
    "USC-MAJOR": ("USC", "Unsporting Conduct — Major", "4.2", ML, DQ),
    "USC-IDW": ("USC", "Improperly Determining a Winner", "4.3", ML, NP),
    "USC-BW": ("USC", "Bribery and Wagering", "4.4", ML, NP),
    "USC-AB": ("USC", "Aggressive Behavior", "4.5", DQ, DQ),
    "USC-TTM": ("USC", "Theft of Tournament Material", "4.6", DQ, DQ),
    "USC-S": ("USC", "Stalling", "4.7", DQ, DQ),
    "USC-C": ("USC", "Cheating", "4.8", DQ, DQ),
}

TEAM_EFFECT = {
    NP: TeamEffect.NONE,
    W: TeamEffect.NONE,
    GL: TeamEffect.LOSE_MATCH,
    ML: TeamEffect.LOSE_MATCH,
    MP: TeamEffect.MATCH_POINT,
    DQ: TeamEffect.DISQUALIFY_TEAM,
}


def _cases():
    for code, (_, _, _, competitive, regular) in EXPECTED.items():
        for rel in Rel:
            for policy in PenaltyPolicy:
                expected = regular if rel is Rel.REGULAR else competitive
                yield pytest.param(code, rel, policy, expected, id=f"{code}-{rel}-{policy}")


def test_catalogue_has_exactly_the_current_infractions():
    assert list(CATALOGUE) == list(EXPECTED)


@pytest.mark.parametrize("code", list(EXPECTED))
def test_catalogue_entry_matches_the_rules(code):
    category, name, section, competitive, regular = EXPECTED[code]
    infraction = CATALOGUE[code]
    assert (infraction.category, infraction.name, infraction.ipg_section) == (
        InfractionCategory(category),
        name,
        section,
    )
    assert infraction.default_penalty(Rel.COMPETITIVE) == competitive
    assert infraction.default_penalty(Rel.PROFESSIONAL) == competitive
    assert infraction.default_penalty(Rel.REGULAR) == regular
    assert infraction.regular_handling


@pytest.mark.parametrize(("code", "rel", "policy", "expected"), list(_cases()))
def test_default_penalty_for_every_infraction_rel_and_policy(code, rel, policy, expected):
    decision = propose_penalty(infraction_code=code, rel=rel, policy=policy, day=1)

    assert decision.penalty == expected
    assert decision.proposed_penalty == expected
    assert decision.team_effect == TEAM_EFFECT[expected]
    assert decision.match_point_adjustment == 0
    assert decision.upgraded is False
    assert decision.deviated is False
    assert decision.explanation.startswith(f"{rel.value.capitalize()}, {code} (")


# Found during a deck check, the same table holds except where the match_point policy turns a deck
# error's Game Loss into a match point penalty (only TE-DLP is a Game Loss by default).
def _deck_check_cases():
    for code, (_, _, _, competitive, regular) in EXPECTED.items():
        for rel in Rel:
            for policy in PenaltyPolicy:
                expected = regular if rel is Rel.REGULAR else competitive
                if code == "TE-DLP" and rel is not Rel.REGULAR and policy is PenaltyPolicy.MATCH_POINT:
                    expected = MP
                yield pytest.param(code, rel, policy, expected, id=f"{code}-{rel}-{policy}")


@pytest.mark.parametrize(("code", "rel", "policy", "expected"), list(_deck_check_cases()))
def test_penalty_for_every_infraction_found_during_a_deck_check(code, rel, policy, expected):
    decision = propose_penalty(
        infraction_code=code,
        rel=rel,
        policy=policy,
        day=1,
        context=PenaltyContext(found_during_deck_check=True),
    )

    assert decision.penalty == expected
    assert decision.team_effect == TEAM_EFFECT[expected]
    assert decision.match_point_adjustment == (-1 if expected is MP else 0)
