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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from common.translatable import N_
from penalties.domain.catalogue import Infraction, get_infraction
from penalties.domain.enums import DeckProblemUpgrade, Penalty, PenaltyPolicy, Rel, TeamEffect
from penalties.domain.errors import PenaltyRuleError

SLOW_PLAY_EXTRA_TURNS = 2
"""IPG 3.3: "two additional turns"; the 2009 guide's "one per team" is the same 2 in 2HG."""

IPG_TARDINESS_MATCH_LOSS_MINUTES = 10.0
"""IPG 3.1 upgrade: not in the seat 10 minutes into the round → Match Loss (and drop)."""

IPG_TARDINESS_WARNING_MINUTES = 1.0
"""IPG 3.1 downgrade: seated before 1 minute has elapsed → Warning."""

JAR_TARDINESS_FORFEIT_MINUTES = 10.0
"""JAR: "more than 10 minutes late to a match has forfeited"."""

_NEVER_MATCH_POINT = frozenset({"TE-T", "USC-MAJOR"})
"""The 2009 guide: the match point penalty "can't be used in cases of TE—Tardiness or USC—Major"."""

_ENDS_MATCH = frozenset({Penalty.GAME_LOSS, Penalty.MATCH_LOSS, Penalty.DISQUALIFICATION})


@dataclass(frozen=True, slots=True)
class PriorPenalty:
    """A penalty the same player already received at this event, for the repeat-offence upgrades.

    ``base_penalty`` is the ``base_penalty`` of that earlier decision: the level before repeat
    upgrades and the 2HG policy. Only Warning-level offences count towards an upgrade [IPG 2, 3, 4.1].
    Overturned penalties never count. ``day`` is the event day (1, 2, …) it was issued on.
    """

    infraction_code: str
    day: int
    base_penalty: Penalty
    overturned: bool = False


@dataclass(frozen=True, slots=True)
class PenaltyContext:
    """The circumstances a judge establishes; each field is read only by the infractions it names.

    General:
      ``found_during_deck_check``: the error was found during a deck check (match_point policy).
      ``game_cannot_continue``: the game physically cannot go on; the 2009 guide keeps a real
      Game Loss then instead of the match point penalty.
      ``in_extra_turns``: the match is already in end-of-round turns (no Slow Play turns then,
      IPG 3.3).
      ``between_matches``: the player has no match in progress (it is over, or the error was
      found outside a match, e.g. by counting decklists); a Game or Match Loss then applies to the
      team's next match [IPG 1.1, 3.4].
      ``knowingly``: the player knew they were breaking a rule: a Serious Problem at Regular (JAR),
      Cheating at Competitive/Professional [IPG 4.8]. Either way a Disqualification.
      ``repeated_after_reminders`` (Regular only): the player repeats the mistake or behaviour
      after being told the next one means a Game Loss (JAR).
      ``other_player_ids``: the other three players in the 2HG game (teammate and both
      opponents); a Game Rule Violation offers each of them FtMGS [IPG 2.6; 2009 guide].
    Per infraction:
      ``trigger_detrimental`` (GPE-MT), ``illegal_face_down`` (GPE-HCE), ``minutes_late`` (TE-T;
      ``None`` when not measured: the default Game Loss), ``information_available_between_games``
      (TE-OA), ``deck_problem_upgrade`` (TE-DP), ``marked_pattern_advantage`` and
      ``marked_no_replacements`` (TE-MC), ``malicious_or_unremorseful`` (USC-MAJOR).
    """

    found_during_deck_check: bool = False
    game_cannot_continue: bool = False
    in_extra_turns: bool = False
    between_matches: bool = False
    knowingly: bool = False
    repeated_after_reminders: bool = False
    other_player_ids: tuple[str, ...] = ()
    trigger_detrimental: bool = False
    illegal_face_down: bool = False
    minutes_late: float | None = None
    information_available_between_games: bool = False
    deck_problem_upgrade: DeckProblemUpgrade | None = None
    marked_pattern_advantage: bool = False
    marked_no_replacements: bool = False
    malicious_or_unremorseful: bool = False


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
        base, penalty, steps, drops_team = _regular(infraction, context)
        upgraded = False
    else:
        base, penalty, steps, drops_team, upgraded = _ipg(infraction, rel, policy, day, history, context)
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


def _regular(infraction: Infraction, context: PenaltyContext) -> tuple[Penalty, Penalty, list[N_], bool]:
    """Regular REL: the JAR's fix-and-educate, its Game Loss for repetition, its Serious Problems.

    The 2HG policy does not touch a Regular-REL Game Loss: the 2009 guide replaces IPG Game
    Losses, while the JAR's Game Loss is its own last step of education. In a one-game match it
    costs the team the match either way.
    """
    steps = [
        N_(
            "%(rel)s, %(code)s (%(name)s): %(handling)s",
            rel=N_(Rel.REGULAR.label),
            code=infraction.code,
            name=infraction.name,
            handling=infraction.regular_handling,
        )
    ]
    drops_team = False
    if infraction.regular_penalty is Penalty.DISQUALIFICATION:
        base = Penalty.DISQUALIFICATION
        steps.append(N_("Serious Problem (JAR) → Disqualification"))
    elif context.knowingly:
        base = Penalty.DISQUALIFICATION
        steps.append(N_("knowingly broke the rules: Serious Problem (JAR) → Disqualification"))
    elif (
        infraction.code == "TE-T"
        and context.minutes_late is not None
        and context.minutes_late > JAR_TARDINESS_FORFEIT_MINUTES
    ):
        base = Penalty.MATCH_LOSS
        drops_team = True
        steps.append(
            N_(
                "more than 10 minutes late: match forfeited (JAR) → Match Loss, "
                "team dropped at the end of the round if still absent"
            )
        )
    elif context.repeated_after_reminders:
        base = Penalty.GAME_LOSS
        steps.append(N_("repeated after being told the next one means a Game Loss (JAR) → Game Loss"))
    else:
        base = Penalty.NO_PENALTY
        steps.append(N_("fix and educate → No Penalty"))
    return base, base, steps, drops_team


def _ipg(
    infraction: Infraction,
    rel: Rel,
    policy: PenaltyPolicy,
    day: int,
    history: Sequence[PriorPenalty],
    context: PenaltyContext,
) -> tuple[Penalty, Penalty, list[N_], bool, bool]:
    """Competitive/Professional: IPG default, circumstances, repeat upgrade, then the 2HG policy."""
    default = infraction.competitive_penalty
    head = N_(
        "%(rel)s, %(code)s (%(name)s): %(penalty)s",
        rel=N_(rel.label),
        code=infraction.code,
        name=infraction.name,
        penalty=default.label,
    )
    base, circumstance, drops_team = _circumstance(infraction, context, history)
    steps = [head]
    if circumstance:
        steps.append(circumstance)

    penalty = base
    upgraded = False
    if base is Penalty.WARNING and infraction.upgrade_at_warning is not None:
        nth = 1 + _prior_warnings(infraction, day, history)
        if nth >= infraction.upgrade_at_warning:
            upgraded = True
            penalty = Penalty.GAME_LOSS
            count = N_("%(ordinal)s %(code)s Warning", ordinal=_ordinal(nth), code=infraction.code)
            if circumstance:
                steps.append(count)
            else:
                steps[0] = N_("%(rel)s, %(count)s", rel=N_(rel.label), count=count)
            steps.append(N_("upgraded to Game Loss"))

    if penalty is Penalty.GAME_LOSS and policy is PenaltyPolicy.MATCH_POINT:
        penalty, policy_step = _match_point_policy(infraction, context, upgraded)
        steps.append(policy_step)
    return base, penalty, steps, drops_team, upgraded


def _circumstance(
    infraction: Infraction, context: PenaltyContext, history: Sequence[PriorPenalty]
) -> tuple[Penalty, N_ | None, bool]:
    """The infraction's own upgrades/downgrades [IPG §§2–4]: (penalty, step text, drops team)."""
    default = infraction.competitive_penalty
    code = infraction.code
    if context.knowingly and default is not Penalty.DISQUALIFICATION:
        return (
            Penalty.DISQUALIFICATION,
            N_("the player knew it was against the rules: Cheating (USC-C, IPG 4.8) → Disqualification"),
            False,
        )
    if code == "GPE-MT" and context.trigger_detrimental:
        return Penalty.WARNING, N_("trigger usually detrimental to its controller → Warning"), False
    if code == "GPE-HCE" and context.illegal_face_down:
        return Penalty.GAME_LOSS, N_("illegal face-down permanent → Game Loss"), False
    if code == "TE-T" and context.minutes_late is not None:
        if context.minutes_late >= IPG_TARDINESS_MATCH_LOSS_MINUTES:
            return (
                Penalty.MATCH_LOSS,
                N_(
                    "not seated 10 minutes into the round → Match Loss, team dropped unless it reports "
                    "to the head judge or scorekeeper before the end of the round"
                ),
                True,
            )
        if context.minutes_late < IPG_TARDINESS_WARNING_MINUTES:
            return Penalty.WARNING, N_("seated within the first minute → Warning"), False
    if code == "TE-OA" and context.information_available_between_games:
        return Penalty.GAME_LOSS, N_("information available between games → Game Loss"), False
    if code == "TE-DP" and context.deck_problem_upgrade is not None:
        return (
            Penalty.GAME_LOSS,
            N_("%(condition)s → Game Loss", condition=context.deck_problem_upgrade.label),
            False,
        )
    if code == "TE-MC":
        if context.marked_pattern_advantage:
            return (
                Penalty.GAME_LOSS,
                N_("pattern of markings gives substantial advantage → Game Loss"),
                False,
            )
        if context.marked_no_replacements:
            return (
                Penalty.GAME_LOSS,
                N_("no replacements: basic lands added, decklist changed → Game Loss"),
                False,
            )
    if code == "USC-MAJOR":
        if context.malicious_or_unremorseful:
            return Penalty.DISQUALIFICATION, N_("malicious or without remorse → Disqualification"), False
        if any(prior.infraction_code == code and not prior.overturned for prior in history):
            return Penalty.DISQUALIFICATION, N_("repeated → Disqualification"), False
    return default, None, False


def _prior_warnings(infraction: Infraction, day: int, history: Sequence[PriorPenalty]) -> int:
    """Earlier Warning-level offences of the same category by this player that still count."""
    return sum(
        1
        for prior in history
        if prior.infraction_code == infraction.code
        and prior.base_penalty is Penalty.WARNING
        and not prior.overturned
        and (prior.day == day or not infraction.count_resets_daily)
    )


def _match_point_policy(
    infraction: Infraction, context: PenaltyContext, upgraded: bool
) -> tuple[Penalty, N_]:
    """The 2009 guide's substitution for a Game Loss, with its exceptions, in the guide's order.

    The guide's list is: deck errors that would be a Game Loss found during a deck check; GPE
    Drawing Extra Cards; TE Insufficient Randomization; TE Marked Cards – Pattern. The two middle
    ones are Warnings under today's names (Hidden Card Error, Insufficient Shuffling) and so never
    reach here. The deck-error case is read literally: a Decklist Problem found any other way
    (e.g. by counting lists) keeps its Game Loss. Marked cards count only for the pattern case:
    the no-replacements Game Loss is not "Marked Cards – Pattern".
    """
    if infraction.code in _NEVER_MATCH_POINT:
        return Penalty.GAME_LOSS, N_(
            "match_point policy: never for %(code)s → Game Loss", code=infraction.code
        )
    if upgraded:
        return Penalty.MATCH_LOSS, N_("match_point policy: upgrade → Match Loss")
    case = _match_point_case(infraction, context)
    if case is None:
        return Penalty.GAME_LOSS, N_("match_point policy: not one of the guide's cases → Game Loss")
    if context.game_cannot_continue:
        return Penalty.GAME_LOSS, N_(
            "match_point policy: %(case)s, but the game cannot continue → Game Loss", case=case
        )
    return Penalty.MATCH_POINT, N_("match_point policy: %(case)s → one match point penalty", case=case)


def _match_point_case(infraction: Infraction, context: PenaltyContext) -> N_ | None:
    if infraction.code in ("TE-DLP", "TE-DP") and context.found_during_deck_check:
        return N_("deck error found during a deck check")
    if infraction.code == "TE-MC" and context.marked_pattern_advantage:
        return N_("marked cards with a pattern")
    return None


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
        if decision.infraction_code in _NEVER_MATCH_POINT:
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


def _ordinal(n: int) -> N_:
    """ "2nd", as a message: each language writes its own ordinals (2 回目)."""
    if 10 <= n % 100 <= 20:
        return N_("%(n)sth", n=n)
    if n % 10 == 1:
        return N_("%(n)sst", n=n)
    if n % 10 == 2:
        return N_("%(n)snd", n=n)
    if n % 10 == 3:
        return N_("%(n)srd", n=n)
    return N_("%(n)sth", n=n)
