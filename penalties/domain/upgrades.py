"""The penalty the rules give, before its effects on the team: the REL's table, the infraction's own
circumstances a judge establishes (``PenaltyContext``: upgrades and downgrades [IPG §§2–4], the
JAR's Serious Problems), the repeat-offence upgrades over the player's earlier penalties
(``PriorPenalty``), and the event's 2HG policy for a resulting Game Loss
(docs/rules.md#game-loss-in-2hg). ``penalties.domain.decision.propose_penalty`` applies them in
that order and writes each step down.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from common.translatable import N_
from penalties.domain.catalogue import Infraction
from penalties.domain.enums import DeckProblemUpgrade, Penalty, PenaltyPolicy, Rel

IPG_TARDINESS_MATCH_LOSS_MINUTES = 10.0
"""IPG 3.1 upgrade: not in the seat 10 minutes into the round → Match Loss (and drop)."""

IPG_TARDINESS_WARNING_MINUTES = 1.0
"""IPG 3.1 downgrade: seated before 1 minute has elapsed → Warning."""

JAR_TARDINESS_FORFEIT_MINUTES = 10.0
"""JAR: "more than 10 minutes late to a match has forfeited"."""

NEVER_MATCH_POINT = frozenset({"TE-T", "USC-MAJOR"})
"""The 2009 guide: the match point penalty "can't be used in cases of TE—Tardiness or USC—Major"."""


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


def regular(infraction: Infraction, context: PenaltyContext) -> tuple[Penalty, Penalty, list[N_], bool]:
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


def ipg(
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
    if infraction.code in NEVER_MATCH_POINT:
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
