"""Creating an event, reading its staff and changing its settings through the API."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.factories import OrganizerFactory, UserFactory
from tests.tournaments.factories import add_staff, client_for, event_with_teams, register_team
from tournaments.enums import StaffRole
from tournaments.models import AuditEntry, Staff, Tournament
from tournaments.services.events import staff_add
from tournaments.services.rounds import round_pair

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
    response = client_for(OrganizerFactory()).post("/api/v1/tournaments/", {"name": "X"}, format="json")

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
    response = client_for(OrganizerFactory()).post(
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


def patch_event(user, tournament, body):
    return client_for(user).patch(f"/api/v1/tournaments/{tournament.pk}/", body, format="json")


def test_organizer_changes_settings_before_round_one_with_an_audit_entry():
    tournament = event_with_teams(4)

    response = patch_event(
        tournament.created_by,
        tournament,
        {
            "swiss_rounds": 4,
            "top_cut": 4,
            "penalty_policy": "ipg",
            "venue": "Back room",
            "date": "2026-12-05",
        },
    )

    assert response.status_code == 200
    body = response.json()
    assert (body["swiss_rounds"], body["top_cut"], body["penalty_policy"], body["venue"], body["date"]) == (
        4,
        4,
        "ipg",
        "Back room",
        "2026-12-05",
    )
    entry = AuditEntry.objects.get(action="tournament_update")
    assert (entry.actor, entry.before, entry.after) == (
        tournament.created_by,
        {"swiss_rounds": None, "top_cut": None, "penalty_policy": "match_point", "venue": "", "date": None},
        {
            "swiss_rounds": 4,
            "top_cut": 4,
            "penalty_policy": "ipg",
            "venue": "Back room",
            "date": "2026-12-05",
        },
    )


@pytest.mark.parametrize(
    "body,field",
    [
        ({"swiss_rounds": 5}, "swiss_rounds"),
        ({"top_cut": 8}, "top_cut"),
        ({"tiebreakers": ["match_points", "gw"]}, "tiebreakers"),
        ({"format": "legacy"}, "format"),
        ({"games_per_match": 3, "team_size": 1}, "games_per_match"),
    ],
)
def test_the_structure_is_fixed_once_round_one_is_paired(body, field):
    tournament = event_with_teams(4, swiss_rounds=3, top_cut=0)
    round_pair(tournament=tournament, actor=tournament.created_by)

    response = patch_event(tournament.created_by, tournament, body)

    assert response.status_code == 409
    assert field in {error["field"] for error in response.json()["errors"]}
    tournament.refresh_from_db()
    assert (tournament.swiss_rounds, tournament.top_cut, tournament.format) == (3, 0, "modern")


def test_other_settings_still_change_after_round_one():
    tournament = event_with_teams(4, swiss_rounds=3, top_cut=0)
    round_pair(tournament=tournament, actor=tournament.created_by)

    response = patch_event(
        tournament.created_by,
        tournament,
        {"round_minutes": 55, "swiss_rounds": 3, "name": "Friday 2HG (late)"},
    )

    assert response.status_code == 200
    assert (response.json()["round_minutes"], response.json()["name"]) == (55, "Friday 2HG (late)")
    assert AuditEntry.objects.get(action="tournament_update").after == {
        "round_minutes": 55,
        "name": "Friday 2HG (late)",
    }


@pytest.mark.parametrize(
    "body,field",
    [
        ({"round_minutes": 30}, "round_minutes"),
        ({"top_cut": 6}, "top_cut"),
        ({"games_per_match": 3}, "games_per_match"),
        ({"tiebreakers": ["omw", "match_points"]}, "tiebreakers"),
        ({"name": "   "}, "name"),
    ],
)
def test_invalid_settings_are_400_naming_the_field(body, field):
    tournament = event_with_teams(2)

    response = patch_event(tournament.created_by, tournament, body)

    assert response.status_code == 400
    assert [error["field"] for error in response.json()["errors"]] == [field]


def test_team_size_changes_only_before_teams_register_and_moves_default_tiebreakers():
    empty, full = event_with_teams(0), event_with_teams(2, name="Full")

    changed = patch_event(empty.created_by, empty, {"team_size": 1, "games_per_match": 3})
    refused = patch_event(full.created_by, full, {"team_size": 1})

    assert changed.status_code == 200
    assert (changed.json()["team_size"], changed.json()["tiebreakers"]) == (
        1,
        ["match_points", "omw", "gw", "ogw"],
    )
    assert refused.status_code == 409


@pytest.mark.parametrize(
    "role,status", [(None, 401), (StaffRole.HEAD_JUDGE, 403), (StaffRole.SCOREKEEPER, 403)]
)
def test_only_the_organizer_changes_settings(role, status):
    tournament = event_with_teams(0)
    user = add_staff(tournament, role) if role else None

    response = patch_event(user, tournament, {"venue": "Elsewhere"})

    assert response.status_code == status
    assert not AuditEntry.objects.filter(action="tournament_update").exists()


def test_a_change_to_the_same_value_writes_no_audit_entry():
    tournament = event_with_teams(0, swiss_rounds=3)

    response = patch_event(tournament.created_by, tournament, {"swiss_rounds": 3})

    assert response.status_code == 200
    assert not AuditEntry.objects.filter(action="tournament_update").exists()


def test_a_plain_account_may_not_create_events_and_is_told_why():
    """Event creation is a role the site grants (EVENT_CREATORS), on the API as on the pages."""
    response = client_for(UserFactory()).post("/api/v1/tournaments/", {"name": "Mine"}, format="json")

    assert response.status_code == 403
    assert "EVENT_CREATORS" in response.json()["detail"]
    assert not Tournament.objects.filter(name="Mine").exists()


def test_a_site_open_to_everyone_lets_any_account_create_events(settings):
    settings.EVENT_CREATORS = "everyone"
    response = client_for(UserFactory()).post("/api/v1/tournaments/", {"name": "Mine"}, format="json")

    assert response.status_code == 201
    tournament = Tournament.objects.get(name="Mine")
    assert list(Staff.objects.filter(tournament=tournament).values_list("role", flat=True)) == ["organizer"]
