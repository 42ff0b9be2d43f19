"""The desk: staff register a whole team, correct a registered one, and ask an account to be linked."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import ConflictError
from tournaments.domain.team_forming import InvitationStatus
from tournaments.domain.text import clean_reading
from tournaments.models import Player, Team, TeamInvitation, Tournament
from tournaments.registration.checks import name_refusal, reading_errors, refused, unused_join_code
from tournaments.registration.invitations import invitations_create
from tournaments.registration.planner import PlayerEntry, RosterPlan, normalise_wizards_id
from tournaments.registration.roster import team_create
from tournaments.services.audit import audit_log
from tournaments.services.events import account_by_name
from tournaments.services.locks import lock_tournament


def desk_team_register(
    *,
    tournament: Tournament,
    actor,
    name: str,
    players: list[PlayerEntry],
    awarded_byes: int,
    plan: RosterPlan,
    accounts: Mapping[int, Any],
) -> Team:
    """Staff register a whole team at the desk (``team_register`` planned it): every player takes
    their seat at once, and the team has no captain. An account staff name for a player is asked to
    be linked to that player, linked only when its player accepts (an invitation with ``player``)
    through the team's join code, which only such a team gets."""
    team = team_create(
        tournament=tournament,
        actor=actor,
        name=name,
        players=players,
        awarded_byes=awarded_byes,
        plan=plan,
        captain=None,
        join_code=unused_join_code() if plan.linked else None,
    )
    if plan.linked:
        seats = {player.position: player for player in team.players.all()}
        invitations_create(
            team=team,
            actor=actor,
            invitees=[
                (accounts[account], players[index].name, players[index].wizards_id)
                for index, account in plan.linked.items()
            ],
            players=[seats[plan.seated.index(index)] for index in plan.linked],
        )
    return team


@dataclass(frozen=True)
class PlayerEdit:
    """One player's corrected name, reading and Wizards Account, as ``team_update`` takes them."""

    player_id: int
    name: str
    wizards_id: str
    name_reading: str = ""


def _audit_player(player: Player) -> str:
    reading = f" [{player.name_reading}]" if player.name_reading else ""
    return f"{player.name}{reading} ({player.wizards_id})"


@transaction.atomic
def team_update(
    *, team: Team, actor, name: str, players: list[PlayerEdit], fixed_table: int | None, reason: str = ""
) -> Team:
    """Correct a team's name, its players' names (and readings) and Wizards Accounts, and its fixed table.

    Before round 1 is paired this is registration still going on; after, it changes what was
    printed and played, so a reason is required and the audit log keeps before and after.
    """
    team = Team.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=team.pk)
    tournament = team.tournament
    reason = reason.strip()
    errors: list[dict] = []
    if tournament.rounds.exists() and not reason:
        errors.append({"field": "reason", "message": _("round 1 is paired: say why the team changes")})
    name = " ".join(name.split())
    if (refusal := name_refusal(tournament, name, team_id=team.pk)) is not None:
        errors.append(refusal)
    if fixed_table is not None and fixed_table < 1:
        errors.append({"field": "fixed_table", "message": _("a table number is 1 or more")})
    current = {player.pk: player for player in team.players.all()}
    seen: set[str] = set()
    for index, entry in enumerate(players):
        field = f"players[{index}]"
        if entry.player_id not in current:
            errors.append({"field": field, "message": _("not a player of this team")})
            continue
        if not entry.name.strip():
            errors.append({"field": f"{field}.name", "message": _("the player's name is empty")})
        errors.extend(reading_errors(field, entry.name_reading))
        wizards_id = normalise_wizards_id(entry.wizards_id)
        if not wizards_id:
            errors.append(
                {"field": f"{field}.wizards_id", "message": _("the Wizards Account id or email is empty")}
            )
        elif wizards_id in seen:
            errors.append({"field": f"{field}.wizards_id", "message": _("the same person is listed twice")})
        elif (
            Player.objects.filter(tournament=tournament, wizards_id=wizards_id)
            .exclude(pk=entry.player_id)
            .exists()
        ):
            errors.append(
                {
                    "field": f"{field}.wizards_id",
                    "message": _("%(wizards_id)s is already on a team in this event")
                    % {"wizards_id": entry.wizards_id},
                }
            )
        seen.add(wizards_id)
    if errors:
        raise refused(_("Team not changed: %(problems)s"), errors)
    before = {
        "name": team.name,
        "fixed_table": team.fixed_table,
        "players": [_audit_player(p) for p in current.values()],
    }
    team.name, team.fixed_table = name, fixed_table
    team.save(update_fields=["name", "fixed_table"])
    for entry in players:
        player = current[entry.player_id]
        player.name = " ".join(entry.name.split())
        player.name_reading = clean_reading(entry.name_reading)
        player.wizards_id = normalise_wizards_id(entry.wizards_id)
        player.save(update_fields=["name", "name_reading", "wizards_id"])
    after = {
        "name": team.name,
        "fixed_table": team.fixed_table,
        "players": [_audit_player(p) for p in current.values()],
    }
    audit_log(
        tournament=tournament,
        actor=actor,
        action="team_update",
        obj=team,
        before=before,
        after=after,
        reason=reason,
    )
    return team


@transaction.atomic
def account_link_invite(*, player: Player, actor, username: str) -> TeamInvitation:
    """Staff ask an account to be linked to a registered player (a walk-in who has an account after
    all): the account is linked once its player accepts, never before
    (docs/decisions.md "Team formation"). A pending request for the same player is replaced."""
    user = account_by_name(username)
    tournament = lock_tournament(player.tournament_id)
    player = Player.objects.select_for_update(of=("self",)).select_related("team").get(pk=player.pk)
    other = Player.objects.filter(tournament=tournament, user=user).exclude(pk=player.pk).first()
    if other is not None:
        raise ConflictError(
            _("%(username)s is already linked to %(name)s in this event")
            % {"username": user.username, "name": other.name},
            errors=[{"field": "username", "message": _("already linked to %(name)s") % {"name": other.name}}],
        )
    if player.user_id == user.pk:
        raise ConflictError(
            _("%(name)s is already linked to %(username)s")
            % {"name": player.name, "username": user.username},
            errors=[{"field": "username", "message": _("already linked to this player")}],
        )
    player.account_invitations.filter(status=InvitationStatus.PENDING).update(
        status=InvitationStatus.CANCELLED, answered_at=timezone.now()
    )
    team = Team.objects.select_for_update().get(pk=player.team_id)
    team.invitations.filter(status=InvitationStatus.PENDING, invitee=user).update(
        status=InvitationStatus.CANCELLED, answered_at=timezone.now()
    )
    return invitations_create(
        team=team, actor=actor, invitees=[(user, player.name, player.wizards_id)], players=[player]
    )[0]
