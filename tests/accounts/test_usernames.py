"""Usernames are one account name whatever the case, width or look-alike letters (accounts/usernames.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import DEFAULT_PASSWORD, UserFactory
from tournaments.services.events import staff_add, tournament_create

pytestmark = pytest.mark.django_db

CYRILLIC_O = "\u043e"


@pytest.mark.parametrize(
    ("taken", "attempt", "message"),
    [
        ("org", f"{CYRILLIC_O}rg", f"the username '{CYRILLIC_O}rg' looks like the existing 'org'"),
        ("org", "ORG", "the username 'ORG' is taken"),
        ("org", "\uff4f\uff52\uff47", "the username 'org' is taken"),  # full-width letters, NFKC
        ("paypal", "\u0440aypal", "the username '\u0440aypal' looks like the existing 'paypal'"),
    ],
)
def test_signup_api_refuses_a_name_that_reads_as_an_existing_one(api_client, taken, attempt, message):
    UserFactory(username=taken)

    response = api_client.post(
        "/api/v1/accounts/", {"username": attempt, "password": "shared-life-30"}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["errors"] == [{"field": "username", "message": message}]
    assert get_user_model().objects.count() == 1


def test_signup_page_refuses_a_look_alike_name(client):
    UserFactory(username="org")

    response = client.post(reverse("signup"), {"username": f"{CYRILLIC_O}rg", "password": "shared-life-30"})

    assert response.status_code == 400
    assert "looks like the existing &#x27;org&#x27;" in response.content.decode()
    assert get_user_model().objects.count() == 1


def test_signup_stores_the_nfkc_form(api_client):
    response = api_client.post(
        "/api/v1/accounts/",
        {"username": "\uff4a\uff41\uff44\uff45", "password": "shared-life-30"},
        format="json",
    )

    assert response.status_code == 201
    assert response.json()["username"] == "jade"
    assert get_user_model().objects.get(pk=response.json()["id"]).username == "jade"


def test_a_different_name_in_another_script_is_accepted(api_client):
    UserFactory(username="org")

    response = api_client.post(
        "/api/v1/accounts/", {"username": "\u043e\u043b\u044f", "password": "shared-life-30"}, format="json"
    )

    assert response.status_code == 201


def test_staff_are_added_by_the_name_whatever_its_case_or_width():
    organizer = UserFactory()
    judge = UserFactory(username="Ravi.Judge")
    tournament = tournament_create(actor=organizer, name="Username lookup")

    staff = staff_add(tournament=tournament, actor=organizer, username="\uff52avi.judge", role="judge")

    assert staff.user == judge


def test_log_in_finds_the_account_by_the_same_rule(client):
    user = UserFactory(username="Org")

    response = client.post(reverse("login"), {"username": "ORG", "password": DEFAULT_PASSWORD})

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)
