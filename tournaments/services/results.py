"""Reporting match results, and the results a penalty imposes.

Every entry is kept as a ``ResultReport`` row; the match's result is what
``tournaments.domain.result_state`` derives from them, and the result columns of ``Match`` are a
cache written only here. Reports use optimistic concurrency: the client sends the ``version`` it
read; under the match's row lock a different version answers 409 carrying the match as it is now,
to show and retry.

Who confirms: a staff report (organizer, head judge, scorekeeper) is confirmed at once. A player
may report only their own team's match; that report waits until a signed-in player of the other
team reports the same result (confirmed) or a scorekeeper confirms it. A different report from the
other team keeps the match unconfirmed and flags it as disputed. A report through a result slip
stands for one team and never confirms (docs/decisions.md "Result slips, players' phones and
staff").
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import ConflictError, DomainError
from common.i18n import localize
from tournaments.domain import games_to_win
from tournaments.domain.result_state import Entry, EntrySource, ResultRefused, apply
from tournaments.enums import RoundKind, TeamSide, TournamentStatus
from tournaments.models import Match, ResultReport, Round, Tournament
from tournaments.permissions import player_team_id
from tournaments.rules import can_change_confirmed_result, can_enter_end_of_round_result
from tournaments.selectors import match_result_state, match_snapshot, result_columns
from tournaments.services.audit import audit_log
from tournaments.services.locks import lock_tournament
from tournaments.signals import event_finished, match_disputed, match_settled, round_finished

#: The result columns of ``Match``: a cache written only here, from the state the reports give.
RESULT_COLUMNS = (
    "result_kind",
    "team_a_wins",
    "team_b_wins",
    "draws",
    "confirmed",
    "disputed",
    "reported_side",
    "reported_by",
    "reported_at",
)
#: A single 2HG game: an intentional draw is reported 0-0-3 (MTR 2.5), so up to 3 drawn games.
MAX_DRAWS = 3


def result_problems(
    tournament: Tournament,
    *,
    playoff: bool,
    team_a_wins: int,
    team_b_wins: int,
    draws: int,
    team_names: tuple[str, str] = ("A", "B"),
) -> list[dict]:
    """Why a game record is impossible for this event, field by field (empty if it is legal); a
    playoff draw names no field. Each message reads alone, naming the team by ``team_names``, so a
    refusal needs no field name.

    Team events play one game (MTR 9.1): 1-0-x, 0-1-x or 0-0-x with at least one drawn game
    (0-0-1 a time draw, 0-0-3 an intentional draw). Best of N: neither side beyond the games
    needed, not both at it. Playoff matches need a winner (MTR 2.4).
    """
    needed = games_to_win(tournament.games_per_match)
    problems = []
    for field, wins, team in (
        ("team_a_wins", team_a_wins, team_names[0]),
        ("team_b_wins", team_b_wins, team_names[1]),
    ):
        if wins < 0 or wins > needed:
            problems.append(
                {
                    "field": field,
                    "message": _("games won by %(team)s must be 0 to %(needed)s in this event, got %(wins)s")
                    % {"team": team, "needed": needed, "wins": wins},
                }
            )
    if not 0 <= draws <= MAX_DRAWS:
        problems.append(
            {
                "field": "draws",
                "message": _("drawn games must be 0 to %(MAX_DRAWS)s, got %(draws)s")
                % {"MAX_DRAWS": MAX_DRAWS, "draws": draws},
            }
        )
    if problems:
        return problems
    if team_a_wins == needed and team_b_wins == needed:
        problems.append(
            {
                "field": "team_b_wins",
                "message": _("both teams cannot win %(needed)s games") % {"needed": needed},
            }
        )
    elif team_a_wins + team_b_wins + draws == 0:
        problems.append({"field": "draws", "message": _("no game recorded; a time draw is 0-0-1")})
    elif playoff and team_a_wins == team_b_wins:
        # The record as a whole, not one of its numbers, is at fault: no field is named.
        problems.append({"message": _("a playoff match cannot end in a draw: play on until one team wins")})
    return problems


def _mark_round_progress(match: Match) -> None:
    """Close the round once every match is confirmed; a confirmed final finishes the event."""
    round_obj = match.round
    if Match.objects.filter(round=round_obj, confirmed=False).exists():
        return
    if round_obj.finished_at is None:
        round_obj.finished_at = timezone.now()
        round_obj.save(update_fields=["finished_at"])
        round_finished.send(sender=Round, round_id=round_obj.pk)
    if round_obj.kind == RoundKind.PLAYOFF and Match.objects.filter(round=round_obj).count() == 1:
        Tournament.objects.filter(pk=round_obj.tournament_id).update(status=TournamentStatus.FINISHED)
        event_finished.send(sender=Round, round_id=round_obj.pk)


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
    match = _locked(match)
    _check_version(match, version)
    _check_record(match, team_a_wins, team_b_wins, draws)
    if can_change_confirmed_result(actor, match):
        source, side = EntrySource.STAFF, None
    else:
        team_id = player_team_id(actor, match.round.tournament)
        if team_id not in (match.team_a_id, match.team_b_id):
            raise DomainError(
                _("only the players of this match or scorekeeping staff may report it"), status_code=403
            )
        _check_player_reporting(match)
        source, side = EntrySource.PLAYER, TeamSide.A if team_id == match.team_a_id else TeamSide.B
    entry = Entry(source, side, team_a_wins, team_b_wins, draws, reason.strip(), actor.pk, timezone.now())
    return _record(match, entry, actor)


@transaction.atomic
def match_result_end_of_round(
    *, match: Match, actor, team_a_wins: int, team_b_wins: int, draws: int, version: int
) -> Match:
    """A result entered from the end-of-round console by whoever finishes the table there: scorekeeping
    staff or a judge of the event (``can_enter_end_of_round_result``, 403 otherwise). It counts as a
    staff entry, confirmed at once, and is audited with the actor (``match_result_end_of_round``).
    There is no reason field: a confirmed result it would change is refused (400), as is a draw in
    a playoff (``result_problems``)."""
    if not can_enter_end_of_round_result(actor, match.round.tournament_id):
        raise DomainError(
            _("only the event's judges and scorekeeping staff enter results here"), status_code=403
        )
    match = _locked(match)
    _check_version(match, version)
    _check_record(match, team_a_wins, team_b_wins, draws)
    entry = Entry(EntrySource.STAFF, None, team_a_wins, team_b_wins, draws, "", actor.pk, timezone.now())
    return _record(match, entry, actor, audit="match_result_end_of_round")


@transaction.atomic
def match_slip_report(
    *, match: Match, side: TeamSide, team_a_wins: int, team_b_wins: int, draws: int, version: int, actor=None
) -> Match:
    """A report for ``side`` by whoever holds the table's result slip (its QR code's secret was
    checked by the caller). The slip proves possession, not identity: the report stands for one
    team and never confirms (``result_state``); a signed-in player of ``side``'s team reports as
    that player, so their report confirms like one from their own page."""
    match = _locked(match)
    _check_version(match, version)
    _check_record(match, team_a_wins, team_b_wins, draws)
    _check_player_reporting(match)
    author = actor.pk if getattr(actor, "is_authenticated", False) else None
    side_team_id = match.team_a_id if side == TeamSide.A else match.team_b_id
    own_team = author is not None and player_team_id(actor, match.round.tournament) == side_team_id
    source = EntrySource.PLAYER if own_team else EntrySource.SLIP
    entry = Entry(source, side, team_a_wins, team_b_wins, draws, "", author, timezone.now())
    return _record(match, entry, actor if author else None)


def _check_player_reporting(match: Match) -> None:
    if not match.round.tournament.player_reporting:
        raise DomainError(
            _("players do not report results in this event: hand the result slip to a scorekeeper"),
            status_code=403,
        )


def _locked(match: Match) -> Match:
    """The match row, locked for this transaction, so reports on one match are applied one by one.
    The final's result finishes the event, so it locks the event first (``services.locks``)."""
    round_obj = Round.objects.only("kind", "tournament_id").get(pk=match.round_id)
    if round_obj.kind == RoundKind.PLAYOFF and Match.objects.filter(round_id=round_obj.pk).count() == 1:
        lock_tournament(round_obj.tournament_id)
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__tournament", "team_a", "team_b")
        .get(pk=match.pk)
    )


def _check_version(match: Match, version: int) -> None:
    if match.version != version:
        raise ConflictError(
            _("the result changed since you read it (version %(version)s, now %(version2)s)")
            % {"version": version, "version2": match.version},
            errors=[
                {
                    "field": "version",
                    "message": _("stale: the current version is %(version)s") % {"version": match.version},
                }
            ],
            extra={"match": match_snapshot(match)},
        )


def _check_record(match: Match, team_a_wins: int, team_b_wins: int, draws: int) -> None:
    if match.team_b is None:
        raise ConflictError(_("a bye or a missed round has no result to report"))
    problems = result_problems(
        match.round.tournament,
        playoff=match.round.kind == RoundKind.PLAYOFF,
        team_a_wins=team_a_wins,
        team_b_wins=team_b_wins,
        draws=draws,
        team_names=(match.team_a.name, match.team_b.name),
    )
    if problems:
        raise DomainError(
            _("Impossible result: %(problems)s") % {"problems": "; ".join(p["message"] for p in problems)},
            errors=problems,
        )


def _record(match: Match, entry: Entry, actor, audit: str = "") -> Match:
    """Apply ``entry`` to the match's derived state, keep it as a row, and write the result columns
    (the cache) from the new state; audit what the transition calls for, else ``audit`` if given.
    ``match`` is locked."""
    tournament = match.round.tournament
    state = match_result_state(match)
    try:
        transition = apply(state, entry, games_per_match=tournament.games_per_match)
    except ResultRefused as refused:
        if refused.field:
            raise DomainError(
                localize(refused.message), errors=[{"field": refused.field, "message": _("required")}]
            ) from refused
        raise ConflictError(localize(refused.message)) from refused
    before = match_snapshot(match)
    if transition.audit == "match_result_decide":
        before["reports"] = _open_reports(match)
    ResultReport.objects.create(
        match=match,
        source=entry.source,
        side=entry.side or "",
        team_a_wins=entry.a_wins,
        team_b_wins=entry.b_wins,
        draws=entry.draws,
        author_id=entry.author,
        match_version=match.version,
        reason=entry.reason,
        created_at=entry.at or timezone.now(),
    )
    for field, value in result_columns(transition.state).items():
        setattr(match, field, value)
    match.version += 1
    match.save(update_fields=[*RESULT_COLUMNS, "version"])
    if transition.audit or audit:
        audit_log(
            tournament=tournament,
            actor=actor,
            action=transition.audit or audit,
            obj=match,
            before=before,
            after=match_snapshot(match),
            reason=entry.reason,
        )
    if transition.audit == "match_result_disputed":
        match_disputed.send(sender=Match, match_id=match.pk)
    if match.confirmed:
        match_settled.send(sender=Match, match_id=match.pk)
        _mark_round_progress(match)
    elif match.round.finished_at is not None:
        match.round.finished_at = None
        match.round.save(update_fields=["finished_at"])
    return match


def _open_reports(match: Match) -> list[dict]:
    """The teams' reports a staff decision settles (each team's latest), for its audit entry."""
    latest: dict[str, dict] = {}
    for row in ResultReport.objects.filter(match=match).order_by("id"):
        if row.source in (EntrySource.STAFF, EntrySource.PENALTY, EntrySource.PENALTY_CLEARED):
            latest = {}
        elif row.source in (EntrySource.PLAYER, EntrySource.SLIP):
            latest[row.side] = {
                "side": row.side,
                "source": row.source,
                "by": row.author_id,
                "result": f"{row.team_a_wins}-{row.team_b_wins}-{row.draws}",
                "at": row.created_at.isoformat(),
            }
    return [latest[side] for side in sorted(latest)]


def _require_reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise DomainError(_("a reason is required"), errors=[{"field": "reason", "message": _("required")}])
    return reason


@transaction.atomic
def match_penalty_result_set(*, match: Match, actor, losing_team_id: int | None, reason: str) -> Match:
    """Impose a Match Loss on ``losing_team_id`` (``None``: both teams, a double loss).

    The loser gets 0 games and the winner the games needed, as a concession would. The reports
    stay as they were, so clearing the penalty gives back what they say.
    """
    reason = _require_reason(reason)
    match = _locked(match)
    if match.team_b_id is None:
        raise ConflictError(_("a bye or a missed round cannot be lost by penalty"))
    if losing_team_id is not None and losing_team_id not in (match.team_a_id, match.team_b_id):
        raise DomainError(
            _("team %(losing_team_id)s does not play this match") % {"losing_team_id": losing_team_id},
            errors=[{"field": "losing_team_id", "message": _("not a team of this match")}],
        )
    if losing_team_id is None and match.round.kind == RoundKind.PLAYOFF:
        raise DomainError(_("a playoff match needs a winner: a double loss cannot be recorded"))
    side = None if losing_team_id is None else TeamSide.A if losing_team_id == match.team_a_id else TeamSide.B
    entry = Entry(EntrySource.PENALTY, side, reason=reason, author=actor.pk, at=timezone.now())
    return _record(match, entry, actor)


@transaction.atomic
def match_penalty_result_clear(*, match: Match, actor, reason: str) -> Match:
    """Undo a penalty result (an overturned Match Loss): the result is what the reports give
    (pending if there were none)."""
    reason = _require_reason(reason)
    match = _locked(match)
    entry = Entry(EntrySource.PENALTY_CLEARED, reason=reason, author=actor.pk, at=timezone.now())
    return _record(match, entry, actor)
