"""Creating an event, reading its staff and changing its settings through the API."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.tournaments.factories import client_for

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
