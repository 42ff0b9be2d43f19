"""From an infraction to the penalty a judge should issue, with the reasoning spelled out.

:func:`propose_penalty` applies, in this order:

1. the REL's table [IPG §§2–4 at Competitive/Professional; the JAR at Regular];
2. the infraction's own circumstances (e.g. Marked Cards with an advantageous pattern → Game Loss);
3. the repeat-offence upgrades of IPG §2–4 (Competitive/Professional only);
4. the event's 2HG ``penalty_policy`` for a resulting Game Loss (docs/rules.md#game-loss-in-2hg):
   ``match_point`` follows the 2009 "2HG Guide for Judges": a Game Loss for a deck or decklist
   error found during a deck check, or for marked cards with a pattern, becomes a one match point
   penalty for the team, unless the game physically cannot continue; a Game Loss from a
   repeat-offence upgrade becomes a Match Loss; never for Tardiness or USC-Major.
   ``ipg``: the Game Loss stands, and since a 2HG match is one game the team loses the match.

Every step is written into ``steps`` as an ``N_`` message (English, with its msgid and values), and
:func:`penalty_explanation` joins them with " → ", e.g. "Competitive, 2nd TE-SP Warning → upgraded
to Game Loss → match_point policy: upgrade → Match Loss"; the adapter stores that message and shows
it in the reader's language (docs/decisions.md "Translations and official terms").

Only the head judge may deviate from the proposal [IPG 1, 1.2], always with a reason:
:func:`apply_deviation`.

Steps 1–4 are ``penalties.domain.upgrades``; this module assembles the decision, its effects on the
team and the deviations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from common.translatable import N_
from penalties.domain.catalogue import Infraction, get_infraction
from penalties.domain.enums import Penalty, PenaltyPolicy, Rel, TeamEffect
from penalties.domain.errors import PenaltyRuleError
from penalties.domain.upgrades import NEVER_MATCH_POINT, PenaltyContext, PriorPenalty, ipg, regular

SLOW_PLAY_EXTRA_TURNS = 2
"""IPG 3.3: "two additional turns"; the 2009 guide's "one per team" is the same 2 in 2HG."""

_ENDS_MATCH = frozenset({Penalty.GAME_LOSS, Penalty.MATCH_LOSS, Penalty.DISQUALIFICATION})


@dataclass(frozen=True, slots=True)
class PenaltyEffects:
    """What a penalty does beyond the record; the part an overturn has to undo.

    ``match_point_adjustment`` is added to the team's match points (−1 for a match point penalty).
    ``extra_turns`` is added to the table's end-of-round turns. ``drops_team`` is the Tardiness
    drop (a Disqualification drops the team through ``team_effect``).
    ``applies_to_next_match``: the Game/Match Loss lands on the team's next match.
    """

    team_effect: TeamEffect
    match_point_adjustment: int = 0
    extra_turns: int = 0
    drops_team: bool = False
    applies_to_next_match: bool = False


@dataclass(frozen=True, slots=True)
class PenaltyDecision:
    """The proposed (or, after :func:`apply_deviation`, issued) penalty and why.

    ``default_penalty``: the table value at this REL. ``base_penalty``: after the infraction's own
    circumstances, before repeat upgrades and policy (store it; it feeds :class:`PriorPenalty`).
    ``proposed_penalty``: what the rules give. ``penalty``: what is issued (differs only after a
    head judge deviation). ``upgraded``: a repeat-offence upgrade happened.
    ``offer_ftmgs_to``: players to be offered, one by one, a GPE-FtMGS (GRV in 2HG).
    """

    infraction_code: str
    rel: Rel
    policy: PenaltyPolicy
    default_penalty: Penalty
    base_penalty: Penalty
    proposed_penalty: Penalty
    penalty: Penalty
    upgraded: bool
    team_effect: TeamEffect
    match_point_adjustment: int
    extra_turns: int
    drops_team: bool
    applies_to_next_match: bool
    offer_ftmgs_to: tuple[str, ...]
    steps: tuple[str, ...]
    notes: tuple[str, ...]
    deviated: bool = False
    deviation_reason: str = ""

    @property
    def explanation(self) -> N_:
        """The steps as one line, e.g. "Competitive, TE-SP (Slow Play): Warning"."""
        return penalty_explanation(self.steps)

    @property
    def effects(self) -> PenaltyEffects:
        return PenaltyEffects(
            team_effect=self.team_effect,
            match_point_adjustment=self.match_point_adjustment,
            extra_turns=self.extra_turns,
            drops_team=self.drops_team,
            applies_to_next_match=self.applies_to_next_match,
        )


def penalty_explanation(steps: Sequence[str]) -> N_:
    """The steps as one message: its msgid and values (``N_``), English as a ``str``.

    The one place the explanation's text is built: the record keeps this message
    (``common.translatable.as_data``) and each page translates it when it is read. A step that is
    not an ``N_`` (an old record's) stays as written.
    """
    if not steps:
        return N_("")
    message = steps[0] if isinstance(steps[0], N_) else N_("%(step)s", step=steps[0])
    for step in steps[1:]:
        message = N_("%(before)s → %(step)s", before=message, step=step)
    return message


def propose_penalty(
    *,
    infraction_code: str,
    rel: Rel,
    policy: PenaltyPolicy,
    day: int,
    history: Sequence[PriorPenalty] = (),
    context: PenaltyContext | None = None,
) -> PenaltyDecision:
    """The penalty the rules give a player for ``infraction_code`` at this event.

    ``history`` is the same player's earlier penalties at this event (teammates' are not pooled:
    the IPG counts what "the player" has received); ``day`` is today's event day, starting at 1.
    Raises :class:`PenaltyRuleError` for an unknown code or an impossible value.
    """
    infraction = get_infraction(infraction_code)
    context = context or PenaltyContext()
    _validate(day=day, history=history, context=context)
    default = infraction.default_penalty(rel)
    if rel is Rel.REGULAR:
        base, penalty, steps, drops_team = regular(infraction, context)
        upgraded = False
    else:
        base, penalty, steps, drops_team, upgraded = ipg(infraction, rel, policy, day, history, context)
    return _decide(
        infraction=infraction,
        rel=rel,
        policy=policy,
        default=default,
        base=base,
        penalty=penalty,
        upgraded=upgraded,
        steps=tuple(steps),
        drops_team=drops_team,
        context=context,
    )


def _validate(*, day: int, history: Sequence[PriorPenalty], context: PenaltyContext) -> None:
    if day < 1:
        raise PenaltyRuleError(N_("Event days start at 1, got %(day)s", day=day))
    for prior in history:
        get_infraction(prior.infraction_code)
        if prior.day < 1 or prior.day > day:
            raise PenaltyRuleError(
                N_(
                    "A prior %(code)s penalty is dated day %(prior)s, today is %(day)s",
                    code=prior.infraction_code,
                    prior=prior.day,
                    day=day,
                )
            )
    if context.minutes_late is not None and context.minutes_late < 0:
        raise PenaltyRuleError(
            N_("minutes late cannot be negative, got %(minutes)s", minutes=context.minutes_late)
        )


def _decide(
    *,
    infraction: Infraction,
    rel: Rel,
    policy: PenaltyPolicy,
    default: Penalty,
    base: Penalty,
    penalty: Penalty,
    upgraded: bool,
    steps: tuple[N_, ...],
    drops_team: bool,
    context: PenaltyContext,
) -> PenaltyDecision:
    effects, notes = _effects(infraction, rel, penalty, drops_team, context)
    offer: tuple[str, ...] = ()
    if infraction.code == "GPE-GRV" and rel is not Rel.REGULAR and penalty is not Penalty.DISQUALIFICATION:
        offer = tuple(context.other_player_ids)
        if offer:
            notes = (*notes, _ftmgs_note(offer))
    return PenaltyDecision(
        infraction_code=infraction.code,
        rel=rel,
        policy=policy,
        default_penalty=default,
        base_penalty=base,
        proposed_penalty=penalty,
        penalty=penalty,
        upgraded=upgraded,
        team_effect=effects.team_effect,
        match_point_adjustment=effects.match_point_adjustment,
        extra_turns=effects.extra_turns,
        drops_team=effects.drops_team,
        applies_to_next_match=effects.applies_to_next_match,
        offer_ftmgs_to=offer,
        steps=steps,
        notes=notes,
    )


_TEAM_EFFECTS = {
    Penalty.NO_PENALTY: TeamEffect.NONE,
    Penalty.WARNING: TeamEffect.NONE,
    Penalty.GAME_LOSS: TeamEffect.LOSE_MATCH,
    Penalty.MATCH_LOSS: TeamEffect.LOSE_MATCH,
    Penalty.MATCH_POINT: TeamEffect.MATCH_POINT,
    Penalty.DISQUALIFICATION: TeamEffect.DISQUALIFY_TEAM,
}


def _effects(
    infraction: Infraction, rel: Rel, penalty: Penalty, drops_team: bool, context: PenaltyContext
) -> tuple[PenaltyEffects, tuple[str, ...]]:
    """The team consequences of ``penalty`` [IPG 1.1; MTR 8.2; CR 810.8a; docs/rules.md#team-penalties].

    Slow Play's two turns are an IPG remedy, so Regular REL (JAR) gives none; neither does a
    penalty that ends the match, nor one issued while the match is already in extra turns.
    """
    team_effect = _TEAM_EFFECTS[penalty]
    notes: list[N_] = []
    extra_turns = 0
    if infraction.code == "TE-SP" and rel is not Rel.REGULAR and penalty not in _ENDS_MATCH:
        if context.in_extra_turns:
            notes.append(N_("match already in extra turns: no extra turns added, the penalty stands"))
        else:
            extra_turns = SLOW_PLAY_EXTRA_TURNS
            notes.append(N_("+%(turns)s turns at the end of the round for this table", turns=extra_turns))
    drops_team = drops_team and penalty in (Penalty.GAME_LOSS, Penalty.MATCH_LOSS)
    next_match = context.between_matches and team_effect is TeamEffect.LOSE_MATCH
    if team_effect is TeamEffect.LOSE_MATCH:
        notes.append(N_("the team loses its next match") if next_match else N_("the team loses the match"))
    elif team_effect is TeamEffect.MATCH_POINT:
        notes.append(N_("the team loses one match point"))
    elif team_effect is TeamEffect.DISQUALIFY_TEAM:
        notes.append(
            N_("the whole team is disqualified: current match lost, dropped, removed from the standings")
        )
    if drops_team:
        notes.append(N_("the team is dropped unless it reports before the end of the round"))
    effects = PenaltyEffects(
        team_effect=team_effect,
        match_point_adjustment=-1 if penalty is Penalty.MATCH_POINT else 0,
        extra_turns=extra_turns,
        drops_team=drops_team,
        applies_to_next_match=next_match,
    )
    return effects, tuple(notes)


def apply_deviation(
    decision: PenaltyDecision,
    *,
    penalty: Penalty,
    reason: str,
    by_head_judge: bool,
    context: PenaltyContext | None = None,
) -> PenaltyDecision:
    """The head judge issues ``penalty`` instead of the proposal [IPG 1, 1.2].

    Only the head judge may deviate, and must say why (the IPG expects the HJ "to explain the
    standard penalty and the reason for deviation"). A match point penalty exists only under the
    match_point policy, and never for Tardiness or USC-Major (2009 guide). ``context`` should be
    the one the proposal used, so the effects (extra turns, next match) are recomputed the same way.
    """
    if not by_head_judge:
        raise PenaltyRuleError(
            N_("Only the head judge may deviate from the proposed penalty"), status_code=403
        )
    reason = reason.strip()
    if not reason:
        raise PenaltyRuleError(
            N_("A deviation needs a reason"),
            errors=[{"field": "reason", "message": N_("a deviation needs a reason")}],
        )
    if penalty is decision.penalty:
        raise PenaltyRuleError(
            N_("%(penalty)s is already the penalty; this is not a deviation", penalty=N_(penalty.label))
        )
    if penalty is Penalty.MATCH_POINT:
        if decision.policy is not PenaltyPolicy.MATCH_POINT:
            raise PenaltyRuleError(N_("The match point penalty exists only under the match_point policy"))
        if decision.infraction_code in NEVER_MATCH_POINT:
            raise PenaltyRuleError(
                N_("The match point penalty is never used for %(code)s", code=decision.infraction_code)
            )
    infraction = get_infraction(decision.infraction_code)
    context = context or PenaltyContext()
    effects, notes = _effects(infraction, decision.rel, penalty, decision.drops_team, context)
    offer = decision.offer_ftmgs_to if penalty is not Penalty.DISQUALIFICATION else ()
    if offer:
        notes = (*notes, _ftmgs_note(offer))
    return replace(
        decision,
        penalty=penalty,
        offer_ftmgs_to=offer,
        team_effect=effects.team_effect,
        match_point_adjustment=effects.match_point_adjustment,
        extra_turns=effects.extra_turns,
        drops_team=effects.drops_team,
        applies_to_next_match=effects.applies_to_next_match,
        steps=(
            *decision.steps,
            N_(
                "head judge deviation: %(proposed)s → %(penalty)s (%(reason)s)",
                proposed=decision.penalty.label,
                penalty=penalty.label,
                reason=reason,
            ),
        ),
        notes=notes,
        deviated=True,
        deviation_reason=reason,
    )


def _ftmgs_note(offer: tuple[str, ...]) -> N_:
    return N_(
        "offer FtMGS (GPE-FTMGS) to each other player, one by one: %(players)s", players=", ".join(offer)
    )
