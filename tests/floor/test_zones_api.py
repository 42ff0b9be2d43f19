"""Zones and the end-of-round console: only the zone's tables, ordered by their own end."""

from __future__ import annotations

import datetime

import pytest

from clock.services import match_time_call, match_turn_complete, time_extension_grant
from floor.models import Zone
from tournaments.services.results import match_result_report

pytestmark = pytest.mark.django_db


def zones_url(ev) -> str:
    return f"/api/v1/tournaments/{ev.tournament.pk}/zones/"


def console(ev, user, zone_id=None, number=1):
    query = f"?zone={zone_id}" if zone_id is not None else ""
    return ev.client(user).get(f"/api/v1/tournaments/{ev.tournament.pk}/rounds/{number}/end-of-round/{query}")


def test_organizer_adds_zones_with_their_judges(floor_event):
    ev = floor_event
    response = ev.client(ev.organizer).post(
        zones_url(ev),
        {
            "name": "Front",
            "first_table": 1,
            "last_table": 2,
            "judges": [ev.judge.username, ev.head_judge.username],
        },
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert (body["name"], body["first_table"], body["last_table"]) == ("Front", 1, 2)
    assert sorted(body["judges"]) == sorted([ev.judge.username, ev.head_judge.username])
    listed = ev.client(ev.scorekeeper).get(zones_url(ev)).json()
    assert [(z["name"], z["first_table"], z["last_table"]) for z in listed] == [("Front", 1, 2)]


def test_zones_may_not_overlap_and_judges_must_judge_here(floor_event):
    ev = floor_event
    ev.client(ev.organizer).post(
        zones_url(ev), {"name": "Front", "first_table": 1, "last_table": 40}, format="json"
    )
    overlap = ev.client(ev.organizer).post(
        zones_url(ev), {"name": "Back", "first_table": 40, "last_table": 80}, format="json"
    )
    assert overlap.status_code == 400
    assert overlap.json()["detail"] == "tables 40-40 are already in zone 'Front' (1-40)"
    reversed_range = ev.client(ev.organizer).post(
        zones_url(ev), {"name": "Back", "first_table": 80, "last_table": 41}, format="json"
    )
    assert (reversed_range.status_code, reversed_range.json()["errors"][0]["field"]) == (400, "last_table")
    stranger = ev.client(ev.organizer).post(
        zones_url(ev),
        {"name": "Back", "first_table": 41, "last_table": 80, "judges": [ev.foreign_judge.username]},
        format="json",
    )
    assert (stranger.status_code, stranger.json()["errors"][0]["field"]) == (400, "judges[0]")
    assert (
        ev.client(ev.scorekeeper)
        .post(zones_url(ev), {"name": "Side", "first_table": 81, "last_table": 90}, format="json")
        .status_code
        == 403
    )
    assert Zone.objects.count() == 1


def test_zone_console_shows_only_its_tables_ordered_by_their_own_end(floor_event):
    ev = floor_event
    front = (
        ev.client(ev.organizer)
        .post(zones_url(ev), {"name": "Front", "first_table": 1, "last_table": 3}, format="json")
        .json()["id"]
    )
    back = (
        ev.client(ev.organizer)
        .post(zones_url(ev), {"name": "Back", "first_table": 4, "last_table": 4}, format="json")
        .json()["id"]
    )
    time_extension_grant(match=ev.matches[0], actor=ev.judge, minutes=9, reason="deck check")
    time_extension_grant(match=ev.matches[2], actor=ev.judge, minutes=2, reason="ruling")
    response = console(ev, ev.judge, front)
    assert response.status_code == 200
    rows = response.json()["tables"]
    assert [(row["table"], row["extension_minutes"]) for row in rows] == [(2, 0), (3, 2), (1, 9)]
    ends = [row["ends_at"] for row in rows]
    assert ends == sorted(ends)
    assert {row["extra_turns_total"] for row in rows} == {3}
    assert [row["table"] for row in console(ev, ev.judge, back).json()["tables"]] == [4]
    assert [row["table"] for row in console(ev, ev.scorekeeper).json()["tables"]] == [2, 4, 3, 1]


def test_console_drops_confirmed_tables_and_flags_reported_ones(floor_event):
    ev = floor_event
    match_result_report(
        match=ev.matches[1], actor=ev.scorekeeper, team_a_wins=1, team_b_wins=0, draws=0, version=1
    )
    match_result_report(
        match=ev.matches[2], actor=ev.players[4], team_a_wins=1, team_b_wins=0, draws=0, version=1
    )
    rows = {row["table"]: row for row in console(ev, ev.judge).json()["tables"]}
    assert sorted(rows) == [1, 3, 4]
    assert (rows[3]["result_in"], rows[1]["result_in"]) == (True, False)


def test_console_counts_extra_turns_from_the_clock(floor_event):
    ev = floor_event
    match = ev.matches[3]
    at = ev.started_at + datetime.timedelta(minutes=ev.tournament.round_minutes)
    match_time_call(match=match, actor=ev.judge, active_team="A", at=at)
    match_turn_complete(match=match, actor=ev.judge)
    match_turn_complete(match=match, actor=ev.judge)
    row = next(r for r in console(ev, ev.judge).json()["tables"] if r["table"] == 4)
    assert (row["extra_turns_total"], row["extra_turns_played"], row["active_team"]) == (3, 1, "A")


def test_console_refuses_unknown_zone_and_outsiders(floor_event):
    ev = floor_event
    other = ev.client(ev.organizer).get(
        f"/api/v1/tournaments/{ev.tournament.pk}/rounds/1/end-of-round/?zone=abc"
    )
    assert (other.status_code, other.json()["errors"][0]["field"]) == (400, "zone")
    assert console(ev, ev.judge, 999999).status_code == 400
    assert console(ev, ev.players[0]).status_code == 403
    assert console(ev, ev.foreign_judge).status_code == 403
    assert console(ev, ev.judge, number=7).status_code == 404
