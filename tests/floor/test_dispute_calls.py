"""A dispute raises a judge call: two teams' different reports put a call for that table in the
judges' queue (with its zone and both reports) and on the head judge's page; the call closes when
a judge or the scorekeeper settles the result."""

from __future__ import annotations

import pytest
from django.test import Client

from floor.models import JudgeCall
from floor.services.zones import zone_create
from tournaments.slips import slip_url

pytestmark = pytest.mark.django_db


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def report(ev, user, match, a_wins, b_wins, version, draws=0):
    url = f"/api/v1/matches/{match.pk}/result/"
    body = {"team_a_wins": a_wins, "team_b_wins": b_wins, "draws": draws, "version": version}
    return ev.client(user).put(url, body, format="json")


def test_conflicting_reports_call_a_judge_listed_with_its_zone_until_the_scorekeeper_settles(floor_event):
    ev = floor_event
    zone_create(tournament=ev.tournament, actor=ev.organizer, name="Front", first_table=1, last_table=2)
    match = ev.matches[0]
    assert report(ev, ev.players[0], match, 1, 0, 1).status_code == 200
    assert not JudgeCall.objects.exists()

    assert report(ev, ev.players[1], match, 0, 1, 2).status_code == 200

    queue = ev.client(ev.judge).get(f"/api/v1/tournaments/{ev.tournament.pk}/judge-calls/").json()
    assert [(c["table"], c["status"], c["zone"], c["raised_by"], c["reason"]) for c in queue] == [
        (1, "open", "Front", None, "dispute: Team 1 reported 1-0, Team 2 reported 0-1")
    ]
    page = browser(ev.judge).get(f"/events/{ev.tournament.pk}/floor/calls/").content.decode()
    assert "No open calls." not in page and "zone Front" in page
    assert "dispute: Team 1 reported 1-0, Team 2 reported 0-1" in page
    head = browser(ev.head_judge).get(f"/events/{ev.tournament.pk}/floor/head-judge/").content.decode()
    assert "dispute: Team 1 reported 1-0, Team 2 reported 0-1" in head
    player_page = browser(ev.players[0]).get(f"/events/{ev.tournament.pk}/me/").content.decode()
    assert "A judge will come to your table." in player_page

    # A second disagreement keeps one call, with the reports as they now stand.
    assert report(ev, ev.players[0], match, 0, 0, 3, draws=1).status_code == 200
    assert list(JudgeCall.objects.values_list("reason", flat=True)) == [
        "dispute: Team 1 reported 0-0-1, Team 2 reported 0-1"
    ]

    assert report(ev, ev.scorekeeper, match, 1, 0, 4).status_code == 200
    settled = ev.client(ev.judge).get(f"/api/v1/tournaments/{ev.tournament.pk}/judge-calls/").json()
    assert [c["status"] for c in settled] == ["closed"]
    assert (
        "No open calls." in browser(ev.judge).get(f"/events/{ev.tournament.pk}/floor/calls/").content.decode()
    )


def test_a_slip_report_against_a_players_report_calls_a_judge_too(floor_event, settings):
    ev = floor_event
    match = ev.matches[1]
    assert report(ev, ev.players[2], match, 1, 0, 1).status_code == 200
    path = slip_url(match).removeprefix(settings.PUBLIC_URL)

    Client().post(path, {"result": "ours", "side": "B", "version": 2})

    call = JudgeCall.objects.get()
    assert (call.match_id, call.raised_by, call.reason) == (
        match.pk,
        None,
        "dispute: Team 3 reported 1-0, Team 4 reported 0-1",
    )


def test_a_judge_settling_the_dispute_at_the_table_closes_its_call_and_the_players_read_the_result(
    floor_event,
):
    """The judge who comes to the table enters the result from the end-of-round console (the judge
    is not scorekeeping staff): the call closes, and the players' page says what was settled."""
    ev = floor_event
    match = ev.matches[2]
    assert report(ev, ev.players[4], match, 1, 0, 1).status_code == 200
    assert report(ev, ev.players[5], match, 0, 1, 2).status_code == 200
    calls = f"/api/v1/tournaments/{ev.tournament.pk}/judge-calls/"
    assert [c["status"] for c in ev.client(ev.judge).get(calls).json()] == ["open"]

    settled = browser(ev.judge).post(
        f"/events/{ev.tournament.pk}/floor/result/{match.pk}/",
        {"result": "b", "version": 3, "next": f"/events/{ev.tournament.pk}/floor/end-of-round/"},
    )

    assert settled.status_code == 302
    assert [c["status"] for c in ev.client(ev.judge).get(calls).json()] == ["closed"]
    queue = browser(ev.judge).get(f"/events/{ev.tournament.pk}/floor/calls/").content.decode()
    assert "No open calls." in queue
    head = browser(ev.head_judge).get(f"/events/{ev.tournament.pk}/floor/head-judge/").content.decode()
    assert "dispute: Team 5 reported 1-0, Team 6 reported 0-1" not in head
    for player in ev.players[4:6]:
        page = browser(player).get(f"/events/{ev.tournament.pk}/me/").content.decode()
        assert "Confirmed: Team 6 won." in page and "A judge will come to your table." not in page


def test_settling_the_result_stamps_when_the_dispute_call_closed(floor_event):
    """A dispute call closed by the settled result says when it closed (the head judge's response
    times count it), through the API as in the database."""
    ev = floor_event
    match = ev.matches[0]
    assert report(ev, ev.players[0], match, 1, 0, 1).status_code == 200
    assert report(ev, ev.players[1], match, 0, 1, 2).status_code == 200
    assert JudgeCall.objects.get().resolved_at is None

    assert report(ev, ev.scorekeeper, match, 1, 0, 3).status_code == 200

    call = JudgeCall.objects.get()
    assert call.resolved_at is not None and call.resolved_at >= call.created_at
    calls = ev.client(ev.judge).get(f"/api/v1/tournaments/{ev.tournament.pk}/judge-calls/").json()
    assert [(c["status"], c["resolved_at"] is not None) for c in calls] == [("closed", True)]
