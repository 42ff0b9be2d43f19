"""Creating an event from the dashboard, and the dashboard's links to each event's manage page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.enums import StaffRole
from tournaments.models import Staff, Tournament

pytestmark = pytest.mark.django_db

VALID = {
    "name": "Saturday 2HG",
    "date": "2026-12-05",
    "venue": "Library",
    "format": "pioneer",
    "rel": "competitive",
    "team_size": "2",
    "round_minutes": "50",
}


def test_create_page_sends_anonymous_users_to_log_in(client):
    response = client.get(reverse("tournament-create"))

    assert response.status_code == 302
    assert response.url == "/accounts/login/?next=/events/new/"


def test_create_page_shows_every_field(outsider_client):
    response = outsider_client.get(reverse("tournament-create"))

    assert response.status_code == 200
    for field in VALID:
        assert f'name="{field}"' in response.text


def test_create_event_makes_the_creator_its_organizer(outsider_client):
    response = outsider_client.post(reverse("tournament-create"), VALID)

    tournament = Tournament.objects.get(name="Saturday 2HG")
    assert response.status_code == 302
    assert response.url == f"/events/{tournament.id}/manage/"
    assert (tournament.format, tournament.rel, tournament.team_size, tournament.round_minutes) == (
        "pioneer",
        "competitive",
        2,
        50,
    )
    assert Staff.objects.get(tournament=tournament).role == StaffRole.ORGANIZER


def test_create_event_rule_errors_show_on_their_fields(outsider_client):
    response = outsider_client.post(
        reverse("tournament-create"), {**VALID, "round_minutes": "30", "team_size": "7"}
    )

    assert response.status_code == 400
    errors = response.context["form"].errors
    assert errors["round_minutes"] == ["at least 40 minutes (MTR App. B)"]
    assert errors["team_size"] == ["must be 1 to 4, got 7"]
    assert not Tournament.objects.filter(name="Saturday 2HG").exists()


def test_create_event_form_errors_are_400(outsider_client):
    response = outsider_client.post(reverse("tournament-create"), {**VALID, "name": "", "date": "soon"})

    assert response.status_code == 400
    assert set(response.context["form"].errors) == {"name", "date"}


def test_dashboard_links_each_event_to_its_manage_page(organizer_client, event):
    response = organizer_client.get(reverse("dashboard"))

    assert response.status_code == 200
    assert f'<a href="/events/{event.id}/manage/">Friday 2HG</a>' in response.text
    assert 'href="/events/new/"' in response.text
