"""Refusals the pure cores write (``N_``, common/translatable.py) reach the API in the request's
language (issue #18: "the API's 400 ``detail`` arrives in Spanish for ``Accept-Language: es``"),
and a decklist's stored line errors are given in the language of whoever reads them."""

from __future__ import annotations

import pytest
from django.test import Client

from decklists.services import MAX_CHARS, decklist_submit
from tests.factories import (
    MatchFactory,
    RoundFactory,
    StaffFactory,
    TeamFactory,
    TournamentFactory,
    UserFactory,
)
from tests.tournaments.factories import client_for, event_with_teams
from tournaments.enums import StaffRole
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def test_a_pairing_refusal_is_in_spanish():
    tournament = event_with_teams(1, swiss_rounds=3)

    response = client_for(tournament.created_by).post(
        f"/api/v1/tournaments/{tournament.pk}/rounds/", {}, format="json", HTTP_ACCEPT_LANGUAGE="es"
    )

    assert response.status_code == 409
    assert response.json()["detail"] == "la ronda 1 necesita al menos dos equipos activos; hay 1"


def test_a_penalty_rule_refusal_is_in_spanish_and_in_english_for_english():
    match = MatchFactory(round=RoundFactory(tournament=TournamentFactory()), table=1)
    head_judge = StaffFactory(tournament=match.round.tournament, role=StaffRole.HEAD_JUDGE).user
    player = match.team_a.players.first()
    body = {
        "player": player.pk,
        "round": 1,
        "infraction": "TE-SP",
        "description": "x",
        "penalty": "game_loss",
    }
    url = f"/api/v1/tournaments/{match.round.tournament.pk}/penalties/"

    spanish = client_for(head_judge).post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="es")
    english = client_for(head_judge).post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="en")

    assert spanish.status_code == 400
    assert spanish.json() == {
        "detail": "Una desviación necesita un motivo",
        "errors": [{"field": "reason", "message": "una desviación necesita un motivo"}],
    }
    assert english.json()["detail"] == "A deviation needs a reason"


def test_a_team_name_refusal_is_in_spanish_on_its_field():
    tournament = event_with_teams(0, swiss_rounds=3)
    body = {
        "name": "Team Bastard",
        "players": [
            {"name": "Ana Ruiz", "wizards_id": "ana@example.org"},
            {"name": "Luis Gil", "wizards_id": "luis@example.org"},
        ],
    }

    response = client_for(tournament.created_by).post(
        f"/api/v1/tournaments/{tournament.pk}/teams/", body, format="json", HTTP_ACCEPT_LANGUAGE="es"
    )

    assert response.status_code == 400
    message = "el nombre del equipo contiene una palabra de la lista de palabras ofensivas del evento"
    assert {"field": "name", "message": message} in response.json()["errors"]
    assert f"nombre del equipo: {message}" in response.json()["detail"]


def _deck_event():
    """An event before round 1 (lists open) and a player with an account."""
    tournament = TournamentFactory()
    player = TeamFactory(tournament=tournament).players.first()
    user = UserFactory()
    Player.objects.filter(pk=player.pk).update(user=user)
    return tournament, player, user


def test_a_deck_error_naming_a_card_and_its_line_is_given_in_the_readers_language():
    tournament, player, user = _deck_event()
    url = f"/api/v1/tournaments/{tournament.pk}/decklists/"
    text = "56 Mountain\n\n4 Lightnig Bolt\n"

    submitted = client_for(user).post(
        url, {"player": player.pk, "text": text}, format="json", HTTP_ACCEPT_LANGUAGE="es"
    )
    read_in_english = client_for(user).get(f"{url}{submitted.json()['id']}/", HTTP_ACCEPT_LANGUAGE="en")
    read_in_japanese = client_for(user).get(f"{url}{submitted.json()['id']}/", HTTP_ACCEPT_LANGUAGE="ja")

    assert submitted.status_code == 201
    [error] = submitted.json()["errors"]
    assert (error["line"], error["card"]) == (3, "Lightnig Bolt")
    assert error["message"] == (
        "Línea 3: carta desconocida 'Lightnig Bolt' "
        "(¿quisiste decir 'Lightning Bolt' o 'Lightning Colt' o 'Lightning Blast'?)."
    )
    [english] = read_in_english.json()["versions"][0]["errors"]
    assert english["message"] == (
        "Line 3: unknown card 'Lightnig Bolt' "
        "(did you mean 'Lightning Bolt' or 'Lightning Colt' or 'Lightning Blast'?)."
    )
    [japanese] = read_in_japanese.json()["versions"][0]["errors"]
    assert japanese["message"].startswith("3行目: 不明なカード 'Lightnig Bolt'")


def test_a_decklist_refused_outright_says_why_in_spanish():
    tournament, player, user = _deck_event()

    response = client_for(user).post(
        f"/api/v1/tournaments/{tournament.pk}/decklists/",
        {"player": player.pk, "text": "4 Island\n" * (MAX_CHARS // 9 + 1)},
        format="json",
        HTTP_ACCEPT_LANGUAGE="es",
    )

    assert response.status_code == 400
    assert response.json()["detail"].startswith("La lista tiene ")
    assert response.json()["detail"].endswith(f"el límite es {MAX_CHARS}.")


def test_the_judge_page_shows_a_stored_line_error_in_the_readers_language():
    tournament, player, _user = _deck_event()
    judge = StaffFactory(tournament=tournament, role=StaffRole.JUDGE).user
    decklist_submit(tournament=tournament, actor=judge, player=player, text="4 Lightnig Bolt")
    client = Client()
    client.force_login(judge)
    url = f"/events/{tournament.pk}/decklists/judge/?team={player.team_id}"

    spanish = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert (
        "<li>Línea 1: «4 Lightnig Bolt» — carta desconocida &#x27;Lightnig Bolt&#x27; (¿quisiste" in spanish
    )
    assert "<li>Line 1: «4 Lightnig Bolt» — unknown card &#x27;Lightnig Bolt&#x27; (did you mean" in english


@pytest.mark.parametrize(
    ("language", "role", "expected"),
    [
        ("es", None, "tu cuenta no forma parte de su personal"),
        ("es", StaffRole.JUDGE, "eres su juez"),
        ("ja", None, "スタッフではありません"),
    ],
)
def test_a_staff_page_refused_says_why_in_the_readers_language(language, role, expected):
    from django.urls import reverse

    from tests.tournaments.pages.builders import client_for as page_client

    tournament = event_with_teams(2)
    reader = UserFactory()
    if role:
        StaffFactory(tournament=tournament, user=reader, role=role)
    client = page_client(reader)

    printing = client.get(reverse("documents-print", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE=language)
    settings_page = client.get(
        reverse("tournament-settings", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE=language
    )

    assert settings_page.status_code == 403
    assert expected in settings_page.content.decode()
    assert "This page of" not in settings_page.content.decode()
    if role is None:
        assert printing.status_code == 403
        assert expected in printing.content.decode()


def test_an_impossible_result_is_refused_in_spanish():
    from tournaments.services.rounds import round_pair

    tournament = event_with_teams(4, swiss_rounds=3)
    match = round_pair(tournament=tournament, actor=tournament.created_by).matches.exclude(table=None).first()

    response = client_for(tournament.created_by).put(
        f"/api/v1/matches/{match.pk}/result/",
        {"team_a_wins": 2, "team_b_wins": 1, "draws": 0, "version": match.version},
        format="json",
        HTTP_ACCEPT_LANGUAGE="es",
    )

    assert response.status_code == 400
    assert response.json()["detail"].startswith("Resultado imposible: ")
