"""One competitive 2HG table in round 1 and the event's staff, for service, API and page tests."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from rest_framework.test import APIClient

from tests.factories import MatchFactory, RoundFactory, StaffFactory, TournamentFactory, UserFactory
from tournaments.enums import StaffRole
from tournaments.models import Match, Player, Round, Tournament


@dataclass
class Table:
    tournament: Tournament
    round: Round
    match: Match
    a1: Player
    a2: Player
    b1: Player
    b2: Player
    organizer: object
    head_judge: object
    judge: object
    scorekeeper: object
    player_user: object


@pytest.fixture
def table(db) -> Table:
    tournament = TournamentFactory()
    event_round = RoundFactory(tournament=tournament)
    match = MatchFactory(round=event_round, table=1)
    a1, a2 = match.team_a.players.order_by("position")
    b1, b2 = match.team_b.players.order_by("position")
    player_user = UserFactory()
    Player.objects.filter(pk=a1.pk).update(user=player_user)
    return Table(
        tournament=tournament,
        round=event_round,
        match=match,
        a1=a1,
        a2=a2,
        b1=b1,
        b2=b2,
        organizer=StaffFactory(
            tournament=tournament, user=tournament.created_by, role=StaffRole.ORGANIZER
        ).user,
        head_judge=StaffFactory(tournament=tournament, role=StaffRole.HEAD_JUDGE).user,
        judge=StaffFactory(tournament=tournament, role=StaffRole.JUDGE).user,
        scorekeeper=StaffFactory(tournament=tournament, role=StaffRole.SCOREKEEPER).user,
        player_user=player_user,
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
