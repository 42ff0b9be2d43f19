"""Inputs that once ended as a 500 or an HTML page, each answered now as a 4xx naming the problem.

Each test fixes one finding of the API fuzzing (``test_api_fuzz.py``) or of the issue's list of
hostile bodies, and checks the exact status and message, not only "not a 500".
"""

from __future__ import annotations

import json

import pytest
from django.test import Client, override_settings
from rest_framework.test import APIClient

from tests.factories import OrganizerFactory
from tests.tournaments.factories import client_for, event_with_teams

pytestmark = pytest.mark.django_db


def _assert_error_shape(response, status: int) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["detail"]
    assert body["errors"] and all(item["message"] for item in body["errors"])
    return body


def test_oversized_json_body_is_a_json_413_naming_the_limit():
    """DRF's JSON parser reads the raw stream, past Django's upload limit; the middleware stops it."""
    client = client_for(OrganizerFactory())
    payload = json.dumps({"name": "x" * (2 * 1024 * 1024)})
    response = client.post("/api/v1/tournaments/", payload, content_type="application/json")
    body = _assert_error_shape(response, 413)
    assert body["detail"] == "request body too large; the limit is 1048576 bytes"


def test_oversized_form_body_is_a_json_413_not_django_html_400():
    client = client_for(OrganizerFactory())
    response = client.post("/api/v1/tournaments/", {"name": "x" * (2 * 1024 * 1024)})
    _assert_error_shape(response, 413)


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=2048)
def test_body_limit_follows_the_setting():
    tournament = event_with_teams(2)
    client = client_for(tournament.created_by)
    url = f"/api/v1/tournaments/{tournament.pk}/teams/"
    small = client.post(url, {"name": "y" * 50, "players": []}, format="json")
    assert _assert_error_shape(small, 400)["errors"] == [
        {"field": "players", "message": "This list may not be empty."}
    ]
    big = client.post(url, {"name": "y" * 4096, "players": []}, format="json")
    assert _assert_error_shape(big, 413)["detail"].endswith("the limit is 2048 bytes")


def test_too_many_form_fields_is_a_json_400():
    """Django's ``TooManyFieldsSent`` (a SuspiciousOperation) would be its HTML 400 page."""
    client = client_for(OrganizerFactory())
    body = "&".join(f"f{index}=1" for index in range(1500))
    response = client.post("/api/v1/tournaments/", body, content_type="application/x-www-form-urlencoded")
    assert _assert_error_shape(response, 400)["detail"].startswith("too many fields in the request")


def test_decklist_over_the_length_limit_is_a_400_naming_the_limit():
    tournament = event_with_teams(2)
    player = tournament.players.first()
    client = client_for(tournament.created_by)
    text = "4 Lightning Bolt\n" * 1500
    response = client.post(
        f"/api/v1/tournaments/{tournament.pk}/decklists/",
        {"player": player.pk, "text": text},
        format="json",
    )
    body = _assert_error_shape(response, 400)
    assert body["detail"] == f"The list has {len(text)} characters; the limit is 20000."


def test_api_url_no_route_matches_is_a_json_404():
    """A negative id does not fit ``<int:...>``; Django answered its HTML page, now the error shape."""
    response = APIClient().get("/api/v1/matches/-1/")
    body = _assert_error_shape(response, 404)
    assert body["errors"] == [
        {"field": "path", "message": "no such API endpoint or object: /api/v1/matches/-1/"}
    ]
    assert Client().get("/no-such-page/")["Content-Type"].startswith("text/html")


def test_clock_refusal_and_decklist_403_are_documented():
    """The fuzzer found a 409 (turn before time is called) and a 403 (another team's list) the schema
    did not list."""
    paths = APIClient().get("/api/schema/?format=json").json()["paths"]
    assert {"400", "409"} <= set(paths["/api/v1/matches/{match_id}/turns/"]["post"]["responses"])
    detail = "/api/v1/tournaments/{tournament_id}/decklists/{decklist_id}/"
    assert "403" in paths[detail]["get"]["responses"]


@pytest.mark.parametrize("url", ["/api/v1/tournaments/", "/api/v1/auth/token/"])
def test_json_nested_too_deeply_is_a_400(url):
    """``json.loads`` raised RecursionError, which DRF's parser let through as a 500 (also on the
    token view, which pins its own parsers)."""
    client = client_for(OrganizerFactory())
    response = client.post(url, b"[" * 100_000 + b"]" * 100_000, content_type="application/json")
    assert _assert_error_shape(response, 400)["detail"] == "JSON parse error - nested too deeply"


def test_refusal_quoting_a_lone_surrogate_renders_escaped():
    """A ChoiceField refusal quotes the input; a lone surrogate could not be encoded as UTF-8 (500)."""
    client = client_for(OrganizerFactory())
    response = client.post("/api/v1/tournaments/", b'{"format": "\\ud800"}', content_type="application/json")
    assert response.status_code == 400
    assert b"\\ud800" in response.content
    assert {"field": "format", "message": '"\ud800" is not a valid choice.'} in response.json()["errors"]


@pytest.mark.parametrize("players", [7, [{"username": []}], [{"username": {"a": 1}}], "player"])
def test_team_registration_with_junk_players_is_refused_not_a_500(players):
    """The permission rule read ``players`` before validation: an int (not iterable) or a list
    username (unhashable) crashed it."""
    tournament = event_with_teams(1)
    client = client_for(OrganizerFactory())
    response = client.post(
        f"/api/v1/tournaments/{tournament.pk}/teams/", {"name": "Junk", "players": players}, format="json"
    )
    assert (
        _assert_error_shape(response, 403)["detail"] == "You do not have permission to perform this action."
    )
