"""Issue 27 part 1, the server's side: the installable app (manifest, root-scoped service worker,
the offline page) and the idempotency key that makes a report or judge call sent again by a phone
that lost the connection count once."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clock.services import round_start
from common.idempotency import idempotent
from common.models import IdempotentRequest
from floor.models import JudgeCall
from tests.browser.test_player_reporting import two_tables
from tests.factories import UserFactory
from tests.reliability.test_concurrency import at_once
from tests.tournaments.pages.builders import client_for
from tournaments.models import Match, Player, ResultReport

pytestmark = pytest.mark.django_db

User = get_user_model()


@pytest.fixture
def table(event, published_round):
    """Table 1 of round 1, with one logged-in player on each team."""
    match = Match.objects.filter(round=published_round, table=1).select_related("team_a", "team_b").get()
    players = {}
    for side, team in (("A", match.team_a), ("B", match.team_b)):
        player = Player.objects.filter(team=team).order_by("position").first()
        player.user = UserFactory()
        player.save(update_fields=["user"])
        players[side] = client_for(player.user)
    return match, players


def source_file(url: str) -> Path:
    """The static file a URL serves, also under the manifest storage's hashed names."""
    name = re.sub(r"\.[0-9a-f]{12}(\.\w+)$", r"\1", url.removeprefix(settings.STATIC_URL))
    return Path(settings.BASE_DIR) / "static" / name


def report(client, match, key, *, result="ours", version=1):
    url = reverse("tournament-me-report", args=[match.round.tournament_id, match.id])
    return client.post(url, {"result": result, "version": version, "idempotency_key": key})


def call(client, match, key):
    url = reverse("floor-call-raise", args=[match.round.tournament_id])
    me = reverse("tournament-me", args=[match.round.tournament_id])
    return client.post(url, {"match": match.id, "reason": "", "next": me}, HTTP_IDEMPOTENCY_KEY=key)


def test_a_report_sent_again_with_its_key_counts_once_and_gets_the_first_answer(table):
    match, players = table

    first = report(players["A"], match, "k-report-0001")
    again = report(players["A"], match, "k-report-0001")

    assert first.status_code == again.status_code == 302
    assert again["Location"] == first["Location"] and again["Idempotent-Replayed"] == "true"
    assert ResultReport.objects.filter(match=match).count() == 1
    assert Match.objects.get(pk=match.pk).version == 2


def test_a_judge_call_sent_again_with_its_key_is_raised_once(table):
    match, players = table

    first = call(players["A"], match, "k-call-00001")
    again = call(players["A"], match, "k-call-00001")

    assert first.status_code == again.status_code == 302
    assert JudgeCall.objects.filter(match=match).count() == 1
    # A new tap (a new key) is a new request: refused, since this player's call is still live.
    call(players["A"], match, "k-call-00002")
    assert JudgeCall.objects.filter(match=match).count() == 1


def test_a_report_queued_before_the_match_moved_on_is_refused_and_says_why(table):
    match, players = table
    report(players["B"], match, "k-report-b001", result="ours")  # the other team reported meanwhile

    late = report(players["A"], match, "k-report-a001", version=1)
    replayed = report(players["A"], match, "k-report-a001", version=1)

    assert late.status_code == replayed.status_code == 409
    assert "The result changed while you were looking" in late.text
    assert replayed.content == late.content
    assert ResultReport.objects.filter(match=match).count() == 1


def test_a_key_is_the_accounts_own_and_names_one_request(table):
    match, players = table
    report(players["A"], match, "k-shared-0001")

    other_account = report(players["B"], match, "k-shared-0001", result="theirs", version=2)
    other_address = call(players["A"], match, "k-shared-0001")
    malformed = report(players["A"], match, "no")

    assert other_account.status_code == 302  # B's own key: B's report is recorded
    assert Match.objects.get(pk=match.pk).confirmed
    assert other_address.status_code == 400 and "another request" in other_address.text
    assert malformed.status_code == 400 and "idempotency key" in malformed.text
    assert JudgeCall.objects.filter(match=match).count() == 0
    assert IdempotentRequest.objects.count() == 2


def test_without_a_key_the_forms_work_as_before(table):
    match, players = table
    url = reverse("tournament-me-report", args=[match.round.tournament_id, match.id])

    assert players["A"].post(url, {"result": "ours", "version": 1}).status_code == 302
    assert players["A"].post(url, {"result": "ours", "version": 1}).status_code == 409
    assert IdempotentRequest.objects.count() == 0


def test_the_service_worker_is_served_from_the_root_and_keeps_only_public_and_player_pages(client, event):
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"] and response["Service-Worker-Allowed"] == "/"
    config = json.loads(re.search(r"var CONFIG = (\{.*\});", response.text).group(1))
    patterns = [re.compile(source) for source in config["pages"]]
    kept = lambda path: any(p.search(path) for p in patterns)  # noqa: E731
    for path in (
        "/",
        f"/events/{event.id}/",
        f"/events/{event.id}/me/",
        f"/events/{event.id}/standings/",
        f"/events/{event.id}/rounds/2/",
        f"/events/{event.id}/clock/me/",
    ):
        assert kept(path), path
    for path in (f"/events/{event.id}/manage/", f"/events/{event.id}/settings/", "/dashboard/"):
        assert not kept(path), path
    for url in config["precache"]:
        if url.startswith(settings.STATIC_URL):
            assert source_file(url).is_file(), url
        else:
            assert client.get(url).status_code == 200, url
    assert config["offline"] == "/offline/"


def test_the_manifest_makes_the_site_installable(client):
    body = json.loads(client.get("/manifest.webmanifest").content)

    assert (body["scope"], body["start_url"], body["display"]) == ("/", "/", "standalone")
    sizes = {icon["sizes"] for icon in body["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in body["icons"]:
        assert source_file(icon["src"]).is_file(), icon
    page = client.get("/")
    assert 'rel="manifest" href="/manifest.webmanifest"' in page.text
    assert 'data-service-worker="/sw.js"' in page.text


def test_the_offline_page_and_the_players_table_clock(client, event, table, organizer):
    match, players = table
    assert "No connection" in client.get("/offline/").text
    round_start(round_row=match.round, actor=organizer, at=timezone.now() - timedelta(minutes=10))

    page = players["A"].get(reverse("tournament-me", args=[event.id])).text

    assert 'id="table-clock"' in page and f'data-table-row="{match.table}"' in page
    assert re.search(r'data-now="\d{4}-\d\d-\d\dT', page)
    # With JavaScript off the clock reads as rendered: 50 minutes, 10 gone.
    assert re.search(r'id="table-clock-remaining">(40:00|39:5\d) left<', page)
    assert re.search(r"js/outbox\.(\w+\.)?js", page) and re.search(r"js/clock\.(\w+\.)?js", page)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks and races need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_the_same_key_sent_twice_at_the_same_moment_makes_one_report():
    _event, tables = two_tables()
    match = tables[1]
    phone = Client()
    phone.force_login(User.objects.get(username="t1a"))
    url = reverse("tournament-me-report", args=[match.round.tournament_id, match.id])
    body = {"result": "ours", "version": 1, "idempotency_key": "k-race-00001"}

    responses = at_once(lambda: phone.post(url, body), lambda: phone.post(url, body))

    assert [r.status_code for r in responses] == [302, 302]
    assert ResultReport.objects.filter(match=match).count() == 1


def test_an_answer_of_500_or_more_keeps_nothing_so_the_phone_may_try_again(user):
    def failing(request):
        UserFactory(username="written-then-rolled-back")
        return HttpResponse("database unavailable", status=503)

    view = idempotent(failing)
    request = RequestFactory().post("/somewhere/", {"idempotency_key": "k-fail-00001"})
    request.user = user

    assert view(request).status_code == 503
    assert not IdempotentRequest.objects.exists()
    assert not User.objects.filter(username="written-then-rolled-back").exists()


def test_the_api_honours_the_key_for_a_token_client_too(table):
    match, _players = table
    player = Player.objects.filter(team=match.team_a).exclude(user=None).get()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=player.user).key}")
    result = {"team_a_wins": 1, "team_b_wins": 0, "draws": 0, "version": 1}
    url = f"/api/v1/matches/{match.id}/result/"

    first = api.put(url, result, format="json", HTTP_IDEMPOTENCY_KEY="k-api-result-1")
    again = api.put(url, result, format="json", HTTP_IDEMPOTENCY_KEY="k-api-result-1")
    calls_url = f"/api/v1/tournaments/{match.round.tournament_id}/judge-calls/"
    called = api.post(calls_url, {"match": match.id}, format="json", HTTP_IDEMPOTENCY_KEY="k-api-call-01")
    called_again = api.post(
        calls_url, {"match": match.id}, format="json", HTTP_IDEMPOTENCY_KEY="k-api-call-01"
    )

    assert first.status_code == again.status_code == 200
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert ResultReport.objects.filter(match=match).count() == 1
    assert called.status_code == called_again.status_code == 201
    assert called_again.json()["id"] == called.json()["id"]
    assert JudgeCall.objects.filter(match=match).count() == 1
    malformed = api.put(url, result, format="json", HTTP_IDEMPOTENCY_KEY="not a key")
    assert malformed.status_code == 400
    assert malformed.json()["errors"][0]["field"] == "Idempotency-Key"
