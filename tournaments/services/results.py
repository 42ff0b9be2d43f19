"""Reporting match results, and the results a penalty imposes.

Reports use optimistic concurrency: the client sends the ``version`` it read, and the write is a
conditional ``UPDATE ... WHERE id = ? AND version = ?``; if another report got there first, nothing
is written and the client gets a 409 carrying the match as it is now, to show and retry.

Who confirms: a staff report (organizer, head judge, scorekeeper) is confirmed at once. A player
may report only their own team's match; that report waits until a player of the other team reports
the same result (confirmed) or a scorekeeper confirms it. A different report from the other team
keeps the match unconfirmed and flags it as disputed.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from common.errors import ConflictError, DomainError
from tournaments.domain import games_to_win
from tournaments.enums import MatchResultKind, RoundKind, RoundStatus, TeamSide, TournamentStatus
from tournaments.models import Match, Round, Tournament
from tournaments.permissions import SCOREKEEPING, has_role, player_team_id
from tournaments.selectors import match_snapshot
from tournaments.services.audit import audit_log
from tournaments.signals import event_finished, round_finished

PENALTY_KINDS = frozenset({MatchResultKind.PENALTY_LOSS, MatchResultKind.DOUBLE_LOSS})
#: A single 2HG game: an intentional draw is reported 0-0-3 (MTR 2.5), so up to 3 drawn games.
MAX_DRAWS = 3


def result_problems(
    tournament: Tournament, *, playoff: bool, team_a_wins: int, team_b_wins: int, draws: int
) -> list[dict]:
    """Why a game record is impossible for this event, field by field (empty if it is legal).

    Team events play one game (MTR 9.1): 1-0-x, 0-1-x or 0-0-x with at least one drawn game
    (0-0-1 a time draw, 0-0-3 an intentional draw). Best of N: neither side beyond the games
    needed, not both at it. Playoff matches need a winner (MTR 2.4).
    """
    needed = games_to_win(tournament.games_per_match)
    problems = []
    for field, wins in (("team_a_wins", team_a_wins), ("team_b_wins", team_b_wins)):
        if wins < 0 or wins > needed:
            problems.append({"field": field, "message": f"must be 0 to {needed} in this event, got {wins}"})
    if not 0 <= draws <= MAX_DRAWS:
        problems.append({"field": "draws", "message": f"must be 0 to {MAX_DRAWS}, got {draws}"})
    if problems:
        return problems
    if team_a_wins == needed and team_b_wins == needed:
        problems.append({"field": "team_b_wins", "message": f"both teams cannot win {needed} games"})
    elif team_a_wins + team_b_wins + draws == 0:
        problems.append({"field": "draws", "message": "no game recorded; a time draw is 0-0-1"})
    elif playoff and team_a_wins == team_b_wins:
        problems.append(
            {
                "field": "team_a_wins",
                "message": "playoff matches cannot end in a draw: play on until one team wins",
            }
        )
    return problems


def _mark_round_progress(match: Match) -> None:
    """Close the round once every match is confirmed; a confirmed final finishes the event."""
    round_obj = match.round
    if Match.objects.filter(round=round_obj, confirmed=False).exists():
        return
    if round_obj.status != RoundStatus.FINISHED:
        round_obj.status = RoundStatus.FINISHED
        round_obj.save(update_fields=["status"])
        round_finished.send(sender=Round, round_id=round_obj.pk)
    if round_obj.kind == RoundKind.PLAYOFF and Match.objects.filter(round=round_obj).count() == 1:
        Tournament.objects.filter(pk=round_obj.tournament_id).update(status=TournamentStatus.FINISHED)
        event_finished.send(sender=Round, round_id=round_obj.pk)


def _write(match: Match, version: int, values: dict) -> Match:
    """The conditional update; a lost race raises 409 with the match as it is now."""
    updated = Match.objects.filter(pk=match.pk, version=version).update(version=F("version") + 1, **values)
    if updated == 0:
        current = Match.objects.select_related("round").get(pk=match.pk)
        raise ConflictError(
            f"the result changed since you read it (version {version}, now {current.version})",
            errors=[{"field": "version", "message": f"stale: the current version is {current.version}"}],
            extra={"match": match_snapshot(current)},
        )
    match.refresh_from_db()
    return match


@transaction.atomic
def match_result_report(
    *, match: Match, actor, team_a_wins: int, team_b_wins: int, draws: int, version: int, reason: str = ""
) -> Match:
    """Record a reported result (see the module docstring for who confirms what).

    Changing a confirmed result is an override: staff must say why (``reason``, 400 without one),
    and the audit entry keeps the result before and after with that reason.

    Raises 409 on a stale ``version``, on a player's report after confirmation, and on a match
    whose result a penalty imposed (clear the penalty first); 400 on an impossible record; 403 if
    the actor is neither scorekeeping staff nor a player of the match.
    """
    match = Match.objects.select_related("round__tournament").get(pk=match.pk)
    tournament = match.round.tournament
    if match.version != version:
        raise ConflictError(
            f"the result changed since you read it (version {version}, now {match.version})",
            errors=[{"field": "version", "message": f"stale: the current version is {match.version}"}],
            extra={"match": match_snapshot(match)},
        )
    if match.team_b_id is None:
        raise ConflictError("a bye or a missed round has no result to report")
    if match.result_kind in PENALTY_KINDS:
        raise ConflictError("a penalty decided this match; a judge must clear the penalty first")
    problems = result_problems(
        tournament,
        playoff=match.round.kind == RoundKind.PLAYOFF,
        team_a_wins=team_a_wins,
        team_b_wins=team_b_wins,
        draws=draws,
    )
    if problems:
        raise DomainError(
            "Impossible result: " + "; ".join(f"{p['field']}: {p['message']}" for p in problems),
            errors=problems,
        )
    before = match_snapshot(match)
    counts = {"team_a_wins": team_a_wins, "team_b_wins": team_b_wins, "draws": draws}
    common = {
        **counts,
        "result_kind": MatchResultKind.PLAYED,
        "reported_by_id": actor.pk,
        "reported_at": timezone.now(),
    }
    if has_role(actor, tournament, SCOREKEEPING):
        changed = any(before[field] != value for field, value in counts.items())
        if before["confirmed"] and changed:
            reason = _require_reason(reason)
        match = _write(match, version, {**common, "confirmed": True, "reported_side": "", "disputed": False})
        if (before["confirmed"] and changed) or before["disputed"]:
            audit_log(
                tournament=tournament,
                actor=actor,
                action="match_result_correct" if before["confirmed"] else "match_result_decide",
                obj=match,
                before=before,
                after=match_snapshot(match),
                reason=reason.strip(),
            )
    else:
        match = _player_report(match, actor, tournament, version, common, counts, before)
    if match.confirmed:
        _mark_round_progress(match)
    return match


def _player_report(
    match: Match, actor, tournament: Tournament, version: int, common: dict, counts: dict, before: dict
) -> Match:
    team_id = player_team_id(actor, tournament)
    if team_id not in (match.team_a_id, match.team_b_id):
        raise DomainError(
            "only the players of this match or scorekeeping staff may report it", status_code=403
        )
    if match.confirmed:
        raise ConflictError("the result is already confirmed; ask a scorekeeper to change it")
    side = TeamSide.A if team_id == match.team_a_id else TeamSide.B
    other_side_reported = match.result_kind == MatchResultKind.PLAYED and match.reported_side not in (
        "",
        side,
    )
    if not other_side_reported:
        return _write(
            match, version, {**common, "confirmed": False, "reported_side": side, "disputed": False}
        )
    same = all(getattr(match, field) == value for field, value in counts.items())
    if same:
        return _write(match, version, {**common, "confirmed": True, "reported_side": side, "disputed": False})
    match = _write(match, version, {**common, "confirmed": False, "reported_side": side, "disputed": True})
    audit_log(
        tournament=tournament,
        actor=actor,
        action="match_result_disputed",
        obj=match,
        before=before,
        after=match_snapshot(match),
    )
    return match


def _require_reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise DomainError("a reason is required", errors=[{"field": "reason", "message": "required"}])
    return reason


@transaction.atomic
def match_penalty_result_set(*, match: Match, actor, losing_team_id: int | None, reason: str) -> Match:
    """Impose a Match Loss on ``losing_team_id`` (``None``: both teams, a double loss).

    The loser gets 0 games and the winner the games needed, as a concession would; the result
    reported before the first penalty is kept so ``match_penalty_result_clear`` can restore it, and
    is the audit entry's ``before``.
    """
    reason = _require_reason(reason)
    match = Match.objects.select_for_update().select_related("round__tournament").get(pk=match.pk)
    tournament = match.round.tournament
    if match.team_b_id is None:
        raise ConflictError("a bye or a missed round cannot be lost by penalty")
    if losing_team_id is not None and losing_team_id not in (match.team_a_id, match.team_b_id):
        raise DomainError(
            f"team {losing_team_id} does not play this match",
            errors=[{"field": "losing_team_id", "message": "not a team of this match"}],
        )
    if losing_team_id is None and match.round.kind == RoundKind.PLAYOFF:
        raise DomainError("a playoff match needs a winner: a double loss cannot be recorded")
    before = match_snapshot(match)
    if match.result_kind not in PENALTY_KINDS:
        match.pre_penalty_result = before
    needed = games_to_win(tournament.games_per_match)
    if losing_team_id is None:
        match.result_kind = MatchResultKind.DOUBLE_LOSS
        match.team_a_wins = match.team_b_wins = 0
    else:
        match.result_kind = MatchResultKind.PENALTY_LOSS
        match.team_a_wins = 0 if losing_team_id == match.team_a_id else needed
        match.team_b_wins = 0 if losing_team_id == match.team_b_id else needed
    match.draws = 0
    match.confirmed = True
    match.disputed = False
    match.reported_side = ""
    match.reported_by = actor
    match.reported_at = timezone.now()
    match.version += 1
    match.save()
    audit_log(
        tournament=tournament,
        actor=actor,
        action="match_penalty_result",
        obj=match,
        before=before,
        after=match_snapshot(match),
        reason=reason,
    )
    _mark_round_progress(match)
    return match


@transaction.atomic
def match_penalty_result_clear(*, match: Match, actor, reason: str) -> Match:
    """Undo a penalty result (an overturned Match Loss): back to the result reported before it,
    or to pending if there was none."""
    reason = _require_reason(reason)
    match = Match.objects.select_for_update().select_related("round__tournament").get(pk=match.pk)
    if match.result_kind not in PENALTY_KINDS:
        raise ConflictError("this match's result was not set by a penalty")
    before = match_snapshot(match)
    previous = match.pre_penalty_result or {}
    match.result_kind = previous.get("result_kind", MatchResultKind.PENDING)
    match.team_a_wins = previous.get("team_a_wins", 0)
    match.team_b_wins = previous.get("team_b_wins", 0)
    match.draws = previous.get("draws", 0)
    match.confirmed = previous.get("confirmed", False)
    match.disputed = previous.get("disputed", False)
    match.reported_side = previous.get("reported_side", "")
    match.reported_by_id = previous.get("reported_by")
    match.pre_penalty_result = None
    match.version += 1
    match.save()
    if not match.confirmed and match.round.status == RoundStatus.FINISHED:
        match.round.status = RoundStatus.PUBLISHED if match.round.published_at else RoundStatus.PAIRED
        match.round.save(update_fields=["status"])
    audit_log(
        tournament=match.round.tournament,
        actor=actor,
        action="match_penalty_result_clear",
        obj=match,
        before=before,
        after=match_snapshot(match),
        reason=reason,
    )
    return match
