"""The laptop's side of a mirror: started through the API or the page, pushed by the worker's sweep.

The server is this test's live server (same database: the copy is a second event next to the
laptop's), reached over real HTTP; a "silent server" accepts connections and never answers.
"""

from __future__ import annotations

import datetime as dt
import re
import socket

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.utils import timezone
from rest_framework.authtoken.models import Token

from event_io.mirror_push import mirror_start, mirror_sweep
from event_io.models import MirroredEvent, MirrorTarget
from event_io.tasks import mirror_sweep_task
from tests.event_io.test_mirror_copy import standings
from tests.factories import UserFactory
from tests.tournaments.factories import client_for, event_with_teams
from tournaments.models import Match
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair, round_publish


def laptop_event(name: str = "Friday 2HG"):
    tournament = event_with_teams(6, name=name, swiss_rounds=3, top_cut=0)
    first = round_pair(tournament=tournament, actor=tournament.created_by)
    round_publish(round_row=first, actor=tournament.created_by)
    return tournament, first


def public_standings(tournament_id: int) -> tuple[list[dict], str]:
    """What anyone reads: the standings API's lines (without ids, which differ between the laptop
    and the server) and the standings page's table as text."""
    lines = client_for(None).get(f"/api/v1/tournaments/{tournament_id}/standings/").json()
    page = Client().get(f"/events/{tournament_id}/standings/").content.decode()
    table = re.search(r"<table.*?</table>", page, re.S)
    assert table is not None, "no standings table on the page"
    text = " ".join(re.sub(r"<[^>]+>", " ", table.group(0)).split())
    return [{k: v for k, v in line.items() if k not in ("team", "team_id")} for line in lines], text


def enter_results(round_row) -> None:
    for match in Match.objects.filter(round=round_row, team_b__isnull=False):
        match_result_report(
            match=match,
            actor=round_row.tournament.created_by,
            team_a_wins=1,
            team_b_wins=0,
            draws=0,
            version=1,
        )


@pytest.mark.django_db
def test_the_organizer_starts_reads_and_stops_a_mirror_through_the_api():
    tournament, _first = laptop_event()
    api = client_for(tournament.created_by)
    url = f"/api/v1/tournaments/{tournament.pk}/mirror/"

    nothing = api.get(url)
    started = api.post(url, {"url": "https://events.example.org/", "token": "abc123"}, format="json")
    read = api.get(url)
    stopped = api.delete(url)

    assert nothing.status_code == 404
    assert started.status_code == 200
    assert read.json() == {
        "url": "https://events.example.org",
        "remote_id": None,
        "last_pushed_at": None,
        "last_error": None,
        "up_to_date": False,
    }
    assert "token" not in read.json()
    assert stopped.status_code == 204 and api.get(url).status_code == 404
    assert client_for(UserFactory()).get(url).status_code == 403


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://events.example.org", "use https://"),
        ("ftp://events.example.org", "must start with https://"),
        ("https://events.example.org/?x=1", "no query"),
    ],
)
def test_a_server_address_that_would_leak_the_token_is_refused(url, message):
    tournament, _first = laptop_event()

    answer = client_for(tournament.created_by).post(
        f"/api/v1/tournaments/{tournament.pk}/mirror/", {"url": url, "token": "abc"}, format="json"
    )

    assert answer.status_code == 400
    assert message in answer.json()["detail"] and answer.json()["errors"][0]["field"] == "url"
    assert not MirrorTarget.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_results_entered_on_the_laptop_reach_the_servers_standings(live_server):
    tournament, first = laptop_event("Mirrored Friday")
    server_account = UserFactory(is_staff=True)
    token = Token.objects.create(user=server_account).key
    client_for(tournament.created_by).post(
        f"/api/v1/tournaments/{tournament.pk}/mirror/",
        {"url": live_server.url, "token": token},
        format="json",
    )

    assert mirror_sweep() == 1
    copy_id = MirroredEvent.objects.get().tournament_id
    target = MirrorTarget.objects.get()
    assert (target.remote_id, target.last_error, target.sequence) == (copy_id, None, 1)
    assert mirror_sweep() == 0  # nothing changed, pushed less than a minute ago

    enter_results(first)
    assert standings(copy_id) != standings(tournament.pk)
    assert mirror_sweep() == 1

    assert standings(copy_id) == standings(tournament.pk)
    assert public_standings(copy_id) == public_standings(tournament.pk)
    assert MirroredEvent.objects.get().sequence == 2
    later = timezone.now() + dt.timedelta(seconds=61)
    assert mirror_sweep(now=later) == 1  # at least every minute, changed or not
    settings_page = Client()
    settings_page.force_login(tournament.created_by)
    assert "Mirror last updated" in settings_page.get(f"/events/{tournament.pk}/settings/").content.decode()

    # The laptop's database restored from an older backup: its push numbers are behind the copy's.
    MirrorTarget.objects.update(sequence=1, pushed_generation=None)
    assert mirror_sweep(now=later) == 1
    behind = MirrorTarget.objects.get()
    assert (behind.sequence, behind.failures, behind.next_attempt_at) == (3, 1, None)
    assert "is not newer than the copy here (push 3)" in behind.error_text()
    assert mirror_sweep(now=later) == 1
    assert MirroredEvent.objects.get().sequence == 4 and MirrorTarget.objects.get().last_error is None


@pytest.fixture
def silent_server():
    """A server that accepts connections (the kernel's backlog) and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    listener.close()


@pytest.mark.django_db
@override_settings(MIRROR_PUSH_TIMEOUT=1)
def test_a_silent_server_fails_the_push_not_the_results_and_the_pushes_back_off(silent_server):
    tournament, first = laptop_event()
    mirror_start(tournament=tournament, url=silent_server, token="abc")

    started = timezone.now()
    enter_results(first)  # a write never waits on the server: it is not even contacted
    entry = timezone.now() - started
    swept = mirror_sweep()
    failed_at = timezone.now()

    target = MirrorTarget.objects.get()
    assert swept == 1 and entry < dt.timedelta(seconds=1)
    assert target.error_text() == "the server did not answer within 1 s"
    assert target.failures == 1 and target.last_pushed_at is None
    assert dt.timedelta(seconds=4) < target.next_attempt_at - failed_at <= dt.timedelta(seconds=5)
    assert mirror_sweep() == 0  # backing off
    mirror_sweep(now=target.next_attempt_at)
    target.refresh_from_db()
    assert target.failures == 2
    assert dt.timedelta(seconds=9) < target.next_attempt_at - timezone.now() <= dt.timedelta(seconds=10)
    page = Client()
    page.force_login(tournament.created_by)
    for url in (f"/events/{tournament.pk}/mirror/", f"/events/{tournament.pk}/settings/"):
        assert "The last push failed: the server did not answer within 1 s" in page.get(url).content.decode()


@pytest.mark.django_db
def test_the_mirror_page_starts_and_stops_mirroring_with_plain_forms():
    tournament, _first = laptop_event()
    page = Client()
    page.force_login(tournament.created_by)
    url = f"/events/{tournament.pk}/mirror/"

    refused = page.post(url, {"url": "http://192.168.1.20:8000", "token": "abc"})
    started = page.post(url, {"url": "https://events.example.org", "token": "abc"}, follow=True)
    stopped = page.post(url, {"action": "stop"}, follow=True)

    assert refused.status_code == 400 and "use https://" in refused.content.decode()
    assert started.status_code == 200 and "Waiting for the first push." in started.content.decode()
    assert "Mirroring stopped" in stopped.content.decode()
    assert not MirrorTarget.objects.get().active


def test_a_change_is_pushed_within_10_s():
    """The worker's beat looks for changed events every few seconds, and a push waits at most its
    timeout: a change made just after one sweep is on the server before 10 s have passed."""
    sweep = settings.CELERY_BEAT_SCHEDULE["mirror-push"]
    assert sweep["task"] == mirror_sweep_task.name
    assert sweep["schedule"] + settings.MIRROR_PUSH_TIMEOUT <= 10
