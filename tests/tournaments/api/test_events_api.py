"""Creating an event, reading its staff and changing its settings through the API."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.factories import UserFactory
from tests.tournaments.factories import client_for, event_with_teams, register_team
from tournaments.enums import StaffRole
from tournaments.services.events import staff_add

pytestmark = pytest.mark.django_db

SETTINGS = (
    "format",
    "rel",
    "team_size",
    "games_per_match",
    "round_minutes",
    "tiebreakers",
    "penalty_policy",
    "udc_mode",
    "percentage_floor",
    "swiss_rounds",
    "top_cut",
)


def test_create_with_only_a_name_applies_the_defaults():
    response = client_for(UserFactory()).post("/api/v1/tournaments/", {"name": "X"}, format="json")

    assert response.status_code == 201
    body = response.json()
    assert {key: body[key] for key in ("name", *SETTINGS)} == {
        "name": "X",
        "format": "modern",
        "rel": "regular",
        "team_size": 2,
        "games_per_match": 1,
        "round_minutes": 50,
        "tiebreakers": ["match_points", "omw"],
        "penalty_policy": "match_point",
        "udc_mode": "mtr",
        "percentage_floor": "1/3",
        "swiss_rounds": None,
        "top_cut": None,
    }


def test_create_an_individual_event_defaults_to_three_games_and_four_tiebreakers():
    response = client_for(UserFactory()).post(
        "/api/v1/tournaments/", {"name": "Solo", "team_size": 1}, format="json"
    )

    assert response.status_code == 201
    body = response.json()
    assert (body["team_size"], body["games_per_match"], body["tiebreakers"]) == (
        1,
        3,
        ["match_points", "omw", "gw", "ogw"],
    )


def test_staff_list_shows_each_member_and_role():
    tournament = event_with_teams(0, organizer=UserFactory(username="orga"))
    for username, role in (("zed", StaffRole.JUDGE), ("amy", StaffRole.SCOREKEEPER)):
        UserFactory(username=username)
        staff_add(tournament=tournament, actor=tournament.created_by, username=username, role=role)
    judge = get_user_model().objects.get(username="zed")

    response = client_for(judge).get(f"/api/v1/tournaments/{tournament.pk}/staff/")

    assert response.status_code == 200
    assert [(row["username"], row["role"]) for row in response.json()] == [
        ("orga", "organizer"),
        ("zed", "judge"),
        ("amy", "scorekeeper"),
    ]


@pytest.mark.parametrize(
    "who,status", [("anonymous", 401), ("player", 403), ("other_organizer", 403), ("organizer", 200)]
)
def test_staff_list_is_for_the_event_staff_only(who, status):
    tournament = event_with_teams(0)
    player = UserFactory()
    register_team(tournament, "Team 1", actor=tournament.created_by, usernames=(player.username,))
    users = {
        "anonymous": None,
        "player": player,
        "other_organizer": event_with_teams(0, name="Other").created_by,
        "organizer": tournament.created_by,
    }

    response = client_for(users[who]).get(f"/api/v1/tournaments/{tournament.pk}/staff/")

    assert response.status_code == status
