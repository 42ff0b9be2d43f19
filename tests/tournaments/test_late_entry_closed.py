"""Late entry is allowed until the organizer closes it (docs/rules.md#late-entry), through the API or the settings page."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import client_for, event_with_teams, register_team
from tournaments.models import Team
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db


def test_organizer_closes_late_entry_and_new_teams_are_refused():
    tournament = event_with_teams(6, swiss_rounds=3)
    organizer = client_for(tournament.created_by)
    round_pair(tournament=tournament, actor=tournament.created_by)
    late = register_team(tournament, "Team Late", actor=tournament.created_by)
    assert late.registered_after_round == 1

    closed = organizer.patch(
        f"/api/v1/tournaments/{tournament.pk}/", {"late_entry_open": False}, format="json"
    )
    refused = organizer.post(
        f"/api/v1/tournaments/{tournament.pk}/teams/",
        {
            "name": "Team Too Late",
            "players": [
                {"name": "Ada One", "wizards_id": "ada@example.org"},
                {"name": "Bo Two", "wizards_id": "bo@example.org"},
            ],
        },
        format="json",
    )

    assert closed.status_code == 200
    assert closed.json()["late_entry_open"] is False
    assert refused.status_code == 409
    assert refused.json()["detail"] == "late entry is closed: the organizer closed registration after round 1"
    assert not Team.objects.filter(tournament=tournament, name="Team Too Late").exists()


def test_closed_late_entry_still_allows_registration_before_round_1():
    tournament = event_with_teams(2, swiss_rounds=3)
    organizer = client_for(tournament.created_by)
    organizer.patch(f"/api/v1/tournaments/{tournament.pk}/", {"late_entry_open": False}, format="json")
    team = register_team(tournament, "Team On Time", actor=tournament.created_by)
    assert team.registered_after_round == 0


def test_settings_page_closes_late_entry(client):
    tournament = event_with_teams(2, swiss_rounds=3)
    client.force_login(tournament.created_by)
    page = client.get(f"/events/{tournament.pk}/settings/")
    assert b"Late entry open" in page.content
    form = {
        "name": tournament.name,
        "venue": "",
        "format": "modern",
        "rel": "regular",
        "team_size": 2,
        "games_per_match": 1,
        "round_minutes": 50,
        "swiss_rounds": 3,
        "top_cut": "",
        "tiebreakers": "",
        "percentage_floor": "1/3",
        "penalty_policy": "match_point",
        "udc_mode": "mtr",
        "late_entry_missed_rounds": "loss",
        "playoff_play_draw": "random",
    }
    response = client.post(f"/events/{tournament.pk}/settings/", form)
    tournament.refresh_from_db()
    assert response.status_code == 302, response.content.decode()[:2000]
    assert tournament.late_entry_open is False
