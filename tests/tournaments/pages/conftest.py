"""A seven-team 2HG event built through the services, and logged-in clients for each role."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import UserFactory
from tests.tournaments.pages.builders import TEAMS, build_event, client_for
from tournaments.enums import StaffRole
from tournaments.models import Staff


@pytest.fixture
def organizer(db):
    return UserFactory(username="orga", is_staff=True)  # may create events (settings.EVENT_CREATORS)


@pytest.fixture
def event(organizer):
    """Seven teams, so round 1 has a bye."""
    return build_event(organizer, TEAMS[:7])


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

    return round_publish(round_row=paired_round, actor=organizer)
