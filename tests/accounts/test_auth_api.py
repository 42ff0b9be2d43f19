from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token

from tests.factories import DEFAULT_PASSWORD, UserFactory
from tournaments.services.events import tournament_create

pytestmark = pytest.mark.django_db


def test_token_for_valid_credentials_authenticates_api_calls(api_client):
    user = UserFactory(username="scorekeeper1")
    response = api_client.post(
        "/api/v1/auth/token/", {"username": "scorekeeper1", "password": DEFAULT_PASSWORD}, format="json"
    )
    assert response.status_code == 200
    token = response.json()["token"]
    assert token == Token.objects.get(user=user).key
    tournament = tournament_create(actor=user, name="Token-only staff check")
    teams_url = f"/api/v1/tournaments/{tournament.pk}/teams/"
    assert api_client.get(teams_url).status_code == 401
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api_client.get(teams_url).status_code == 200
    api_client.credentials(HTTP_AUTHORIZATION="Token someone-elses-token")
    assert api_client.get(teams_url).status_code == 401


def test_token_for_wrong_password_is_400_with_message(api_client):
    UserFactory(username="judge1")
    response = api_client.post(
        "/api/v1/auth/token/", {"username": "judge1", "password": "wrong"}, format="json"
    )
    assert response.status_code == 400
    assert "Unable to log in" in response.json()["detail"]


def test_signup_ignores_credentials_and_names_missing_fields(api_client):
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = api_client.post("/api/v1/accounts/", {}, format="json")
    assert response.status_code == 400
    assert {e["field"] for e in response.json()["errors"]} == {"username", "password"}


def test_signup_creates_player_account_with_token(api_client):
    response = api_client.post(
        "/api/v1/accounts/",
        {"username": "jade.wu", "password": "shared-life-30", "email": "jade@example.org"},
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    user = get_user_model().objects.get(username="jade.wu")
    assert body == {
        "id": user.id,
        "username": "jade.wu",
        "email": "jade@example.org",
        "token": Token.objects.get(user=user).key,
    }
    assert user.check_password("shared-life-30")
    assert "password" not in body


@pytest.mark.parametrize(
    ("payload", "field", "fragment"),
    [
        ({"username": "ok_name", "password": "123"}, "password", "too short"),
        ({"username": "ok_name", "password": "password"}, "password", "too common"),
        ({"username": "bad name!", "password": "shared-life-30"}, "username", "valid username"),
        (
            {"username": "ok_name", "password": "shared-life-30", "email": "not-an-email"},
            "email",
            "valid email",
        ),
    ],
)
def test_signup_refuses_invalid_fields_naming_them(api_client, payload, field, fragment):
    response = api_client.post("/api/v1/accounts/", payload, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert any(e["field"] == field and fragment in e["message"] for e in errors), errors
    assert not get_user_model().objects.filter(username=payload["username"]).exists()


def test_signup_refuses_taken_username_case_insensitively(api_client):
    UserFactory(username="Organizer")
    response = api_client.post(
        "/api/v1/accounts/", {"username": "organizer", "password": "shared-life-30"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "username", "message": "the username 'organizer' is taken"}
    ]


def test_signup_page_creates_account_and_logs_in(client):
    page = client.get("/accounts/signup/")
    assert page.status_code == 200
    response = client.post(
        "/accounts/signup/", {"username": "kofi", "password": "fifteen-poison-15", "email": ""}
    )
    assert response.status_code == 302
    assert client.get("/dashboard/").status_code == 200


def test_signup_page_shows_password_problem(client):
    response = client.post("/accounts/signup/", {"username": "kofi", "password": "12345678"})
    assert response.status_code == 400
    assert "This password is entirely numeric." in response.content.decode()


def test_invalid_token_is_401(api_client):
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = api_client.get("/api/schema/?format=json")
    assert response.status_code == 401
    assert response.json()["detail"] == "Invalid token."
