"""Shared fixtures for the decklist tests: the shipped card index, the real decklists, an event."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from decklists.domain import CardIndex, load_card_index
from tests.decklists.realdata import real_decklists
from tests.factories import StaffFactory, TeamFactory, TournamentFactory, UserFactory
from tournaments.enums import StaffRole
from tournaments.models import Player, Team, Tournament


@pytest.fixture(scope="session")
def index() -> CardIndex:
    return load_card_index()


@pytest.fixture(scope="session")
def records() -> list[dict[str, Any]]:
    return real_decklists()


@dataclass
class Event:
    """A Modern 2HG event open for decklists: two teams, one player linked to a user each, staff."""

    tournament: Tournament
    team: Team
    other_team: Team
    a: Player
    b: Player
    other: Player
    player_user: object
    teammate_user: object
    other_user: object
    organizer: object
    judge: object
    scorekeeper: object


@pytest.fixture
def event(db) -> Event:
    tournament = TournamentFactory()
    team, other_team = TeamFactory(tournament=tournament), TeamFactory(tournament=tournament)
    a, b = team.players.order_by("position")
    other = other_team.players.order_by("position").first()
    users = [UserFactory() for _ in range(3)]
    for player, linked in zip((a, b, other), users, strict=True):
        Player.objects.filter(pk=player.pk).update(user=linked)
        player.user = linked
    return Event(
        tournament=tournament,
        team=team,
        other_team=other_team,
        a=a,
        b=b,
        other=other,
        player_user=users[0],
        teammate_user=users[1],
        other_user=users[2],
        organizer=StaffFactory(
            tournament=tournament, user=tournament.created_by, role=StaffRole.ORGANIZER
        ).user,
        judge=StaffFactory(tournament=tournament, role=StaffRole.JUDGE).user,
        scorekeeper=StaffFactory(tournament=tournament, role=StaffRole.SCOREKEEPER).user,
    )


@pytest.fixture
def client_for():
    """An API client logged in as ``user`` (anonymous for ``None``)."""

    def make(user) -> APIClient:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user=user)
        return client

    return make
