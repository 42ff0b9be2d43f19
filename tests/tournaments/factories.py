"""Events built through the services, as the app builds them; tests then read exact numbers."""

from __future__ import annotations

from rest_framework.test import APIClient

from tests.factories import UserFactory
from tournaments.enums import StaffRole
from tournaments.models import Team, Tournament
from tournaments.registration.planner import PlayerEntry
from tournaments.registration.player import invitation_accept
from tournaments.registration.register import team_register
from tournaments.services.events import staff_add, tournament_create


def event_with_teams(count: int, *, organizer=None, name: str = "Friday 2HG", **settings) -> Tournament:
    """A 2HG event with ``count`` teams named "Team 01", "Team 02", ... (players without accounts)."""
    organizer = organizer or UserFactory()
    tournament = tournament_create(actor=organizer, name=name, **settings)
    for number in range(1, count + 1):
        register_team(tournament, f"Team {number:02d}", actor=organizer)
    return tournament


def register_team(
    tournament: Tournament, name: str, *, actor, usernames: tuple[str | None, ...] = ()
) -> Team:
    slug = name.lower().replace(" ", "-")
    players = [
        PlayerEntry(
            name=f"{name} player {index + 1}",
            wizards_id=f"{slug}-{index + 1}@{tournament.pk}.example.org",
            username=usernames[index] if index < len(usernames) else None,
        )
        for index in range(tournament.team_size)
    ]
    team = team_register(tournament=tournament, actor=actor, name=name, players=players)
    # Staff name the accounts; each is linked once its player accepts (docs/decisions.md "Team formation").
    for invitation in team.invitations.filter(player__isnull=False).select_related("invitee"):
        invitation_accept(code=team.join_code, actor=invitation.invitee)
    return team


def add_staff(tournament: Tournament, role: str):
    user = UserFactory()
    staff_add(tournament=tournament, actor=tournament.created_by, username=user.username, role=role)
    return user


def client_for(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user=user)
    return client


STAFF_ROLES = (StaffRole.HEAD_JUDGE, StaffRole.JUDGE, StaffRole.SCOREKEEPER)
