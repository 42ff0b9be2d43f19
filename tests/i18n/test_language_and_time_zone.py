"""Choosing a language (Accept-Language, the switcher) and the event settings ``language`` and
``time_zone`` (the clock's local time: tests/clock/test_clock_local_time.py)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings

from tests.factories import OrganizerFactory
from tests.tournaments.factories import client_for, event_with_teams
from tournaments.domain.choices import Language
from tournaments.domain.settings import settings_problems, time_zone_problem

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())).strip()


def test_the_shipped_languages_are_the_event_language_choices():
    assert [code for code, _ in settings.LANGUAGES] == Language.values == ["en", "es", "pt-br", "ja"]


def test_time_zone_check_takes_iana_names_only():
    assert time_zone_problem("Asia/Tokyo") is None
    assert time_zone_problem("America/Sao_Paulo") is None
    assert "unknown time zone 'Mars/Olympus'" in time_zone_problem("Mars/Olympus")
    assert time_zone_problem("../../etc/passwd") is not None
    assert settings_problems({"language": "fr"}) == [
        {"field": "language", "message": "must be one of en, es, pt-br, ja"}
    ]


def test_event_api_stores_and_answers_language_and_time_zone():
    event = event_with_teams(0, organizer=OrganizerFactory())
    client = client_for(event.created_by)
    response = client.post(
        "/api/v1/tournaments/",
        {"name": "Tokyo 2HG", "language": "ja", "time_zone": "Asia/Tokyo"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = client.get(f"/api/v1/tournaments/{response.json()['id']}/").json()
    assert (body["language"], body["time_zone"]) == ("ja", "Asia/Tokyo")
    assert (event.language, event.time_zone) == ("en", settings.TIME_ZONE)

    response = client.patch(f"/api/v1/tournaments/{event.pk}/", {"time_zone": "Asia/Tokio"}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "time_zone"
    response = client.patch(f"/api/v1/tournaments/{event.pk}/", {"language": "fr"}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "language"
    response = client.patch(
        f"/api/v1/tournaments/{event.pk}/",
        {"language": "pt-br", "time_zone": "America/Sao_Paulo"},
        format="json",
    )
    assert response.status_code == 200
    event.refresh_from_db()
    assert (event.language, event.time_zone) == ("pt-br", "America/Sao_Paulo")


def test_api_400_detail_arrives_in_the_request_language():
    event = event_with_teams(0, organizer=OrganizerFactory())
    client = client_for(event.created_by)
    response = client.post(
        "/api/v1/tournaments/", {"venue": "Madrid"}, format="json", HTTP_ACCEPT_LANGUAGE="es"
    )
    assert response.status_code == 400
    assert response["Content-Language"] == "es"
    assert response.json()["detail"] == "Solicitud no válida: name: Este campo es requerido."
    english = client.post("/api/v1/tournaments/", {"venue": "Ohio"}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["detail"] == "Invalid request: name: This field is required."


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("ja", ["ログイン", "チーム (2)", "ラウンドの時計", "次のラウンドが公開されると"]),
        ("es", ["Iniciar sesión", "Equipos (2)", "Reloj de la ronda", "Los emparejamientos aparecerán aquí"]),
        ("pt-br", ["Entrar", "Equipes (2)", "Relógio da rodada", "Os pareamentos aparecem aqui"]),
        ("en", ["Log in", "Teams (2)", "Round clock", "Pairings appear here"]),
    ],
)
def test_event_page_answers_in_the_accept_language(client, language, expected):
    event = event_with_teams(2)
    response = client.get(f"/events/{event.pk}/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert response["Content-Language"] == language
    assert f'<html lang="{language}">' in response.content.decode()
    body = text(response)
    for phrase in expected:
        assert phrase in body


def test_language_switcher_keeps_the_choice(client):
    event = event_with_teams(2)
    response = client.post("/i18n/setlang/", {"language": "ja", "next": f"/events/{event.pk}/"})
    assert (response.status_code, response["Location"]) == (302, f"/events/{event.pk}/")
    page = client.get(f"/events/{event.pk}/", HTTP_ACCEPT_LANGUAGE="es")
    assert "ログイン" in text(page)
    assert '<option value="ja" lang="ja" selected>日本語</option>' in page.content.decode()


def test_javascript_catalog_in_the_reader_and_event_language(client):
    reader = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="es")
    assert reader.status_code == 200 and "Esperando el inicio" in reader.content.decode()
    event = client.get("/jsi18n/pt-br/", HTTP_ACCEPT_LANGUAGE="es")
    assert "Aguardando o in" in event.content.decode() and "Esperando" not in event.content.decode()
    assert client.get("/jsi18n/xx/").status_code == 404


def test_projector_speaks_the_events_language_whatever_the_browser(client):
    event = event_with_teams(2, language="ja", time_zone="Asia/Tokyo")
    page = client.get(f"/events/{event.pk}/clock/", HTTP_ACCEPT_LANGUAGE="es")
    assert page.status_code == 200
    body = text(page)
    assert "まだラウンドがありません" in body and "時刻はAsia/Tokyo" in body
    assert 'src="/jsi18n/ja/"' in page.content.decode()
