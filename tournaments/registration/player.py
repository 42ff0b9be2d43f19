"""The player: registering a team they are on, inviting to it, and joining a team with consent.

A player account joins a team only by accepting (docs/decisions.md "Team formation"): a named
account gets a pending invitation; anyone holding the team's join code (or its invite link) may
take an open seat. Every write that seats a player takes the event lock first
(``services.locks``), so two players accepting the last seat at once are serialised: the first
takes it, the second is told the team is full (409). A team whose last seat is taken after
Swiss rounds were paired is a late entry from that moment (``completion.team_completed``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.usernames import user_by_username
from common.errors import ConflictError, DomainError
from common.i18n import localize
from tournaments.domain.team_forming import InvitationStatus, join_code_problem, normalise_join_code
from tournaments.domain.text import clean_reading, reading_problem
from tournaments.models import Player, PoolEntry, Team, TeamInvitation, Tournament
from tournaments.registration.checks import refuse_too_long, require_registration_open, unused_join_code
from tournaments.registration.completion import team_completed
from tournaments.registration.invitations import invitations_create
from tournaments.registration.planner import PlayerEntry, RosterPlan
from tournaments.registration.roster import team_create
from tournaments.rules import can_run_event
from tournaments.services.audit import audit_log
from tournaments.services.locks import lock_tournament


def player_team_register(
    *,
    tournament: Tournament,
    actor,
    name: str,
    players: list[PlayerEntry],
    awarded_byes: int,
    plan: RosterPlan,
    accounts: Mapping[int, Any],
) -> Team:
    """A player registers a team they are on (``team_register`` planned it): their own entry is the
    team's first player (they are its captain), and every other account they name, by login or by
    the Wizards Account it played under, gets an invitation to accept or decline through the
    team's join code."""
    team = team_create(
        tournament=tournament,
        actor=actor,
        name=name,
        players=players,
        awarded_byes=awarded_byes,
        plan=plan,
        captain=actor,
        join_code=unused_join_code(),
    )
    invitations_create(
        team=team,
        actor=actor,
        invitees=[
            (accounts[account], players[index].name, players[index].wizards_id)
            for index, account in plan.invited.items()
        ],
        named_by_wizards_account=plan.by_wizards_account,
    )
    return team


def _open_seats(team: Team) -> int:
    return team.tournament.team_size - team.players.count()


@transaction.atomic
def invitation_send(
    *, team: Team, actor, username: str, name: str = "", wizards_id: str = ""
) -> TeamInvitation:
    """The captain (or staff) invites one more account to a forming team."""
    tournament = lock_tournament(team.tournament_id)
    team = Team.objects.select_related("tournament").get(pk=team.pk)
    if not (team.captain_id == actor.pk or can_run_event(actor, tournament)):
        raise DomainError(_("only the team's captain invites players"), status_code=403)
    user = user_by_username(username) if username.strip() else None
    if user is None:
        raise DomainError(
            _("no account named %(username)s") % {"username": repr(username)},
            errors=[
                {
                    "field": "username",
                    "message": _("no account named %(username)s") % {"username": repr(username)},
                }
            ],
        )
    if Player.objects.filter(tournament=tournament, user=user).exists():
        raise ConflictError(
            _("%(username)s is already on a team in this event") % {"username": username.strip()},
            errors=[{"field": "username", "message": _("already on a team in this event")}],
        )
    pending = team.invitations.filter(status=InvitationStatus.PENDING)
    if pending.filter(invitee=user).exists():
        raise ConflictError(
            _("%(username)s already has an invitation to %(team)s")
            % {"username": username.strip(), "team": team.name},
            errors=[{"field": "username", "message": _("already invited")}],
        )
    if _open_seats(team) <= pending.count():
        raise ConflictError(
            _("%(team)s has no open seat left to invite to: cancel an invitation first")
            % {"team": team.name},
            errors=[{"field": "username", "message": _("no open seat")}],
        )
    return invitations_create(team=team, actor=actor, invitees=[(user, name or user.username, wizards_id)])[0]


class InvitationNotOpen(DomainError):
    """A join code that leads to no invitation the reader may see: unknown, or a team that is full,
    closed, gone, or not inviting them. One answer for all, so a guessed code tells nothing (not
    even that it exists); the views count it against the join-code limit (``accounts.throttling``).
    """

    def __init__(self) -> None:
        message = _("this invitation is not open: check the code or the link with your teammate")
        super().__init__(message, errors=[{"field": "code", "message": message}], status_code=404)


def team_by_code(code: str) -> Team:
    normalised = normalise_join_code(code)
    problem = join_code_problem(normalised)
    if problem:
        message = localize(problem)
        raise DomainError(message, errors=[{"field": "code", "message": message}], status_code=404)
    team = Team.objects.select_related("tournament").filter(join_code=normalised).first()
    if team is None:
        raise InvitationNotOpen()
    return team


def invitation_open_to(team: Team, user) -> bool:
    """Whether ``user`` may see the team behind its join code: they are on it or invited to it, or
    it has a seat anyone with the code may take (registration open, the team still in the event,
    a seat neither taken nor promised to an invited player)."""
    if team.players.filter(user=user).exists():
        return True
    pending = team.invitations.filter(status=InvitationStatus.PENDING)
    if pending.filter(invitee=user).exists():
        return True
    if team.dropped_after_round is not None or team.disqualified:
        return False

    try:
        require_registration_open(team.tournament)
    except ConflictError:
        return False
    return team.players.count() + pending.count() < team.tournament.team_size


def _player_details(
    user, invitation: TeamInvitation | None, name: str, wizards_id: str, name_reading: str
) -> tuple[str, str, str]:
    """What the new player row says: what they typed, else the invitation's words, else what
    they played under last time, else their login (a Wizards Account may be added later). The
    name's reading is what they typed, else last time's if they play under the same name."""
    last = Player.objects.filter(user=user).order_by("-id").first()
    name = (
        " ".join(name.split())
        or (invitation.name if invitation else "")
        or (last.name if last else "")
        or user.get_full_name()
        or user.username
    )[:100]
    wizards_id = (
        wizards_id.strip().casefold()
        or (invitation.wizards_id if invitation else "")
        or (last.wizards_id if last else "")
    )
    reading = clean_reading(name_reading) or (last.name_reading if last and last.name == name else "")
    return name, wizards_id, reading


@transaction.atomic
def invitation_accept(
    *, code: str, actor, name: str = "", wizards_id: str = "", name_reading: str = ""
) -> Player:
    """Take a seat on the team with this join code: the player's own invitation, or an open seat."""
    problem = reading_problem(name_reading)
    if problem:
        message = localize(problem)
        raise DomainError(message, errors=[{"field": "name_reading", "message": message}])

    refuse_too_long(wizards_id=wizards_id.strip())
    found = team_by_code(code)
    tournament = lock_tournament(found.tournament_id)
    team = Team.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=found.pk)

    claim = (
        team.invitations.filter(invitee=actor, status=InvitationStatus.PENDING, player__isnull=False)
        .select_for_update()
        .first()
    )
    if claim is not None:
        return _link_accepted(claim, actor)
    require_registration_open(tournament)
    if team.dropped_after_round is not None or team.disqualified:
        raise ConflictError(_("this team has left the event"))
    mine = Player.objects.filter(tournament=tournament, user=actor).select_related("team").first()
    if mine is not None:
        message = (
            _("you are already on %(team)s") % {"team": team.name}
            if mine.team_id == team.pk
            else _("you are already on %(team)s in this event: drop or leave it first")
            % {"team": mine.team.name}
        )
        raise ConflictError(message, errors=[{"field": "code", "message": message}])
    invitation = (
        team.invitations.filter(invitee=actor, status=InvitationStatus.PENDING).select_for_update().first()
    )
    seated = team.players.count()
    held_for_others = team.invitations.filter(status=InvitationStatus.PENDING).exclude(invitee=actor).count()
    if seated >= tournament.team_size or (
        invitation is None and seated + held_for_others >= tournament.team_size
    ):
        message = _("the team is full: every seat is taken or promised to an invited player")
        raise ConflictError(message, errors=[{"field": "code", "message": _("the team is full")}])
    name, wizards_id, name_reading = _player_details(actor, invitation, name, wizards_id, name_reading)
    if wizards_id and Player.objects.filter(tournament=tournament, wizards_id=wizards_id).exists():
        raise DomainError(
            _("the Wizards Account %(wizards_id)s is already on a team in this event")
            % {"wizards_id": wizards_id},
            errors=[{"field": "wizards_id", "message": _("already on a team in this event")}],
        )
    try:
        with transaction.atomic():
            player = Player.objects.create(
                tournament=tournament,
                team=team,
                name=name,
                name_reading=name_reading,
                wizards_id=wizards_id,
                user=actor,
                position=seated,
            )
    except IntegrityError:
        raise ConflictError(_("you joined another team at the same moment; reload")) from None
    if invitation is not None:
        invitation.status = InvitationStatus.ACCEPTED
        invitation.answered_at = timezone.now()
        invitation.save(update_fields=["status", "answered_at"])
    PoolEntry.objects.filter(tournament=tournament, user=actor).delete()
    completed = seated + 1 >= tournament.team_size
    late_after = (team_completed(tournament, team) or None) if completed else None
    audit_log(
        tournament=tournament,
        actor=actor,
        action="invitation_accept",
        obj=team,
        after={
            "team": team.name,
            "player": player.name,
            "by": "invitation" if invitation is not None else "join code",
            "team_complete": completed,
            "late_after_round": late_after,
        },
    )
    return player


def _link_accepted(invitation: TeamInvitation, actor) -> Player:
    """The account accepts being linked to the player staff registered: the seat was the team's
    already, so nothing about the team changes but who can act for that player."""
    player = Player.objects.select_for_update().get(account_invitations=invitation)
    mine = Player.objects.filter(tournament=player.tournament_id, user=actor).exclude(pk=player.pk).first()
    if mine is not None:
        message = _("you are already on %(team)s in this event") % {"team": mine.team.name}
        raise ConflictError(message, errors=[{"field": "code", "message": message}])
    before = player.user.username if player.user is not None else None
    player.user = actor
    try:
        with transaction.atomic():
            player.save(update_fields=["user"])
    except IntegrityError:
        raise ConflictError(_("you joined another team at the same moment; reload")) from None
    invitation.status = InvitationStatus.ACCEPTED
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    PoolEntry.objects.filter(tournament=invitation.tournament_id, user=actor).delete()
    audit_log(
        tournament=invitation.team.tournament,
        actor=actor,
        action="player_account_link",
        obj=player,
        before={"player": player.name, "account": before},
        after={"player": player.name, "account": actor.username, "by": "invitation"},
    )
    return player


@transaction.atomic
def invitation_decline(*, code: str, actor) -> TeamInvitation:
    team = team_by_code(code)
    invitation = (
        team.invitations.filter(invitee=actor, status=InvitationStatus.PENDING).select_for_update().first()
    )
    if invitation is None:
        raise InvitationNotOpen()
    invitation.status = InvitationStatus.DECLINED
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    audit_log(
        tournament=team.tournament,
        actor=actor,
        action="invitation_decline",
        obj=team,
        after={"team": team.name, "invitee": actor.username},
    )
    return invitation


@transaction.atomic
def invitation_cancel(*, invitation: TeamInvitation, actor) -> TeamInvitation:
    """The captain (or staff) takes back a pending invitation."""
    invitation = (
        TeamInvitation.objects.select_for_update(of=("self",))
        .select_related("team", "invitee")
        .get(pk=invitation.pk)
    )
    if invitation.status != InvitationStatus.PENDING:
        answered = {
            InvitationStatus.ACCEPTED: _("this invitation is already accepted"),
            InvitationStatus.DECLINED: _("this invitation is already declined"),
            InvitationStatus.CANCELLED: _("this invitation is already cancelled"),
        }
        raise ConflictError(answered[InvitationStatus(invitation.status)])
    invitation.status = InvitationStatus.CANCELLED
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    audit_log(
        tournament=invitation.team.tournament,
        actor=actor,
        action="invitation_cancel",
        obj=invitation.team,
        before={"invitee": invitation.invitee.username, "status": InvitationStatus.PENDING},
        after={"status": InvitationStatus.CANCELLED},
    )
    return invitation
