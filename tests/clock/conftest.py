"""Shared arrangements for the clock tests: one published round of three seated tables, staff in
every role, a fixed start instant, and Slow Play times the test controls."""

from __future__ import annotations

import datetime

import pytest
from rest_framework.test import APIClient

from penalties import selectors as penalty_selectors
from tests.clock.factories import (
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    StaffFactory,
    TournamentFactory,
)
from tests.factories import UserFactory
from tournaments.enums import StaffRole

UTC = datetime.UTC
T0 = datetime.datetime(2026, 7, 4, 10, 0, tzinfo=UTC)
"""Round 1 starts at 10:00 UTC; with 50 minutes its time is up at 10:50."""


def at(minutes: float = 0, seconds: float = 0) -> datetime.datetime:
    """T0 plus an offset, so each test reads as 'ten minutes in'."""
    return T0 + datetime.timedelta(minutes=minutes, seconds=seconds)


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """The clock tests make many staff accounts; a real password hash would dominate their time."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def slow_play(monkeypatch) -> dict[int, list[datetime.datetime]]:
    """Match id → Slow Play issue times, as the penalties app would report them (IPG 3.3).

    Patched where the clock reads it (``penalties.selectors``, called through the module), so
    the clock sees exactly the penalties a test adds and nothing from the penalties tables.
    """
    times: dict[int, list[datetime.datetime]] = {}

    def fake(match_ids):
        return {match_id: list(times[match_id]) for match_id in match_ids if match_id in times}

    monkeypatch.setattr(penalty_selectors, "slow_play_penalty_times", fake)
    return times


@pytest.fixture
def tournament(db):
    return TournamentFactory(round_minutes=50)


@pytest.fixture
def round_one(tournament):
    return RoundFactory(tournament=tournament, number=1)


@pytest.fixture
def tables(round_one, slow_play):
    """Tables 1, 2 and 3 of round 1, each with two teams."""
    return [MatchFactory(round=round_one, table=number) for number in (1, 2, 3)]


@pytest.fixture
def staff(tournament) -> dict[str, object]:
    """One user per staff role in the event."""
    return {role: StaffFactory(tournament=tournament, role=role).user for role in StaffRole.values}


@pytest.fixture
def judge(staff):
    return staff[StaffRole.JUDGE]


@pytest.fixture
def player_user(tables):
    user = UserFactory()
    PlayerFactory(team=tables[1].team_b, user=user)
    return user


def client_for(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user=user)
    return client
