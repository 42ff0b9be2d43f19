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


def test_create_page_shows_every_field(creator_client):
    response = creator_client.get(reverse("tournament-create"))

    assert response.status_code == 200
    for field in VALID:
        assert f'name="{field}"' in response.text


def test_create_event_makes_the_creator_its_organizer(creator_client):
    response = creator_client.post(reverse("tournament-create"), VALID)

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


def test_create_event_rule_errors_show_on_their_fields(creator_client):
    response = creator_client.post(
        reverse("tournament-create"), {**VALID, "round_minutes": "30", "team_size": "7"}
    )

    assert response.status_code == 400
    errors = response.context["form"].errors
    assert errors["round_minutes"] == ["at least 40 minutes (MTR App. B)"]
    assert errors["team_size"] == ["must be 1 to 4, got 7"]
    assert not Tournament.objects.filter(name="Saturday 2HG").exists()


def test_create_event_form_errors_are_400(creator_client):
    response = creator_client.post(reverse("tournament-create"), {**VALID, "name": "", "date": "soon"})

    assert response.status_code == 400
    assert set(response.context["form"].errors) == {"name", "date"}


def test_dashboard_links_each_event_to_its_manage_page(organizer_client, event):
    response = organizer_client.get(reverse("dashboard"))

    assert response.status_code == 200
    assert f'<a href="/events/{event.id}/manage/">Friday 2HG</a>' in response.text
    assert 'href="/events/new/"' in response.text


@pytest.fixture
def creator_client(db):
    from tests.factories import UserFactory
    from tests.tournaments.pages.builders import client_for

    return client_for(UserFactory(username="store-owner", is_staff=True))


def test_a_player_account_cannot_create_events_and_is_told_why(outsider_client):
    page = outsider_client.get(reverse("tournament-create"))
    dashboard = outsider_client.get(reverse("dashboard"))

    assert page.status_code == 403
    assert "Creating events is for the organizers this site knows" in page.text
    assert "Create event" not in dashboard.text and "Organizer dashboard" not in dashboard.text


def test_event_creation_can_be_granted_as_a_permission_or_opened_to_everyone(outsider_client, settings):
    from django.contrib.auth.models import Permission, User

    User.objects.get(username="outsider").user_permissions.add(
        Permission.objects.get(codename="add_tournament")
    )
    granted = outsider_client.get(reverse("tournament-create")).status_code
    settings.EVENT_CREATORS = "everyone"
    from tests.factories import UserFactory
    from tests.tournaments.pages.builders import client_for

    anyone = client_for(UserFactory()).get(reverse("tournament-create")).status_code

    assert (granted, anyone) == (200, 200)
