"""What penalties do to a match result, and what an overturn gives back.

Both are deliberately small: the adapter keeps the penalties of a match and recomputes the result
from them whenever one is issued or overturned, so an overturn never has to remember "what the
result was before"; it only drops the penalty from the list.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby

from common.translatable import N_
from penalties.domain.decision import PenaltyDecision, PenaltyEffects
from penalties.domain.enums import Penalty, TeamEffect
from penalties.domain.errors import PenaltyRuleError

Id = int | str

_MATCH_LOSING = frozenset({Penalty.MATCH_LOSS, Penalty.DISQUALIFICATION})
_LOSING = _MATCH_LOSING | {Penalty.GAME_LOSS}


@dataclass(frozen=True, slots=True)
class MatchPenalty:
    """A penalty issued to a player of a match, on the team's side.

    ``moment`` orders the penalties of the match; penalties with the same moment were issued
    simultaneously (one ruling, e.g. both teams' decks failed the same deck check).
    """

    penalty_id: Id
    team_id: Id
    penalty: Penalty
    moment: int
    overturned: bool = False


@dataclass(frozen=True, slots=True)
class MatchPenaltyOutcome:
    """The match result the penalties impose.

    ``losing_team_id`` is ``None`` when no penalty decides the match against one team: the result
    is whatever was played or reported, unless ``double_loss`` (both teams lose, 0 points each).
    ``deciding_penalty_ids``: the penalties that decided it.
    ``recorded_without_score_change``: simultaneous Game Losses to both teams [IPG 1.1], or a Game
    Loss issued with the other team's Match Loss (the match is lost by the other team anyway).
    ``for_next_match``: losses issued after the match was already decided; IPG 1.1 applies them
    to the team's next match.
    """

    losing_team_id: Id | None
    deciding_penalty_ids: tuple[Id, ...] = ()
    recorded_without_score_change: tuple[Id, ...] = ()
    for_next_match: tuple[Id, ...] = ()
    double_loss: bool = False

    @property
    def decided(self) -> bool:
        return self.double_loss or self.losing_team_id is not None


def match_outcome_from_penalties(
    *, team_ids: tuple[Id, Id], penalties: Iterable[MatchPenalty]
) -> MatchPenaltyOutcome:
    """Which team, if any, the match goes against because of penalties.

    A Game Loss ends the single 2HG game and a Match Loss or Disqualification loses the match, so
    each sets the result against the penalised player's team [IPG 1.1; CR 810.8a; MTR 8.2].
    Penalties of one ruling (the same ``moment``):
    - Game Losses to both teams are recorded and change nothing [IPG 1.1]; the match then goes on
      to be decided by play or a later penalty;
    - a Match Loss (or Disqualification) to both teams is a double loss: IPG 1.1 cancels only
      simultaneous Game Losses, and each offender of a Match Loss loses the match [IPG 4.3, 4.4];
    - a Match Loss to one team and a Game Loss to the other: the Match Loss decides, the Game
      Loss is recorded without score change.
    Overturned penalties are ignored. Match points penalties and Warnings do not touch the result.
    """
    team_a, team_b = team_ids
    if team_a == team_b:
        raise PenaltyRuleError(N_("A match needs two different teams"))
    losses = sorted(
        (p for p in penalties if p.penalty in _LOSING and not p.overturned),
        key=lambda p: p.moment,
    )
    for p in losses:
        if p.team_id not in team_ids:
            raise PenaltyRuleError(
                N_(
                    "Penalty %(penalty)s is for team %(team)s, not in this match",
                    penalty=p.penalty_id,
                    team=p.team_id,
                )
            )
    loser: Id | None = None
    double = False
    deciding: tuple[Id, ...] = ()
    cancelled: list[Id] = []
    later: list[Id] = []
    for _, group in groupby(losses, key=lambda p: p.moment):
        batch = list(group)
        if loser is not None or double:
            later.extend(p.penalty_id for p in batch)
            continue
        match_losses = [p for p in batch if p.penalty in _MATCH_LOSING]
        losing_teams = {p.team_id for p in match_losses}
        if len(losing_teams) == 2:
            double = True
            deciding = tuple(p.penalty_id for p in match_losses)
            cancelled.extend(p.penalty_id for p in batch if p.penalty not in _MATCH_LOSING)
        elif losing_teams:
            loser = match_losses[0].team_id
            deciding = tuple(p.penalty_id for p in batch if p.team_id == loser)
            cancelled.extend(p.penalty_id for p in batch if p.team_id != loser)
        elif len({p.team_id for p in batch}) == 2:
            cancelled.extend(p.penalty_id for p in batch)
        else:
            loser = batch[0].team_id
            deciding = tuple(p.penalty_id for p in batch)
    return MatchPenaltyOutcome(
        losing_team_id=loser,
        deciding_penalty_ids=deciding,
        recorded_without_score_change=tuple(cancelled),
        for_next_match=tuple(later),
        double_loss=double,
    )


@dataclass(frozen=True, slots=True)
class Overturn:
    """What the adapter restores when the head judge overturns a penalty on appeal.

    ``recompute_match_result``: run :func:`match_outcome_from_penalties` again with the penalty
    marked overturned; if nothing decides the match any more, the played/reported result stands.
    ``match_point_adjustment_delta``: add to the team's adjustment (+1 undoes a match point
    penalty). ``extra_turns_delta``: add to the table's end-of-round turns. ``reinstate_team``:
    the team comes back (undo a Disqualification or a Tardiness drop).
    """

    recompute_match_result: bool
    match_point_adjustment_delta: int
    extra_turns_delta: int
    reinstate_team: bool
    reason: str
    explanation: N_


def overturn(effects: PenaltyEffects, *, reason: str, by_head_judge: bool) -> Overturn:
    """Undo exactly what a penalty changed; appeals are decided by the head judge alone, with a reason.

    The overturned penalty also stops counting for repeat upgrades (:class:`PriorPenalty`
    ``overturned``); penalties already issued after it are not re-graded automatically, and a
    FtMGS given because of an overturned GRV is a penalty of its own, overturned separately.
    """
    if not by_head_judge:
        raise PenaltyRuleError(N_("Only the head judge may overturn a penalty"), status_code=403)
    reason = reason.strip()
    if not reason:
        raise PenaltyRuleError(
            N_("An overturn needs a reason"),
            errors=[{"field": "reason", "message": N_("an overturn needs a reason")}],
        )
    recompute = effects.team_effect in (TeamEffect.LOSE_MATCH, TeamEffect.DISQUALIFY_TEAM)
    reinstate = effects.team_effect is TeamEffect.DISQUALIFY_TEAM or effects.drops_team
    parts: list[N_] = []
    if recompute:
        parts.append(N_("match result recomputed without this penalty"))
    if effects.match_point_adjustment:
        parts.append(N_("team match points %(delta)s", delta=f"{-effects.match_point_adjustment:+d}"))
    if effects.extra_turns:
        parts.append(N_("end-of-round turns %(delta)s", delta=f"{-effects.extra_turns:+d}"))
    if reinstate:
        parts.append(N_("team reinstated"))
    restored = parts[0] if parts else N_("record only")
    for part in parts[1:]:
        restored = N_("%(before)s; %(part)s", before=restored, part=part)
    return Overturn(
        recompute_match_result=recompute,
        match_point_adjustment_delta=-effects.match_point_adjustment,
        extra_turns_delta=-effects.extra_turns,
        reinstate_team=reinstate,
        reason=reason,
        explanation=N_(
            "overturned by the head judge (%(reason)s): %(restored)s", reason=reason, restored=restored
        ),
    )


def check_loss_has_match(
    decision: PenaltyDecision, *, has_match: bool, player: str, round_number: int
) -> None:
    """A Game or Match Loss needs a match to lose in the penalty's round (not a bye, not no match):
    a loss for the next match is issued for that round once it is paired [IPG 1.1]."""
    if decision.team_effect is TeamEffect.LOSE_MATCH and not has_match:
        raise PenaltyRuleError(
            N_(
                "%(player)s's team has no match in round %(round)s to lose; a loss for the next match "
                "is issued for that round, once it is paired, with between_matches",
                player=player,
                round=round_number,
            ),
            errors=[{"field": "round", "message": N_("the team has no match to lose in this round")}],
        )


def loss_moves_to_next_match(decision: PenaltyDecision, *, simultaneous: bool, match_over: bool) -> bool:
    """A loss for a match that is already over lands on the team's next match [IPG 1.1], except a
    penalty of an earlier ruling's moment (``simultaneous``), which stays at that ruling's match."""
    return decision.team_effect is TeamEffect.LOSE_MATCH and not simultaneous and match_over


def is_proposal_only(decision: PenaltyDecision, *, may_issue: bool) -> bool:
    """A Disqualification from someone who may not issue one (only the head judge, MTR 1.5, IPG 4)
    is recorded as a proposal, with no effect until the head judge reviews it."""
    return decision.team_effect is TeamEffect.DISQUALIFY_TEAM and not may_issue
