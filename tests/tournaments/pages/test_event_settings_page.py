"""The create page's optional settings and the organizer's event settings page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.enums import StaffRole
from tournaments.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db


def settings_url(event) -> str:
    return reverse("tournament-settings", args=[event.id])


def current_values(event) -> dict:
    """The settings page's form as the browser would post it unchanged."""
    return {
        "name": event.name,
        "date": event.date.isoformat() if event.date else "",
        "venue": event.venue,
        "format": event.format,
        "rel": event.rel,
        "team_size": event.team_size,
        "games_per_match": event.games_per_match,
        "round_minutes": event.round_minutes,
        "swiss_rounds": event.swiss_rounds if event.swiss_rounds is not None else "",
        "top_cut": event.top_cut if event.top_cut is not None else "",
        "day_two_after_round": (event.day_two or {}).get("after_round", ""),
        "day_two_min_match_points": (event.day_two or {}).get("min_match_points", ""),
        "day_two_tiebreakers": event.day_two_tiebreakers,
        "tiebreakers": ", ".join(event.tiebreakers),
        "percentage_floor": event.percentage_floor,
        "penalty_policy": event.penalty_policy,
        "udc_mode": event.udc_mode,
        "late_entry_missed_rounds": event.late_entry_missed_rounds,
        "playoff_play_draw": event.playoff_play_draw,
        "decklist_deadline": "",
        **({"late_entry_open": "on"} if event.late_entry_open else {}),
        **({"decklists_published": "on"} if event.decklists_published else {}),
        **({"player_reporting": "on"} if event.player_reporting else {}),
    }


def test_create_page_shows_the_optional_settings_with_their_defaults(organizer_client):
    response = organizer_client.get(reverse("tournament-create"))

    form = response.context["form"]
    for field in ("games_per_match", "swiss_rounds", "top_cut", "penalty_policy", "udc_mode"):
        assert f'name="{field}"' in response.text
        assert form.fields[field].required is False
    assert '<option value="match_point" selected>' in response.text
    assert '<option value="mtr" selected>' in response.text


def test_create_page_applies_the_chosen_settings(organizer_client):
    response = organizer_client.post(
        reverse("tournament-create"),
        {
            "name": "Sunday 2HG",
            "format": "modern",
            "rel": "regular",
            "team_size": "2",
            "round_minutes": "50",
            "swiss_rounds": "4",
            "top_cut": "4",
            "penalty_policy": "ipg",
            "udc_mode": "legacy4",
            "games_per_match": "",
        },
    )

    tournament = Tournament.objects.get(name="Sunday 2HG")
    assert response.status_code == 302
    assert (
        tournament.games_per_match,
        tournament.swiss_rounds,
        tournament.top_cut,
        tournament.penalty_policy,
        tournament.udc_mode,
    ) == (1, 4, 4, "ipg", "legacy4")


def test_organizer_changes_settings_on_the_settings_page(organizer_client, event):
    page = organizer_client.get(reverse("tournament-manage", args=[event.id]))
    assert f'href="{settings_url(event)}"' in page.text

    response = organizer_client.post(
        settings_url(event), {**current_values(event), "swiss_rounds": "4", "penalty_policy": "ipg"}
    )

    assert (response.status_code, response.url) == (302, reverse("tournament-manage", args=[event.id]))
    event.refresh_from_db()
    assert (event.swiss_rounds, event.penalty_policy) == (4, "ipg")
    assert AuditEntry.objects.get(action="tournament_update").after == {
        "swiss_rounds": 4,
        "penalty_policy": "ipg",
    }


def test_the_structure_is_shown_fixed_after_round_one(organizer_client, event, paired_round):
    page = organizer_client.get(settings_url(event))
    assert page.context["form"].fields["swiss_rounds"].disabled is True

    response = organizer_client.post(
        settings_url(event), {**current_values(event), "swiss_rounds": "5", "round_minutes": "55"}
    )

    event.refresh_from_db()
    assert response.status_code == 302
    assert (event.swiss_rounds, event.round_minutes) == (3, 55)


def test_rule_errors_show_on_their_fields(organizer_client, event):
    response = organizer_client.post(settings_url(event), {**current_values(event), "round_minutes": "30"})

    assert response.status_code == 400
    assert response.context["form"].errors["round_minutes"] == ["at least 40 minutes (MTR App. B)"]


def test_the_cut_to_day_two_is_set_from_its_two_boxes_and_refused_by_field(organizer_client, event):
    values = {**current_values(event), "swiss_rounds": "6"}

    half = organizer_client.post(settings_url(event), {**values, "day_two_after_round": "3"})
    late = organizer_client.post(
        settings_url(event), {**values, "day_two_after_round": "6", "day_two_min_match_points": "6"}
    )
    saved = organizer_client.post(
        settings_url(event),
        {
            **values,
            "day_two_after_round": "3",
            "day_two_min_match_points": "6",
            "day_two_tiebreakers": "frozen",
        },
    )

    assert half.status_code == late.status_code == 400
    assert half.context["form"].errors["day_two"] == [
        "Give both the round of the cut and the match points, or neither."
    ]
    assert late.context["form"].errors["day_two"] == ["after_round must be before the last Swiss round (6)"]
    assert saved.status_code == 302
    event.refresh_from_db()
    assert (event.day_two, event.day_two_tiebreakers) == ({"after_round": 3, "min_match_points": 6}, "frozen")
    cleared = organizer_client.post(
        settings_url(event),
        {**current_values(event), "day_two_after_round": "", "day_two_min_match_points": ""},
    )
    assert cleared.status_code == 302
    event.refresh_from_db()
    assert event.day_two is None


@pytest.mark.parametrize("role", [StaffRole.HEAD_JUDGE, StaffRole.SCOREKEEPER])
def test_settings_page_is_for_the_organizer_only(staff_client, event, role):
    client = staff_client(role)

    assert client.get(settings_url(event)).status_code == 403
    assert client.post(settings_url(event), current_values(event)).status_code == 403
    assert 'id="event-settings"' not in client.get(reverse("tournament-manage", args=[event.id])).text
