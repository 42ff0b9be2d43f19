"""Inputs that gave 500 (issue 12, "Inputs that still give 500"): each is now a 4xx naming the
field, on the pages and the API alike. Numbers are checked against their column's range in one
place (``common/numbers.py``), so SQLite answers as PostgreSQL would."""

from __future__ import annotations

import pytest
from django.test import Client

from penalties.models import Penalty
from tests.reliability.event import build_round_one_event
from tests.tournaments.factories import client_for
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

#: Digits ``str.isdigit()`` accepts and ``int()`` refuses, and a number no column holds.
ODD_NUMBERS = ["²", "١", "99999999999999999999999", "-1", "1.5", "x"]


@pytest.fixture
def ev(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    return build_round_one_event()


def page(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def assert_names(response, field: str):
    assert 400 <= response.status_code < 500, response.status_code
    assert field in response.content.decode()


@pytest.mark.parametrize("value", ODD_NUMBERS)
@pytest.mark.parametrize(
    ("path", "param", "role"),
    [
        ("clock/", "round", None),
        ("clock/judge/", "round", "judge"),
        ("decklists/judge/", "team", "judge"),
        ("penalties/new/", "round", "judge"),
        ("penalties/new/", "issued", "judge"),
    ],
)
def test_an_odd_number_in_a_page_query_is_a_4xx_naming_it(ev, path, param, role, value):
    response = page(ev.users[role] if role else None).get(
        f"/events/{ev.tournament.pk}/{path}", {param: value}
    )

    assert response.status_code == 400
    assert f"{param}: " in response.content.decode()


@pytest.mark.parametrize("value", ["²", "99999999999999999999999", "1.5"])
def test_an_odd_active_team_is_a_400_naming_it(ev, value):
    response = client_for(ev.users["judge"]).post(
        f"/api/v1/matches/{ev.match.pk}/time/", {"active_team": value}, format="json"
    )

    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["active_team"]


@pytest.mark.parametrize("field", ["round_minutes", "swiss_rounds"])
def test_an_event_setting_past_its_column_is_a_400_naming_it(ev, field):
    client = client_for(ev.users["organizer"])
    created = client.post("/api/v1/tournaments/", {"name": "Overflow", field: 40000}, format="json")
    changed = client.patch(f"/api/v1/tournaments/{ev.tournament.pk}/", {field: 40000}, format="json")

    assert created.status_code == 400
    assert [e["field"] for e in created.json()["errors"]] == [field]
    assert changed.status_code == 400
    assert [e["field"] for e in changed.json()["errors"]] == [field]
    assert not Tournament.objects.filter(name="Overflow").exists()


def test_an_event_setting_past_its_column_on_the_page_is_a_400(ev):
    organizer = ev.users["organizer"]  # an account the site lets create events (EVENT_CREATORS)
    response = page(organizer).post(
        "/events/new/", {"name": "Overflow", "format": "modern", "rel": "competitive", "round_minutes": 40000}
    )

    assert_names(response, "round_minutes")
    assert not Tournament.objects.filter(name="Overflow").exists()


def test_a_penalty_day_past_its_column_is_a_400_naming_it(ev):
    before = Penalty.objects.count()
    response = client_for(ev.users["judge"]).post(
        f"/api/v1/tournaments/{ev.tournament.pk}/penalties/",
        {"player": ev.player_row.pk, "round": 1, "infraction": "TE-SP", "description": "slow", "day": 40000},
        format="json",
    )

    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["day"]
    assert Penalty.objects.count() == before


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("player", "x"),
        ("player", "1.5"),
        ("player", "²"),
        ("count", "9" * 5000),
        ("count", "x"),
        ("finding", "1.5"),
    ],
)
def test_an_odd_number_in_the_deck_check_form_is_a_400_naming_it(ev, field, value):
    client = page(ev.users["judge"])
    url = f"/events/{ev.tournament.pk}/deckchecks/{ev.match.pk}/"
    client.post(url, {"action": "start"})
    data = {
        "action": "finding",
        "player": ev.player_row.pk,
        "kind": "missing",
        "card": "Counterspell",
        "count": "1",
    }
    if field == "finding":
        data = {"action": "penalty", "infraction": "TE-DP"}
    data[field] = value

    response = client.post(url, data)

    assert_names(response, field)


def test_a_nul_in_the_overturn_reason_is_a_400(ev):
    response = page(ev.users["head_judge"]).post(
        f"/events/{ev.tournament.pk}/penalties/{ev.penalty.pk}/overturn/", {"reason": "typo\x00"}
    )

    assert_names(response, "reason")
    assert Penalty.objects.get(pk=ev.penalty.pk).overturned is False


@pytest.mark.parametrize("method", ["trace", "options"])
@pytest.mark.parametrize(
    ("path", "role"),
    [
        ("/accounts/login/", None),
        ("/accounts/signup/", None),
        ("/admin/login/", None),
        ("/api/v1/auth/token/", None),
        ("/api/v1/accounts/", None),
        ("/events/{event}/clock/", None),
        ("/events/{event}/clock/judge/", "judge"),
        ("/events/{event}/penalties/new/", "judge"),
        ("/events/{event}/decklists/judge/", "judge"),
        ("/events/{event}/deckchecks/{match}/", "judge"),
        ("/events/{event}/penalties/{penalty}/overturn/", "head_judge"),
    ],
)
def test_odd_methods_on_these_views_are_never_a_500(ev, path, role, method):
    url = path.format(event=ev.tournament.pk, match=ev.match.pk, penalty=ev.penalty.pk)

    response = getattr(page(ev.users[role] if role else None), method)(url)

    assert response.status_code in {200, 405}, (url, response.status_code)
