"""An eight-team 2HG event built through the services, and logged-in clients for each role."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

from tests.factories import UserFactory
from tournaments.enums import REL, Format, StaffRole
from tournaments.models import Staff
from tournaments.services.events import tournament_create
from tournaments.services.teams import PlayerEntry, team_register

TEAMS = [
    ("Shared Life Total", ("Alex Moreau", "Bea Lindqvist")),
    ("Two Heads Are Better", ("Carlos Ferreira", "Dana Okafor")),
    ("Primary on the Right", ("Eli Novak", "Farah Haddad")),
    ("Fifteen Poison", ("Gus Tanaka", "Hanna Berg")),
    ("Team Turn", ("Ivan Petrov", "Jade Wu")),
    ("Thirty Life", ("Kofi Mensah", "Lena Vogel")),
    ("Free Mulligan", ("Mateo Rossi", "Nora Kelly")),
]


def wizards_id(name: str) -> str:
    return name.lower().replace(" ", ".") + "@example.org"


@pytest.fixture
def organizer(db):
    return UserFactory(username="orga")


@pytest.fixture
def event(organizer):
    """Seven teams (so round 1 has a bye) and three Swiss rounds without a cut, set explicitly
    because the MTR chart gives fewer than nine teams no Swiss rounds at all."""
    tournament = tournament_create(
        actor=organizer,
        name="Friday 2HG",
        date=datetime.date(2026, 11, 20),
        venue="The Game Store",
        format=Format.MODERN,
        rel=REL.REGULAR,
        team_size=2,
        swiss_rounds=3,
        top_cut=0,
    )
    for team_name, members in TEAMS:
        team_register(
            tournament=tournament,
            actor=organizer,
            name=team_name,
            players=[PlayerEntry(name=member, wizards_id=wizards_id(member)) for member in members],
        )
    return tournament


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def organizer_client(organizer) -> Client:
    return client_for(organizer)


@pytest.fixture
def staff_client(event):
    """A client for a new user holding ``role`` in the event."""

    def make(role: str) -> Client:
        user = UserFactory()
        Staff.objects.create(tournament=event, user=user, role=role)
        return client_for(user)

    return make


@pytest.fixture
def judge_client(staff_client) -> Client:
    return staff_client(StaffRole.JUDGE)


@pytest.fixture
def outsider_client(db) -> Client:
    return client_for(UserFactory(username="outsider"))


@pytest.fixture
def paired_round(event, organizer):
    """Round 1 paired by the engine but not published yet."""
    from tournaments.services.rounds import round_pair

    return round_pair(tournament=event, actor=organizer)


@pytest.fixture
def published_round(paired_round, organizer):
    from tournaments.services.rounds import round_publish

    return round_publish(round=paired_round, actor=organizer)
