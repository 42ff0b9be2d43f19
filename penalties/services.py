"""Writes for penalties: propose, issue (with the team consequences). The head judge's later
decisions on a recorded penalty, overturn on appeal and the review of a proposed Disqualification,
are in ``penalties.reviews``, which writes match results through this module's helpers.

The rules live in ``penalties.domain``; this module loads the player's history and the match,
calls the core, stores its decision, and applies what it means for the team through the
tournaments services (match results, disqualification), which own those rows. Match points and
Slow Play turns need no write: standings and the round clock read them from
``penalties.selectors``, which skips overturned penalties, so an overturn restores them by itself.

A match's result under penalties is recomputed from all its penalties each time one is issued or
overturned (``match_outcome_from_penalties``), and written only when the deciding team changes;
so simultaneous losses on both teams, or an appeal, need no memory of "what it was before".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from common.errors import ConflictError, DomainError
from common.translatable import N_, as_data
from penalties import selectors
from penalties.domain import (
    DeckProblemUpgrade,
    MatchPenaltyOutcome,
    PenaltyContext,
    PenaltyDecision,
    PenaltyPolicy,
    PenaltyRuleError,
    Rel,
    TeamEffect,
    apply_deviation,
    check_loss_has_match,
    is_proposal_only,
    loss_moves_to_next_match,
    match_outcome_from_penalties,
    propose_penalty,
)
from penalties.domain import Penalty as PenaltyKind
from penalties.models import HeadJudgeReview, Penalty
from tournaments.domain.seating import seat_order
from tournaments.enums import ResultKind
from tournaments.models import Match, Player, Round, Tournament
from tournaments.rules import can_deviate, can_issue_penalty
from tournaments.services.audit import audit_log
from tournaments.services.locks import lock_tournament
from tournaments.services.participation import team_disqualify
from tournaments.services.results import match_penalty_result_clear, match_penalty_result_set

CONTEXT_FLAGS: tuple[str, ...] = (
    "found_during_deck_check",
    "game_cannot_continue",
    "in_extra_turns",
    "between_matches",
    "knowingly",
    "repeated_after_reminders",
    "trigger_detrimental",
    "illegal_face_down",
    "information_available_between_games",
    "marked_pattern_advantage",
    "marked_no_replacements",
    "malicious_or_unremorseful",
)
"""The yes/no circumstances a judge may state: the boolean fields of :class:`PenaltyContext`."""

CONTEXT_VALUES: tuple[str, ...] = ("minutes_late", "deck_problem_upgrade")
"""The circumstances that carry a value rather than yes/no."""


def penalty_propose(
    *,
    tournament: Tournament,
    player: Player,
    round_row: Round,
    infraction: str,
    context: Mapping[str, Any] | None = None,
    day: int | None = None,
) -> PenaltyDecision:
    """What the rules give ``player`` for ``infraction`` now, without saving anything.

    ``context`` holds the judge's circumstances (:data:`CONTEXT_FLAGS`, :data:`CONTEXT_VALUES`);
    the other three players (for FtMGS after a GRV) and "already in extra turns" are read from
    the match. ``day`` defaults to the latest day of the event's penalties. A loss for a match
    that is already over gets a note saying where it will land (see :func:`penalty_issue`).
    """
    _check_belongs(tournament=tournament, player=player, round_row=round_row)
    match = _match_of(player=player, round_row=round_row)
    decision = _propose(
        tournament=tournament, player=player, match=match, infraction=infraction, context=context, day=day
    )
    if match is not None and decision.team_effect is TeamEffect.LOSE_MATCH and _is_over(match):
        note: str
        try:
            _match, note = _next_match_for_loss(player=player, match=match, decision=decision)
        except ConflictError as refused:
            note = refused.message
        decision = dataclasses.replace(decision, notes=(*decision.notes, note))
    return decision


@transaction.atomic
def penalty_issue(
    *,
    tournament: Tournament,
    actor,
    player: Player,
    round_row: Round,
    infraction: str,
    description: str,
    penalty: str | None = None,
    deviation_reason: str = "",
    context: Mapping[str, Any] | None = None,
    day: int | None = None,
    simultaneous_with: Penalty | None = None,
) -> Penalty:
    """Record a penalty and apply its team consequences, in one transaction.

    Callers check that ``actor`` is a judge. ``penalty`` other than the proposal is a deviation:
    head judge only (403) and with a reason (400), as the core rules; its audit entry has the
    proposal as ``before`` and the deviation reason as its reason. ``simultaneous_with`` marks
    a penalty given in the same ruling as an earlier one at the same match (both teams' decks
    failing one deck check): simultaneous losses on both teams change no score [IPG 1.1].

    A Game Loss or Match Loss sets the match against the player's team; a Disqualification
    disqualifies the team; a match point penalty and Slow Play's turns are read by standings and
    the clock. The event is locked first (``tournaments.services.locks``: a Disqualification
    changes who plays), then the match row and the player row, so two judges entering
    penalties at one table, or for one player, are serialised and neither update is lost.

    A loss for a match that is already over (a result was reported or confirmed: result kind
    ``played``) never reverses that result: IPG 1.1 applies it to the team's next match. The
    penalty is recorded for ``round`` (where the infraction happened) against the team's first
    later match that is not over (byes skipped), with ``applies_to_next_match`` set and a note
    naming that match; appeals and further penalties then work on that match. If the team has
    no such match yet (the next round is not paired), nothing is saved and the answer is 409:
    issue it again once the next round is paired. A Disqualification is not moved: it loses the
    current unfinished match and drops the team (``team_disqualify``). Only the head judge's
    Disqualification takes effect (MTR 1.5, IPG 4; ``tournaments.rules.can_issue_penalty``): a
    judge's is recorded as a proposal (``review`` pending) with no effect on the team or the
    results until the head judge confirms or changes it (``penalty_review``). A penalty given in the
    same ruling as an earlier one (``simultaneous_with``) stays at that earlier penalty's match.
    """
    _check_belongs(tournament=tournament, player=player, round_row=round_row)
    lock_tournament(tournament)
    description = _described(description)
    match = _match_of(player=player, round_row=round_row, lock=True)
    Player.objects.select_for_update().filter(pk=player.pk).first()
    decision = _decision_to_issue(
        tournament=tournament,
        actor=actor,
        player=player,
        match=match,
        infraction=infraction,
        penalty=penalty,
        deviation_reason=deviation_reason,
        context=context,
        day=day,
    )
    moment_of = _simultaneous_root(simultaneous_with, match)
    check_loss_has_match(
        decision,
        has_match=match is not None and not match.is_bye,
        player=player.name,
        round_number=round_row.number,
    )
    match, decision = _landing(decision, player=player, match=match, simultaneous=moment_of is not None)
    proposal_only = is_proposal_only(
        decision, may_issue=can_issue_penalty(actor, tournament, decision.penalty.value)
    )
    if proposal_only:
        note = N_("Proposed: takes effect once the head judge confirms it (MTR 1.5, IPG 4).")
        decision = dataclasses.replace(decision, notes=(*decision.notes, note))
    before = match_penalty_outcome(match)
    row = _store(
        decision,
        tournament=tournament,
        round_row=round_row,
        match=match,
        player=player,
        actor=actor,
        description=description,
        day=day,
        simultaneous_with=moment_of,
        context=context,
        review=HeadJudgeReview.PENDING if proposal_only else HeadJudgeReview.NOT_NEEDED,
    )
    if not proposal_only:
        # The audit reason names the penalty by its row, whose own entry has its (translated) name.
        reason = f"penalty {row.pk}: {decision.infraction_code} to {player.name}"
        _apply_to_team(decision, match=match, team=player.team, before=before, actor=actor, reason=reason)
    audit_log(
        tournament=tournament,
        actor=actor,
        action="penalty_issue",
        obj=row,
        before={"penalty": row.proposed_penalty} if row.deviated else None,
        after=penalty_audit_view(row),
        reason=decision.deviation_reason or description,
    )
    return row


def _landing(
    decision: PenaltyDecision, *, player: Player, match: Match | None, simultaneous: bool
) -> tuple[Match | None, PenaltyDecision]:
    """The match the penalty lands on: a loss for a match already over moves to the team's next
    match, with a note [IPG 1.1]; anything else stays where it was given. The next match is locked."""
    if not loss_moves_to_next_match(decision, simultaneous=simultaneous, match_over=_is_over(match)):
        return match, decision
    assert match is not None, "check_loss_has_match: a loss has a match"
    target, note = _next_match_for_loss(player=player, match=match, decision=decision, lock=True)
    return target, dataclasses.replace(decision, notes=(*decision.notes, note), applies_to_next_match=True)


def _described(description: str) -> str:
    """What the judge wrote happened: a penalty is never recorded without it (400)."""
    description = description.strip()
    if not description:
        raise DomainError(
            _("Describe what happened"), errors=[{"field": "description", "message": _("may not be blank")}]
        )
    return description


def _decision_to_issue(
    *,
    tournament: Tournament,
    actor,
    player: Player,
    match: Match | None,
    infraction: str,
    penalty: str | None,
    deviation_reason: str,
    context: Mapping[str, Any] | None,
    day: int | None,
) -> PenaltyDecision:
    """The rules' proposal, or the head judge's deviation from it when ``penalty`` differs."""
    decision = _propose(
        tournament=tournament, player=player, match=match, infraction=infraction, context=context, day=day
    )
    if penalty is None or penalty == decision.penalty:
        return decision
    return apply_deviation(
        decision,
        penalty=_penalty_kind(penalty),
        reason=deviation_reason,
        by_head_judge=can_deviate(actor, tournament),
        context=_context(context=context, player=player, match=match),
    )


def _store(
    decision: PenaltyDecision,
    *,
    tournament: Tournament,
    round_row: Round,
    match: Match | None,
    player: Player,
    actor,
    description: str,
    day: int | None,
    simultaneous_with: Penalty | None,
    context: Mapping[str, Any] | None,
    review: str,
) -> Penalty:
    """The penalty row: the core's decision copied in, its explanation also kept as a message."""
    return Penalty.objects.create(
        review=review,
        tournament=tournament,
        round=round_row,
        match=match,
        player=player,
        team_id=player.team_id,
        simultaneous_with=simultaneous_with,
        infraction=decision.infraction_code,
        description=description,
        judge=actor,
        day=_day(tournament=tournament, day=day),
        base_penalty=decision.base_penalty,
        proposed_penalty=decision.proposed_penalty,
        penalty=decision.penalty,
        upgraded=decision.upgraded,
        explanation=str(decision.explanation),
        explanation_message=as_data(decision.explanation),
        steps=[str(step) for step in decision.steps],
        notes=[str(note) for note in decision.notes],
        notes_message=[as_data(note) for note in decision.notes],
        team_effect=decision.team_effect,
        match_point_adjustment=decision.match_point_adjustment,
        extra_turns=decision.extra_turns,
        drops_team=decision.drops_team,
        applies_to_next_match=decision.applies_to_next_match,
        offer_ftmgs_to=[int(player_id) for player_id in decision.offer_ftmgs_to],
        context=_stored_context(context),
        deviated=decision.deviated,
        deviation_reason=decision.deviation_reason,
    )


def _apply_to_team(
    decision: PenaltyDecision,
    *,
    match: Match | None,
    team,
    before: MatchPenaltyOutcome | None,
    actor,
    reason: str,
) -> None:
    """What a penalty in force does to the team: a Disqualification drops it, a loss sets the match."""
    if decision.team_effect is TeamEffect.DISQUALIFY_TEAM:
        team_disqualify(team=team, actor=actor, reason=reason)
    elif decision.team_effect is TeamEffect.LOSE_MATCH:
        apply_match_outcome(match=match, before=before, actor=actor, reason=reason)


def _is_over(match: Match | None) -> bool:
    """A result has been reported (by one side or confirmed) for the match: it was played out."""
    return match is not None and match.result_kind == ResultKind.PLAYED


def _next_match_for_loss(
    *, player: Player, match: Match, decision: PenaltyDecision, lock: bool = False
) -> tuple[Match, N_]:
    """The team's next match for a loss issued after ``match`` is over [IPG 1.1], and a note saying
    so: its first later match that is not over, byes skipped. 409 when it is not paired yet."""
    number = Round.objects.filter(pk=match.round_id).values_list("number", flat=True).get()
    later = (
        Match.objects.filter(round__tournament_id=player.tournament_id, round__number__gt=number)
        .filter(team_b__isnull=False)
        .filter(Q(team_a_id=player.team_id) | Q(team_b_id=player.team_id))
        .exclude(result_kind=ResultKind.PLAYED)
        .order_by("round__number")
    )
    if lock:
        later = later.select_for_update(of=("self",))
    target = later.first()
    label = decision.penalty.label
    if target is None:
        raise ConflictError(
            _(
                "The round %(round)s match is over (its result has been reported), so this %(penalty)s "
                "applies to %(team)s's next match [IPG 1.1], which is not paired yet. Issue it once "
                "round %(next)s is paired (for round %(round)s or %(next)s: either lands on that match); "
                "if the team has no further match, the head judge may deviate, with a reason."
            )
            % {"round": number, "penalty": label, "team": player.team.name, "next": number + 1},
            errors=[
                {"field": "round", "message": _("the match is over and the team's next match is not paired")}
            ],
        )
    next_number = Round.objects.filter(pk=target.round_id).values_list("number", flat=True).get()
    where = (
        N_("round %(round)s, table %(table)s", round=next_number, table=target.table)
        if target.table
        else N_("round %(round)s", round=next_number)
    )
    note = N_(
        "The round %(round)s match is over (result reported), so this %(penalty)s applies to the "
        "team's next match: %(where)s [IPG 1.1]. The round %(round)s result stands.",
        round=number,
        penalty=label,
        where=where,
    )
    return target, note


def _check_belongs(*, tournament: Tournament, player: Player, round_row: Round) -> None:
    errors = []
    if player.tournament_id != tournament.pk:
        errors.append({"field": "player", "message": _("not a player of this event")})
    if round_row.tournament_id != tournament.pk:
        errors.append({"field": "round", "message": _("not a round of this event")})
    if errors:
        raise DomainError("; ".join(f"{e['field']}: {e['message']}" for e in errors), errors=errors)


def _match_of(*, player: Player, round_row: Round, lock: bool = False) -> Match | None:
    """The team's match (or bye) in ``round``; locked for the rest of the transaction if asked."""
    queryset = Match.objects.filter(round=round_row).filter(
        Q(team_a_id=player.team_id) | Q(team_b_id=player.team_id)
    )
    if lock:
        queryset = queryset.select_for_update()
    return queryset.first()


def _propose(
    *,
    tournament: Tournament,
    player: Player,
    match: Match | None,
    infraction: str,
    context: Mapping[str, Any] | None,
    day: int | None,
) -> PenaltyDecision:
    return propose_penalty(
        infraction_code=infraction,
        rel=Rel(tournament.rel),
        policy=PenaltyPolicy(tournament.penalty_policy),
        day=_day(tournament=tournament, day=day),
        history=selectors.prior_penalties(player_id=player.pk),
        context=_context(context=context, player=player, match=match),
    )


def _day(*, tournament: Tournament, day: int | None) -> int:
    return day if day is not None else selectors.latest_day(tournament_id=tournament.pk)


def _context(*, context: Mapping[str, Any] | None, player: Player, match: Match | None) -> PenaltyContext:
    """The core's context: the judge's circumstances plus what the match already knows.

    "Already in extra turns" is true once time has been called at the table, whatever the judge
    sent; the other three players come from the seats (teammate first, then the opponents).
    """
    context = dict(context or {})
    unknown = sorted(set(context) - set(CONTEXT_FLAGS) - set(CONTEXT_VALUES))
    if unknown:
        raise PenaltyRuleError(
            _("Unknown circumstance(s): %(names)s") % {"names": ", ".join(unknown)},
            errors=[{"field": f"context.{name}", "message": _("unknown circumstance")} for name in unknown],
        )
    values: dict[str, Any] = {name: bool(context.get(name, False)) for name in CONTEXT_FLAGS}
    if match is not None and match.time_called_at is not None:
        values["in_extra_turns"] = True
    minutes_late = context.get("minutes_late")
    values["minutes_late"] = float(minutes_late) if minutes_late is not None else None
    upgrade = context.get("deck_problem_upgrade") or None
    if upgrade is not None:
        try:
            upgrade = DeckProblemUpgrade(upgrade)
        except ValueError:
            raise PenaltyRuleError(
                _("Unknown deck problem upgrade %(value)s") % {"value": repr(upgrade)},
                errors=[{"field": "context.deck_problem_upgrade", "message": _("unknown value")}],
            ) from None
    values["deck_problem_upgrade"] = upgrade
    values["other_player_ids"] = tuple(str(pk) for pk in _other_players(player=player, match=match))
    return PenaltyContext(**values)


def _other_players(*, player: Player, match: Match | None) -> list[int]:
    """The other players in the 2HG game: teammates, then opponents, each in seat order."""
    if match is None or match.is_bye:
        return []
    opponent_id = match.team_b_id if match.team_a_id == player.team_id else match.team_a_id
    seats = match.seats or {}
    players = Player.objects.filter(team_id__in=[player.team_id, opponent_id]).exclude(pk=player.pk)
    seated = seat_order(
        players.only("pk", "team_id", "position"),
        [*seats.get("A", []), *seats.get("B", [])],
        member_id=lambda p: p.pk,
        position=lambda p: p.position,
    )
    return [p.pk for p in sorted(seated, key=lambda p: p.team_id != player.team_id)]


def _stored_context(context: Mapping[str, Any] | None) -> dict[str, Any]:
    """The circumstances as the judge stated them (only those set), for the record."""
    return {name: value for name, value in (context or {}).items() if value not in (None, False, "")}


def _penalty_kind(value: str) -> PenaltyKind:
    try:
        return PenaltyKind(value)
    except ValueError:
        raise PenaltyRuleError(
            _("Unknown penalty %(value)s; use one of %(kinds)s")
            % {"value": repr(value), "kinds": ", ".join(kind.value for kind in PenaltyKind)},
            errors=[{"field": "penalty", "message": _("unknown penalty %(value)s") % {"value": repr(value)}}],
        ) from None


def _simultaneous_root(earlier: Penalty | None, match: Match | None) -> Penalty | None:
    """The first penalty of the ruling ``earlier`` belongs to, so one ruling has one moment."""
    if earlier is None:
        return None
    if match is None or earlier.match_id != match.pk or earlier.overturned:
        raise DomainError(
            _("A simultaneous penalty must be an earlier, standing penalty at the same match"),
            errors=[{"field": "simultaneous_with", "message": _("not a standing penalty at this match")}],
        )
    return earlier.simultaneous_with or earlier


def match_penalty_outcome(match: Match | None) -> MatchPenaltyOutcome | None:
    if match is None or match.is_bye:
        return None
    assert match.team_b_id is not None, "a bye is not a match"
    return match_outcome_from_penalties(
        team_ids=(match.team_a_id, match.team_b_id), penalties=selectors.match_penalties(match_id=match.pk)
    )


def apply_match_outcome(
    *, match: Match | None, before: MatchPenaltyOutcome | None, actor, reason: str
) -> None:
    """Write the match result if the team the penalties decide against has changed.

    Nobody decided against any more (an overturn, or simultaneous Game Losses on both teams): the
    result reported before the penalties comes back. A team decided against: the match is lost by
    it. Match Losses to both teams in one ruling: a double loss.
    """
    if match is None:
        return
    after = match_penalty_outcome(match)
    if after is None or before is None or outcome_decision(after) == outcome_decision(before):
        return
    write_outcome(match=match, outcome=after, actor=actor, reason=reason)


def outcome_decision(outcome: MatchPenaltyOutcome) -> tuple[int | str | None, bool]:
    return outcome.losing_team_id, outcome.double_loss


def write_outcome(*, match: Match, outcome: MatchPenaltyOutcome, actor, reason: str) -> None:
    if not outcome.decided:
        match_penalty_result_clear(match=match, actor=actor, reason=reason)
    else:
        match_penalty_result_set(
            match=match,
            actor=actor,
            losing_team_id=None if outcome.losing_team_id is None else int(outcome.losing_team_id),
            reason=reason,
        )


def penalty_audit_view(penalty: Penalty) -> dict[str, Any]:
    """What an audit entry keeps of a penalty; ``review`` only when the head judge's review applies."""
    return {
        **({"review": penalty.review} if penalty.review else {}),
        "player": penalty.player_id,
        "team": penalty.team_id,
        "match": penalty.match_id,
        "infraction": penalty.infraction,
        "proposed_penalty": penalty.proposed_penalty,
        "penalty": penalty.penalty,
        "deviated": penalty.deviated,
        "match_point_adjustment": penalty.match_point_adjustment,
        "extra_turns": penalty.extra_turns,
    }
