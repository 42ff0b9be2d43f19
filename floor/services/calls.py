"""Judge calls: raise, claim, escalate, resolve (optionally with a penalty or a time extension).

Each write locks the call row first, so two judges tapping Claim at once serialise and the
second is told who has it (409). A resolution's penalty and extension go through the penalties
and clock services in the same transaction: if either is refused, the call stays as it was.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from clock.services import time_extension_grant
from common.errors import ConflictError, DomainError
from common.i18n import localize
from floor.domain.calls import LIVE_STATUSES, CallRefused, CallState, CallStatus
from floor.domain.calls import check_claim as _check_claim
from floor.domain.calls import check_escalate as _check_escalate
from floor.domain.calls import check_resolve as _check_resolve
from floor.models import JudgeCall
from penalties.services import penalty_issue
from tournaments.enums import TeamSide
from tournaments.models import Match, Player, Tournament
from tournaments.rules import can_call_judge, can_head_judge, is_event_staff
from tournaments.selectors import match_report_status
from tournaments.services.audit import audit_log

REASON_MAX = 200


def _display(user) -> str:
    return (user.get_full_name() or user.get_username()) if user is not None else ""


def _state(call: JudgeCall) -> CallState:
    return CallState(
        status=CallStatus(call.status),
        claimed_by=call.claimed_by_id,
        claimed_by_name=_display(call.claimed_by),
        escalated=call.escalated_at is not None,
        result_confirmed=call.match.confirmed,
    )


def _refusal(exc: CallRefused, call: JudgeCall) -> ConflictError:
    message = localize(exc.message)
    return ConflictError(
        message,
        errors=[{"field": "status", "message": message, "code": exc.code}],
        extra={"code": exc.code, "claimed_by": _display(call.claimed_by) or None},
    )


def _lock(call: JudgeCall) -> JudgeCall:
    """Lock the call row, then read it with its match and holder in a new statement.

    Two steps on purpose: on PostgreSQL a locking read that waited for another judge's claim
    re-checks only the locked row, so a holder joined in the same statement would still be the
    one from before the wait (the 409 would not name the judge who has the call).
    """
    JudgeCall.objects.select_for_update().filter(pk=call.pk).values_list("pk", flat=True).first()
    return JudgeCall.objects.select_related("match__round__tournament", "claimed_by", "tournament").get(
        pk=call.pk
    )


def _snapshot(call: JudgeCall) -> dict[str, Any]:
    return {
        "status": call.status,
        "claimed_by": call.claimed_by_id,
        "escalated": call.escalated_at is not None,
    }


@transaction.atomic
def judge_call_raise(
    *, tournament: Tournament, match: Match, actor, reason: str = "", at: datetime | None = None
) -> JudgeCall:
    """A player of the match (or event staff) calls a judge to the match's table.

    Refused for a bye (no table), for a match whose result is confirmed (the call would be closed
    at once), and, for a player, while their own previous call at this match is still live (409
    with that call's id). The match row is locked so a double tap cannot slip past the check; the
    database constraint backs it up.
    """
    reason = (reason or "").strip()
    if len(reason) > REASON_MAX:
        raise DomainError(
            _("keep the reason to one line (%(REASON_MAX)s characters)") % {"REASON_MAX": REASON_MAX},
            errors=[
                {
                    "field": "reason",
                    "message": _("at most %(REASON_MAX)s characters") % {"REASON_MAX": REASON_MAX},
                }
            ],
        )
    locked = Match.objects.select_for_update(of=("self",)).select_related("round").get(pk=match.pk)
    if locked.round.tournament_id != tournament.pk:
        raise DomainError(
            _("no such match in this event"), errors=[{"field": "match", "message": _("not in event")}]
        )
    if locked.table is None or locked.team_b_id is None:
        raise DomainError(
            _("a bye has no table to send a judge to"), errors=[{"field": "match", "message": _("bye")}]
        )
    if locked.confirmed:
        raise ConflictError(
            _("the result of table %(table)s is confirmed; find a judge at the scorekeeper's desk")
            % {"table": locked.table},
            extra={"code": "result_confirmed"},
        )
    player = None
    if not can_call_judge(actor, tournament, locked):
        raise DomainError(
            _("only the players of this table or event staff may call a judge here"), status_code=403
        )
    if not is_event_staff(actor, tournament):
        player = Player.objects.filter(tournament=tournament, user=actor).first()
        live = JudgeCall.objects.filter(match=locked, player=player, status__in=LIVE_STATUSES).first()
        if live is not None:
            raise ConflictError(
                _("you already called a judge to this table; one is on the way"),
                errors=[{"field": "match", "message": _("call %(pk)s is still open") % {"pk": live.pk}}],
                extra={"code": "already_called", "call": live.pk},
            )
    try:
        with transaction.atomic():
            call = JudgeCall.objects.create(
                tournament=tournament,
                match=locked,
                player=player,
                raised_by=actor,
                reason=reason,
                created_at=at or timezone.now(),
            )
    except IntegrityError as exc:
        raise ConflictError(
            _("you already called a judge to this table"), extra={"code": "already_called"}
        ) from exc
    audit_log(
        tournament=tournament,
        actor=actor,
        action="judge_call.raise",
        obj=call,
        after={"table": locked.table, "round": locked.round.number, "reason": reason},
    )
    return call


def _record(report) -> str:
    """A report's games from team A's side, as the slip prints them: 1-0, 0-1, 0-0-1."""
    games = f"{report.team_a_wins}-{report.team_b_wins}"
    return f"{games}-{report.draws}" if report.draws else games


@transaction.atomic
def dispute_call_raise(*, match_id: int) -> JudgeCall:
    """The teams reported different results: a judge is called to the table, as the players are
    told. One live dispute call per match (a second dispute rewrites its reason); it closes, like
    every call, when the table's result is confirmed (a judge or the scorekeeper settles it). The
    reason is written in the event's language, which the floor's staff share."""
    match = Match.objects.select_related("round__tournament", "team_a", "team_b").get(pk=match_id)
    tournament = match.round.tournament
    status = match_report_status(match, TeamSide.A)
    with translation.override(tournament.language):
        reason = _("dispute: %(team_a)s reported %(a)s, %(team_b)s reported %(b)s") % {
            "team_a": match.team_a.name,
            "a": _record(status.ours) if status.ours else "–",
            "team_b": match.team_b.name,
            "b": _record(status.theirs) if status.theirs else "–",
        }
    reason = reason[:REASON_MAX]
    call = JudgeCall.objects.filter(
        match=match, player=None, raised_by=None, status__in=LIVE_STATUSES
    ).first()
    if call is not None:
        call.reason = reason
        call.resolved_at = None  # open again if a settled result was disputed anew
        call.save(update_fields=["reason", "resolved_at"])
        return call
    call = JudgeCall.objects.create(
        tournament=tournament, match=match, reason=reason, created_at=timezone.now()
    )
    audit_log(
        tournament=tournament,
        actor=None,
        action="judge_call.raise",
        obj=call,
        after={"table": match.table, "round": match.round.number, "reason": reason},
    )
    return call


def dispute_call_settle(*, match_id: int, at: datetime | None = None) -> None:
    """The table's result is confirmed: its live dispute call is closed now (its status stays as
    stored, read as closed while the result stands), so it says when, like a call a judge resolved."""
    JudgeCall.objects.filter(
        match_id=match_id, player=None, raised_by=None, status__in=LIVE_STATUSES, resolved_at__isnull=True
    ).update(resolved_at=at or timezone.now())


@transaction.atomic
def judge_call_claim(*, call: JudgeCall, actor, at: datetime | None = None) -> JudgeCall:
    """The judge takes the call; 409 "claimed by X" if another judge has it (see the domain)."""
    locked = _lock(call)
    try:
        changes = _check_claim(
            _state(locked), judge_id=actor.pk, head_judge=can_head_judge(actor, locked.tournament_id)
        )
    except CallRefused as exc:
        raise _refusal(exc, locked) from exc
    if not changes:
        return locked
    before = _snapshot(locked)
    locked.status = CallStatus.CLAIMED
    locked.claimed_by = actor
    locked.claimed_at = at or timezone.now()
    locked.save(update_fields=["status", "claimed_by", "claimed_at"])
    audit_log(
        tournament=locked.tournament,
        actor=actor,
        action="judge_call.claim",
        obj=locked,
        before=before,
        after=_snapshot(locked),
    )
    return locked


@transaction.atomic
def judge_call_escalate(*, call: JudgeCall, actor, at: datetime | None = None) -> JudgeCall:
    """Send the call to the head judge; the head judge may then take it over from anyone."""
    locked = _lock(call)
    try:
        _check_escalate(
            _state(locked), judge_id=actor.pk, head_judge=can_head_judge(actor, locked.tournament_id)
        )
    except CallRefused as exc:
        raise _refusal(exc, locked) from exc
    before = _snapshot(locked)
    locked.escalated_at = at or timezone.now()
    locked.escalated_by = actor
    locked.save(update_fields=["escalated_at", "escalated_by"])
    audit_log(
        tournament=locked.tournament,
        actor=actor,
        action="judge_call.escalate",
        obj=locked,
        before=before,
        after=_snapshot(locked),
    )
    return locked


@transaction.atomic
def judge_call_resolve(
    *,
    call: JudgeCall,
    actor,
    note: str,
    penalty: dict[str, Any] | None = None,
    extension_minutes: int | None = None,
    at: datetime | None = None,
) -> JudgeCall:
    """Close the call with the judge's note, optionally issuing a penalty and a time extension.

    ``penalty`` is ``{"player": id, "infraction": code, "description"?}`` for a player at the
    table; it is issued for the match's round through ``penalty_issue`` (the rules propose the
    penalty; a deviation goes through the penalties page). ``extension_minutes`` goes to the
    table through the clock's ``time_extension_grant`` with the note as its reason. All or
    nothing: a refused penalty or extension leaves the call open.
    """
    note = (note or "").strip()
    if not note:
        raise DomainError(
            _("say how the call was resolved"), errors=[{"field": "note", "message": _("may not be blank")}]
        )
    locked = _lock(call)
    try:
        _check_resolve(
            _state(locked), judge_id=actor.pk, head_judge=can_head_judge(actor, locked.tournament_id)
        )
    except CallRefused as exc:
        raise _refusal(exc, locked) from exc
    match = locked.match
    tournament = locked.tournament
    before = _snapshot(locked)
    issued = None
    if penalty is not None:
        player = (
            Player.objects.filter(tournament=tournament, pk=penalty.get("player"))
            .select_related("team")
            .first()
        )
        if player is None or player.team_id not in (match.team_a_id, match.team_b_id):
            raise DomainError(
                _("the penalty's player must play at table %(table)s") % {"table": match.table},
                errors=[{"field": "penalty.player", "message": _("not a player at this table")}],
            )
        issued = penalty_issue(
            tournament=tournament,
            actor=actor,
            player=player,
            round_row=match.round,
            infraction=penalty["infraction"],
            description=(penalty.get("description") or "").strip()
            or f"Judge call at table {match.table}: {note}",
        )
    extension = None
    if extension_minutes:
        extension = time_extension_grant(
            match=match, actor=actor, minutes=extension_minutes, reason=f"judge call: {note}"[:300]
        )
    now = at or timezone.now()
    if locked.claimed_by_id is None:
        locked.claimed_by = actor
        locked.claimed_at = now
    locked.status = CallStatus.RESOLVED
    locked.resolved_at = now
    locked.resolved_by = actor
    locked.note = note
    locked.penalty = issued
    locked.extension = extension
    locked.save(
        update_fields=[
            "status",
            "claimed_by",
            "claimed_at",
            "resolved_at",
            "resolved_by",
            "note",
            "penalty",
            "extension",
        ]
    )
    audit_log(
        tournament=tournament,
        actor=actor,
        action="judge_call.resolve",
        obj=locked,
        before=before,
        after={
            **_snapshot(locked),
            "penalty": issued.pk if issued else None,
            "extension_minutes": extension.minutes if extension else 0,
        },
        reason=note,
    )
    return locked
