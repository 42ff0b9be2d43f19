"""Whether a registered team plays the next round: check-in before round 1, a drop and its undo,
disqualification and its reinstatement on appeal.

Kept apart from ``tournaments.registration`` (who is on a team: registration and corrections) as these
writes change who is paired, not who the team is: ``services.rounds`` settles the teams not checked
in when it pairs round 1, ``penalties`` disqualifies and reinstates, the API, the manage page and
the players' pages call the rest.
"""

from __future__ import annotations

from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from common.errors import ConflictError, DomainError
from common.i18n import localize
from tournaments.domain.check_in import team_id_from_code
from tournaments.domain.team_forming import TeamStatus
from tournaments.enums import RoundKind
from tournaments.models import Disqualification, Match, Round, Team, Tournament
from tournaments.registration.checks import require_registration_open
from tournaments.registration.completion import record_missed_rounds
from tournaments.rules import can_run_event
from tournaments.services.audit import audit_log
from tournaments.services.locks import lock_tournament
from tournaments.services.results import match_penalty_result_set


def _latest_round_number(tournament: Tournament) -> int:
    return Round.objects.filter(tournament=tournament).newest_number()


@transaction.atomic
def team_drop(*, team: Team, actor, reason: str) -> Team:
    """Drop the team (a member's drop drops the team, MTR 8.2).

    A drop after pairings were made takes effect from the next round: the team stays paired in
    the latest round (``dropped_after_round`` = its number). Before round 1 it is 0, and the team
    is left out of the final standings (MTR 2.10).

    The event is locked before the team (``services.locks``): a drop and the pairing of the next
    round serialise, so the drop is either seen by the pairing or applies from the round after it.
    """
    lock_tournament(team.tournament_id)
    team = Team.objects.select_for_update().get(pk=team.pk)
    if team.dropped_after_round is not None:
        raise ConflictError(
            _("%(name)s already dropped after round %(dropped_after_round)s")
            % {"name": team.name, "dropped_after_round": team.dropped_after_round}
        )
    team.dropped_after_round = _latest_round_number(team.tournament)
    team.drop_reason = reason.strip()[:300]
    team.save(update_fields=["dropped_after_round", "drop_reason"])
    audit_log(
        tournament=team.tournament,
        actor=actor,
        action="team_drop",
        obj=team,
        before={"dropped_after_round": None},
        after={"dropped_after_round": team.dropped_after_round},
        reason=reason,
    )
    return team


def drop_undoable(team: Team, latest_round_number: int) -> bool:
    """A drop can be taken back until the next round is paired without the team (and never a
    disqualification, which only an appeal undoes)."""
    return (
        not team.disqualified
        and team.dropped_after_round is not None
        and team.dropped_after_round == latest_round_number
    )


@transaction.atomic
def team_drop_undo(*, team: Team, actor, reason: str = "") -> Team:
    """Take back a drop made by mistake, before the next round is paired: the team is paired again
    from the next round on, as if it had never dropped."""
    team = Team.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=team.pk)
    if not drop_undoable(team, _latest_round_number(team.tournament)):
        raise ConflictError(
            _("%(name)s's drop can no longer be undone: a round was paired without the team")
            % {"name": team.name}
            if team.dropped_after_round is not None and not team.disqualified
            else _("%(name)s has no drop to undo") % {"name": team.name}
        )
    before = {"dropped_after_round": team.dropped_after_round, "drop_reason": team.drop_reason}
    team.dropped_after_round = None
    team.drop_reason = ""
    team.save(update_fields=["dropped_after_round", "drop_reason"])
    audit_log(
        tournament=team.tournament,
        actor=actor,
        action="team_drop_undo",
        obj=team,
        before=before,
        after={"dropped_after_round": None},
        reason=reason.strip(),
    )
    return team


@transaction.atomic
def team_disqualify(*, team: Team, actor, reason: str) -> Team:
    """Disqualify the whole team (MTR 8.2, IPG 1.1): its unfinished current match is lost by
    penalty, it is dropped, and it leaves the standings (its matches still count for opponents)."""
    if not reason.strip():
        raise DomainError(_("a reason is required"), errors=[{"field": "reason", "message": _("required")}])
    lock_tournament(team.tournament_id)
    team = Team.objects.select_related("tournament").get(pk=team.pk)
    if team.disqualified:
        raise ConflictError(_("%(name)s is already disqualified") % {"name": team.name})
    before = {"dropped_after_round": team.dropped_after_round, "disqualified": False}
    latest = _latest_round_number(team.tournament)
    current = (
        Match.objects.filter(round__tournament=team.tournament, round__number=latest, team_b__isnull=False)
        .filter(models.Q(team_a=team) | models.Q(team_b=team))
        .filter(confirmed=False)
        .first()
    )
    if current is not None:
        match_penalty_result_set(
            match=current, actor=actor, losing_team_id=team.pk, reason=f"Disqualification: {reason}"
        )
    team = Team.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=team.pk)
    Disqualification.objects.create(
        team=team, dropped_after_round_before=team.dropped_after_round, drop_reason_before=team.drop_reason
    )
    if team.dropped_after_round is None:
        team.dropped_after_round = latest
    team.disqualified = True
    team.drop_reason = reason.strip()[:300]
    team.save(update_fields=["dropped_after_round", "disqualified", "drop_reason"])
    audit_log(
        tournament=team.tournament,
        actor=actor,
        action="team_disqualify",
        obj=team,
        before=before,
        after={"dropped_after_round": team.dropped_after_round, "disqualified": True},
        reason=reason,
    )
    return team


def state_before_disqualification(team: Team) -> tuple[int | None, str]:
    """The drop a disqualified team had before its DQ, as (round, reason); (``None``, "") if it
    was still playing: what reinstating it gives back. One query."""
    record = Disqualification.objects.filter(team=team).first()
    if record is None:
        return None, ""
    return record.dropped_after_round_before, record.drop_reason_before


@transaction.atomic
def team_reinstate(*, team: Team, actor, reason: str) -> Team:
    """Undo a disqualification overturned on appeal: the team is back in the standings (at the
    place its results give it) and in the next pairings, with the drop it had before, if any.

    The drop before the DQ (round and reason) comes from the team's ``Disqualification`` record
    (``state_before_disqualification``), which is then removed. Callers decide that reinstating
    is safe (no round was paired without the team since the DQ) and restore the match result the
    DQ imposed: they know which penalties still stand.
    """
    reason = reason.strip()
    if not reason:
        raise DomainError(_("a reason is required"), errors=[{"field": "reason", "message": _("required")}])
    lock_tournament(team.tournament_id)
    team = Team.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=team.pk)
    if not team.disqualified:
        raise ConflictError(_("%(name)s is not disqualified") % {"name": team.name})
    before = {"dropped_after_round": team.dropped_after_round, "disqualified": True}
    team.dropped_after_round, team.drop_reason = state_before_disqualification(team)
    team.disqualified = False
    team.save(update_fields=["dropped_after_round", "disqualified", "drop_reason"])
    Disqualification.objects.filter(team=team).delete()
    audit_log(
        tournament=team.tournament,
        actor=actor,
        action="team_reinstate",
        obj=team,
        before=before,
        after={"dropped_after_round": team.dropped_after_round, "disqualified": False},
        reason=reason,
    )
    return team


@transaction.atomic
def team_check_in(*, team: Team, actor, checked_in: bool = True) -> Team:
    """A player of the team (on their phone) or staff record that the team is here; staff may
    take a check-in back. Checking in twice keeps the first time."""
    lock_tournament(team.tournament_id)
    team = Team.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=team.pk)
    if team.status != TeamStatus.ACTIVE:
        raise ConflictError(
            _("%(name)s has an open seat: a team checks in once every player has joined")
            % {"name": team.name},
            errors=[{"field": "team", "message": _("forming")}],
        )
    if not checked_in and not can_run_event(actor, team.tournament):
        raise DomainError(_("only the event's staff take a check-in back"), status_code=403)
    if (team.checked_in_at is not None) == checked_in:
        return team
    before = {"checked_in_at": team.checked_in_at.isoformat() if team.checked_in_at else None}
    team.checked_in_at = timezone.now() if checked_in else None
    team.save(update_fields=["checked_in_at"])
    audit_log(
        tournament=team.tournament,
        actor=actor,
        action="team_check_in" if checked_in else "team_check_in_undo",
        obj=team,
        before=before,
        after={"checked_in_at": team.checked_in_at.isoformat() if team.checked_in_at else None},
    )
    return team


def teams_not_checked_in(tournament: Tournament) -> list[Team]:
    """Active teams that have not checked in, for an event that requires check-in."""
    if not tournament.check_in_required:
        return []
    return list(
        Team.objects.filter(
            tournament=tournament,
            dropped_after_round__isnull=True,
            disqualified=False,
            checked_in_at__isnull=True,
        )
        .formed()
        .order_by("name")
    )


#: The drop reason of a team that did not check in: stored in English, shown translated (the
#: manage page and the public search translate a stored reason that is a catalogue entry).
NOT_CHECKED_IN = gettext_noop("did not check in before round 1")

#: What to do with teams that did not check in, when round 1 of an event requiring it is paired.
UNCHECKED_CHOICES = ("drop", "pair")


def settle_check_in(tournament: Tournament, actor, unchecked: str | None) -> None:
    """Round 1 of an event that requires check-in: teams not checked in are dropped or paired as
    the organizer says; without an answer, a 409 lists them (nothing silent)."""
    missing = teams_not_checked_in(tournament)
    if not missing or unchecked == "pair":
        return
    if unchecked == "drop":
        for team in missing:
            team_drop(team=team, actor=actor, reason=NOT_CHECKED_IN)
        return
    names = ", ".join(team.name for team in missing)
    raise ConflictError(
        ngettext(
            '%(count)s team has not checked in: %(names)s. Pair again with "unchecked": "drop" to drop '
            'it or "pair" to pair it anyway.',
            '%(count)s teams have not checked in: %(names)s. Pair again with "unchecked": "drop" to drop '
            'them or "pair" to pair them anyway.',
            len(missing),
        )
        % {"count": len(missing), "names": names},
        errors=[
            {
                "field": "unchecked",
                "message": _("not checked in: %(names)s; choose drop or pair") % {"names": names},
            }
        ],
        extra={"unchecked_teams": [{"id": team.pk, "name": team.name} for team in missing]},
    )


def team_check_in_by_code(*, tournament: Tournament, actor, code: str) -> Team:
    """The desk's check-in: the code the team shows (typed, or scanned from its QR code) names the
    team; a mistyped code is refused, never another team checked in."""
    team_id, problem = team_id_from_code(code)
    team = Team.objects.filter(pk=team_id, tournament=tournament).first() if team_id is not None else None
    if team is None:
        message = (
            localize(problem)
            if problem is not None
            else _("no team of this event has the check-in code %(code)s") % {"code": code.strip()[:20]}
        )
        raise DomainError(message, errors=[{"field": "code", "message": message}])
    return team_check_in(team=team, actor=actor)


@transaction.atomic
def teams_check_in(*, tournament: Tournament, actor, team_ids: list[int]) -> list[Team]:
    """ "Check in all present": the ticked teams in one transaction (all or none)."""
    teams = list(Team.objects.filter(tournament=tournament, pk__in=team_ids).order_by("name"))
    if len(teams) != len(set(team_ids)):
        raise DomainError(
            _("a ticked team is not in this event"),
            errors=[{"field": "team", "message": _("not in this event")}],
        )
    return [team_check_in(team=team, actor=actor) for team in teams]


@transaction.atomic
def team_reinstate_late_entry(*, team: Team, actor, reason: str) -> Team:
    """Bring back a team dropped before round 1 (it did not check in in time, or dropped, then
    turned up): it enters late, paired from the next round, and the rounds already paired are
    recorded as a late entry's missed rounds (a loss, or a bye if the event says so:
    ``late_entry_missed_rounds``). Before round 1 is paired the drop is simply undone instead."""
    reason = reason.strip()
    if not reason:
        raise DomainError(_("a reason is required"), errors=[{"field": "reason", "message": _("required")}])
    tournament = lock_tournament(team.tournament_id)
    team = Team.objects.select_for_update(of=("self",)).get(pk=team.pk)
    if team.disqualified or team.dropped_after_round != 0:
        raise ConflictError(
            _("%(name)s was not dropped before round 1: only such a team comes back as a late entry")
            % {"name": team.name}
        )
    missed = list(Round.objects.filter(tournament=tournament, kind=RoundKind.SWISS).order_by("number"))
    if not missed:
        raise ConflictError(_("no round is paired yet: undo %(name)s's drop instead") % {"name": team.name})
    require_registration_open(tournament)
    before = {"dropped_after_round": 0, "drop_reason": team.drop_reason, "registered_after_round": 0}
    team.dropped_after_round = None
    team.drop_reason = ""
    team.registered_after_round = len(missed)
    team.checked_in_at = team.checked_in_at or timezone.now()
    team.save(update_fields=["dropped_after_round", "drop_reason", "registered_after_round", "checked_in_at"])
    record_missed_rounds(tournament, team, missed)
    audit_log(
        tournament=tournament,
        actor=actor,
        action="team_reinstate_late_entry",
        obj=team,
        before=before,
        after={"dropped_after_round": None, "registered_after_round": len(missed)},
        reason=reason,
    )
    return team
