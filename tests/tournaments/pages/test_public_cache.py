"""Public pages are rendered once per change of their event: the next reader gets the stored page
without a query, a reader who has it gets a 304, and every write that changes what they show
(publish, a result, a drop, a penalty) gets the next reader a fresh page."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.middleware.locale import LocaleMiddleware
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from penalties.services import penalty_issue
from tests.tournaments.pages.builders import TEAMS, build_event, client_for
from tournaments.enums import Rel
from tournaments.live import generation
from tournaments.services.participation import team_drop
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair, round_publish

pytestmark = pytest.mark.django_db


def page(client, event, name="tournament-public", **params):
    return client.get(reverse(name, args=[event.id]), params)


@pytest.fixture
def published(event, organizer):
    return round_publish(round_row=round_pair(tournament=event, actor=organizer), actor=organizer)


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("tournament-public", {}),
        ("tournament-public", {"q": "jade wu"}),
        ("tournament-pairings", {"tables": "1-50"}),
        ("tournament-pairings", {"names": "A-F"}),
        ("tournament-standings", {}),
        ("tournament-pairings-projector", {}),
    ],
)
def test_the_next_reader_gets_the_stored_page_without_a_query(client, event, published, name, params):
    first = page(client, event, name, **params)
    assert first.status_code == 200
    if params:  # a page with a query is stored from its second request (page_cache._asked_before)
        assert page(client, event, name, **params).content == first.content
    with CaptureQueriesContext(connection) as queries:
        second = page(client, event, name, **params)
    assert second.status_code == 200
    assert second.content == first.content
    assert len(queries) == 0
    assert second["ETag"] == first["ETag"]
    assert "public" in second["Cache-Control"] and "max-age=2" in second["Cache-Control"]
    assert "Cookie" in second["Vary"]
    assert "Set-Cookie" not in second.headers


def test_a_reader_who_has_the_page_gets_304(client, event, published):
    first = page(client, event)
    again = client.get(reverse("tournament-public", args=[event.id]), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert again.content == b""
    since = client.get(
        reverse("tournament-public", args=[event.id]), HTTP_IF_MODIFIED_SINCE=first["Last-Modified"]
    )
    assert since.status_code == 304


def test_the_same_search_typed_differently_shares_one_stored_answer(client, event, published):
    page(client, event, q="Jade Wu")
    first = page(client, event, q="jade wu")  # stored from its second request
    with CaptureQueriesContext(connection) as queries:
        second = page(client, event, q="  JADE   wu ")
    assert len(queries) == 0
    assert second["ETag"] == first["ETag"]


def test_publishing_a_round_moves_the_event_on(client, event, organizer):
    paired = round_pair(tournament=event, actor=organizer)
    before = page(client, event)
    assert "Round 1 pairings" not in before.text
    round_publish(round_row=paired, actor=organizer)
    after = page(client, event)
    assert "Round 1 pairings" in after.text
    assert after["ETag"] != before["ETag"]
    stale = client.get(reverse("tournament-public", args=[event.id]), HTTP_IF_NONE_MATCH=before["ETag"])
    assert stale.status_code == 200


def test_a_result_refreshes_the_find_answer_and_the_standings(client, event, organizer, published):
    match = published.matches.exclude(table=None).select_related("team_a").first()
    name = match.team_a.players.first().name
    before = page(client, event, q=name)
    assert "Record 0-0-0" in before.text
    match_result_report(match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=1)
    after = page(client, event, q=name)
    assert "Record 1-0-0 · 3 MP" in after.text
    for other in published.matches.exclude(table=None).exclude(pk=match.pk):
        match_result_report(match=other, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=1)
    assert "Standings after round 1" in page(client, event).text
    assert match.team_a.name in page(client, event, "tournament-standings", q=name).text


def test_a_drop_refreshes_the_standings_page(client, event, organizer, published):
    for match in published.matches.exclude(table=None):
        match_result_report(match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=1)
    team = published.matches.get(table=1).team_b
    assert "dropped</span>" not in page(client, event, "tournament-standings").text
    team_drop(team=team, actor=organizer, reason="left for the train")
    assert "dropped</span>" in page(client, event, "tournament-standings").text


def test_a_match_point_penalty_refreshes_the_standings(client, organizer):
    event = build_event(organizer, TEAMS[:6], rel=Rel.COMPETITIVE)
    published = round_publish(round_row=round_pair(tournament=event, actor=organizer), actor=organizer)
    for match in published.matches.exclude(table=None):
        match_result_report(match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=1)
    assert '<th class="num">Penalty</th>' not in page(client, event, "tournament-standings").text
    moved = generation(event.id)
    penalty_issue(
        tournament=event,
        actor=organizer,
        player=published.matches.get(table=1).team_a.players.first(),
        round_row=published,
        infraction="TE-DLP",
        description="decklist error found at a deck check",
        context={"found_during_deck_check": True},
    )
    assert generation(event.id) != moved
    assert '<th class="num">Penalty</th>' in page(client, event, "tournament-standings").text


def test_a_signed_in_reader_gets_their_own_private_page(event, organizer, published, client):
    anonymous = page(client, event)
    staff = page(client_for(organizer), event)
    assert "Manage" in staff.text and "Manage" not in anonymous.text
    assert "private" in staff["Cache-Control"] and "public" not in staff["Cache-Control"]
    assert "ETag" not in staff.headers  # their page carries their CSRF token, new each time


def test_the_generation_endpoint_answers_304_until_the_event_moves(client, event, organizer):
    url = reverse("tournament-live", args=[event.id])
    first = client.get(url)
    assert first.status_code == 200 and first["Cache-Control"] == "no-cache"
    with CaptureQueriesContext(connection) as queries:
        quiet = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert quiet.status_code == 304 and len(queries) == 0
    round_pair(tournament=event, actor=organizer)
    moved = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert moved.status_code == 200
    assert moved.json()["generation"] != first.json()["generation"]


def test_a_bad_range_is_a_400_naming_the_parameter(client, event, published):
    response = page(client, event, "tournament-pairings", tables="1-²")
    assert response.status_code == 400
    assert "tables" in response.text
    assert page(client, event, "tournament-standings", page="99").status_code == 404


def test_a_time_extension_shows_on_the_tables_find_answer(client, event, organizer, published):
    from clock.services import time_extension_grant

    match = published.matches.exclude(table=None).select_related("team_b").first()
    name = match.team_b.players.first().name
    assert "Time extension" not in page(client, event, q=name).text
    time_extension_grant(match=match, actor=organizer, minutes=4, reason="deck check")
    answer = page(client, event, q=name).text
    assert f'id="extension-{match.table}"' in answer
    assert "Time extension: +4 minutes" in answer


def test_a_reader_served_the_stored_page_can_change_its_language(event, published):
    """The stored page is the same bytes for every reader, so its language switcher cannot carry
    the first reader's CSRF token: a second reader, with no cookie at all, must still switch."""
    first = Client().get(reverse("tournament-public", args=[event.id]))  # stores the page
    assert "Set-Cookie" not in first.headers  # a token rendered into shared bytes would set one
    second = Client(enforce_csrf_checks=True)
    stored = second.get(reverse("tournament-public", args=[event.id]))
    assert "Set-Cookie" not in stored.headers
    form = re.search(rb'<form method="(\w+)" action="([^"]+)" class="language-switcher"', stored.content)
    assert form is not None
    method, action = form.group(1).decode(), form.group(2).decode()
    path = reverse("tournament-public", args=[event.id])
    answer = getattr(second, method)(action, {"language": "ja", "next": path})
    assert answer.status_code == 302
    assert answer["Location"] == path
    assert second.get(path).headers["Content-Language"] == "ja"


class CountedCalls:
    """Counts how many of the test client's requests reached the long way's session and language
    middleware: a page an earlier browser test left open in this process still polls the live
    server (a player's table clock), and those are not this test's readers."""

    def __init__(self, monkeypatch):
        self.count = 0
        original = LocaleMiddleware.process_request

        def counted(middleware, request):
            if request.META.get("SERVER_NAME") == "testserver":
                self.count += 1
            return original(middleware, request)

        monkeypatch.setattr(LocaleMiddleware, "process_request", counted)


def test_a_stored_page_is_answered_before_the_rest_of_the_middleware(event, published, monkeypatch):
    calls = CountedCalls(monkeypatch)
    url = reverse("tournament-pairings", args=[event.id])
    Client().get(url, {"tables": "1-50"})  # rendered the long way, not stored: asked once
    first = Client().get(url, {"tables": "1-50"})  # rendered the long way again; stored with its headers
    second = Client().get(url, {"tables": "1-50"})
    third = Client().get(url, {"tables": "1-50"}, HTTP_IF_NONE_MATCH=first["ETag"])

    assert calls.count == 2
    assert second.status_code == 200 and second.content == first.content
    drop = {"Date", "Content-Length"}
    assert {k: v for k, v in second.items() if k not in drop} == {
        k: v for k, v in first.items() if k not in drop
    }
    assert "Content-Security-Policy" in second and second["X-Frame-Options"] == "DENY"
    assert third.status_code == 304 and "Content-Security-Policy" in third
    assert "Set-Cookie" not in second.headers


def test_the_early_answer_is_in_the_readers_language(event, published, monkeypatch):
    calls = CountedCalls(monkeypatch)
    url = reverse("tournament-public", args=[event.id])
    english = [Client().get(url) for _ in range(2)]
    japanese = [Client(HTTP_ACCEPT_LANGUAGE="ja").get(url) for _ in range(2)]
    spanish_cookie = Client()
    spanish_cookie.cookies["django_language"] = "es"
    spanish = [spanish_cookie.get(url) for _ in range(2)]

    assert calls.count == 3  # one long way per language, then each one's stored page
    assert [page["Content-Language"] for page in english + japanese + spanish] == ["en"] * 2 + ["ja"] * 2 + [
        "es"
    ] * 2
    assert japanese[1].content == japanese[0].content != english[1].content


def test_a_reader_who_may_be_signed_in_takes_the_long_way(event, organizer, published, monkeypatch):
    calls = CountedCalls(monkeypatch)
    url = reverse("tournament-public", args=[event.id])
    Client().get(url)
    Client().get(url)
    staff = client_for(organizer)
    signed_in = staff.get(url)
    token = Client(HTTP_AUTHORIZATION="Token abc").get(url)

    assert calls.count == 3
    assert "Manage" in signed_in.text and "private" in signed_in["Cache-Control"]
    assert token.status_code == 200


def test_a_stored_page_is_not_answered_early_for_a_host_not_allowed(event, published):
    url = reverse("tournament-public", args=[event.id])
    Client().get(url)
    Client().get(url)
    assert Client().get(url, HTTP_HOST="evil.example").status_code == 400


def test_a_change_to_the_event_takes_the_next_reader_the_long_way(event, organizer, published, monkeypatch):
    for match in published.matches.exclude(table=None):
        match_result_report(match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=1)
    calls = CountedCalls(monkeypatch)
    url = reverse("tournament-standings", args=[event.id])
    before = [Client().get(url) for _ in range(2)]
    team_drop(team=published.matches.get(table=1).team_b, actor=organizer, reason="left for the train")
    after = Client().get(url)

    assert calls.count == 2
    assert "dropped</span>" not in before[1].text
    assert "dropped</span>" in after.text


def test_the_live_check_is_answered_before_the_rest_of_the_middleware(event, published, monkeypatch):
    calls = CountedCalls(monkeypatch)
    url = reverse("tournament-live", args=[event.id])
    first = Client().get(url)
    quiet = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    signed_in = Client()
    signed_in.cookies["sessionid"] = "whatever"
    long_way = signed_in.get(url, HTTP_IF_NONE_MATCH=first["ETag"])

    assert (first.status_code, quiet.status_code, long_way.status_code) == (200, 304, 304)
    assert calls.count == 1
