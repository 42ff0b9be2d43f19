"""The malformed requests the attack found answering 500 (issue 24, point 3), each a 4xx now that
says which parameter; the page fuzzer (tests/reliability/test_page_fuzz.py) covers every other."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.floor.conftest import build_floor_event
from tests.tournaments.factories import client_for as api_client_for

pytestmark = pytest.mark.django_db

HUGE = "1566942233533210932386201600"


@pytest.fixture
def floor():
    return build_floor_event(teams=4)


def _as(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


@pytest.mark.parametrize("value", ["abc", "²"])
def test_a_player_calling_a_judge_to_a_malformed_match(floor, value):
    response = _as(floor.players[0]).post(f"/events/{floor.tournament.pk}/floor/calls/new/", {"match": value})
    assert response.status_code == 400
    assert "match" in response.content.decode()


@pytest.mark.parametrize(
    ("name", "value"), [("player", "²"), ("match", "²"), ("penalty", "¹"), ("player", HUGE)]
)
def test_notes_about_a_malformed_id(floor, name, value):
    response = _as(floor.head_judge).get(f"/events/{floor.tournament.pk}/floor/notes/", {name: value})
    assert response.status_code == 400
    assert name in response.content.decode()


@pytest.mark.parametrize(
    ("path", "field", "judge"),
    [("floor/notes/", "lock", "head_judge"), ("floor/zones/", "delete", "organizer")],
)
def test_a_malformed_note_to_lock_or_zone_to_delete(floor, path, field, judge):
    response = _as(getattr(floor, judge)).post(f"/events/{floor.tournament.pk}/{path}", {field: "abc"})
    assert response.status_code == 400
    assert field in response.content.decode()


def test_linking_a_malformed_player(floor):
    team = floor.teams[0]
    response = _as(floor.organizer).post(
        f"/events/{floor.tournament.pk}/teams/{team.pk}/link/", {"player": "abc", "username": "x"}
    )
    assert response.status_code == 400


def test_options_on_the_api_docs():
    response = Client(raise_request_exception=False).options("/api/docs/")
    assert response.status_code == 200
    assert "GET" in response["Allow"]


def test_penalties_filtered_by_numbers_past_any_column(floor):
    response = api_client_for(floor.head_judge).get(
        f"/api/v1/tournaments/{floor.tournament.pk}/penalties/", {"player": HUGE, "round": "12530481"}
    )
    assert response.status_code == 400
    fields = {error["field"] for error in response.json()["errors"]}
    assert {"player", "round"} <= fields


@pytest.mark.parametrize("code", ["²", HUGE, "1-" + HUGE, "/slip/" + HUGE + "/abc"])
def test_a_slip_code_naming_no_table_is_a_404_page(floor, code):
    response = _as(floor.organizer).get(f"/events/{floor.tournament.pk}/slips/", {"code": code})
    assert response.status_code == 404
    assert "No table of this event has the slip code" in response.content.decode()


def test_pool_entries_in_other_digits_are_ignored(floor):
    response = _as(floor.organizer).post(
        f"/events/{floor.tournament.pk}/pool/form-by-hand/", {"entry": ["²", "¹"]}
    )
    assert response.status_code in (302, 400, 409)


def test_deleting_a_round_with_a_penalty_is_a_409_that_says_why(floor):
    from penalties.services import penalty_issue

    penalty_issue(
        tournament=floor.tournament,
        actor=floor.head_judge,
        player=floor.player_row(0),
        round_row=floor.round,
        infraction="TE-SP",
        description="slow play",
        context={},
    )
    response = _as(floor.organizer).post(f"/events/{floor.tournament.pk}/rounds/{floor.round.pk}/delete/")
    assert response.status_code == 409
    assert "has penalties recorded" in response.content.decode()
    assert floor.round.__class__.objects.filter(pk=floor.round.pk).exists()


def test_a_player_name_or_wizards_account_past_its_column_is_a_400_not_a_database_error(floor):
    from tests.factories import UserFactory
    from tournaments.models import Team

    captain = UserFactory()
    response = _as(captain).post(
        f"/events/{floor.tournament.pk}/me/team/",
        {"team_name": "Long Names", "player_name": "x" * 100_000, "wizards_id": "w" * 300},
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "at most 100 characters" in body and "at most 254 characters" in body
    assert not Team.objects.filter(name="Long Names").exists()
    pool = _as(captain).post(f"/events/{floor.tournament.pk}/pool/join/", {"wizards_id": "w" * 300})
    assert pool.status_code == 400


@pytest.mark.parametrize("reason", ["a\x00b", "r" * 100_000])
def test_a_decklist_entered_with_a_reason_it_cannot_store_is_refused(floor, reason):
    from decklists.models import DecklistVersion

    player = floor.player_row(0)
    response = _as(floor.head_judge).post(
        f"/events/{floor.tournament.pk}/decklists/players/{player.pk}/",
        {"text": "4 Lightning Bolt", "reason": reason},
        follow=True,
    )
    assert response.status_code == 200
    assert "was not saved" in response.content.decode()
    assert not DecklistVersion.objects.filter(decklist__player=player).exists()
