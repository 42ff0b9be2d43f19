"""Judge calls through the API: raise, the queue, claim (409 for the second judge), escalate,
resolve with a penalty and an extension, one live call per player, closing on the result."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from clock.selectors import round_clock
from floor.models import JudgeCall
from penalties.models import Penalty
from tournaments.models import AuditEntry, Match, TimeExtension
from tournaments.services.results import match_result_report

pytestmark = pytest.mark.django_db


def calls_url(ev) -> str:
    return f"/api/v1/tournaments/{ev.tournament.pk}/judge-calls/"


def raise_call(ev, user, match, reason=""):
    return ev.client(user).post(calls_url(ev), {"match": match.pk, "reason": reason}, format="json")


def test_a_player_calls_a_judge_to_their_own_table(floor_event):
    ev = floor_event
    response = raise_call(ev, ev.players[0], ev.matches[0], "rules question about the stack")
    assert response.status_code == 201
    body = response.json()
    assert (body["table"], body["status"], body["reason"], body["round"]) == (
        1,
        "open",
        "rules question about the stack",
        1,
    )
    call = JudgeCall.objects.get(pk=body["id"])
    assert (call.player.user, call.raised_by) == (ev.players[0], ev.players[0])
    assert AuditEntry.objects.filter(action="judge_call.raise", object_id=str(call.pk)).count() == 1


def test_a_player_cannot_call_to_another_table(floor_event):
    ev = floor_event
    response = raise_call(ev, ev.players[0], ev.matches[1])
    assert response.status_code == 403
    assert JudgeCall.objects.count() == 0


def test_one_live_call_per_player_per_match(floor_event):
    ev = floor_event
    first = raise_call(ev, ev.players[0], ev.matches[0])
    second = raise_call(ev, ev.players[0], ev.matches[0])
    assert second.status_code == 409
    assert second.json()["detail"] == "you already called a judge to this table; one is on the way"
    # The opponent may call too, and staff may raise one for the table.
    assert raise_call(ev, ev.players[1], ev.matches[0]).status_code == 201
    assert raise_call(ev, ev.judge, ev.matches[0]).status_code == 201
    # Once the first call is resolved, the player may call again.
    claim = ev.client(ev.judge).post(
        f"/api/v1/judge-calls/{first.json()['id']}/resolve/", {"note": "answered"}
    )
    assert claim.status_code == 200
    assert raise_call(ev, ev.players[0], ev.matches[0]).status_code == 201


def test_staff_list_oldest_open_first(floor_event):
    ev = floor_event
    late = raise_call(ev, ev.players[2], ev.matches[1]).json()["id"]
    JudgeCall.objects.filter(pk=late).update(created_at=timezone.now() - datetime.timedelta(minutes=1))
    early = raise_call(ev, ev.players[4], ev.matches[2]).json()["id"]
    JudgeCall.objects.filter(pk=early).update(created_at=timezone.now() - datetime.timedelta(minutes=3))
    done = raise_call(ev, ev.players[6], ev.matches[3]).json()["id"]
    JudgeCall.objects.filter(pk=done).update(created_at=timezone.now() - datetime.timedelta(minutes=9))
    ev.client(ev.judge).post(f"/api/v1/judge-calls/{done}/resolve/", {"note": "fine"})
    listed = ev.client(ev.scorekeeper).get(calls_url(ev))
    assert listed.status_code == 200
    assert [(row["id"], row["status"]) for row in listed.json()] == [
        (early, "open"),
        (late, "open"),
        (done, "resolved"),
    ]
    assert ev.client(ev.players[0]).get(calls_url(ev)).status_code == 403


def test_first_claim_wins_and_the_second_judge_is_told_who_has_it(floor_event):
    ev = floor_event
    call_id = raise_call(ev, ev.players[0], ev.matches[0]).json()["id"]
    first = ev.client(ev.judge).post(f"/api/v1/judge-calls/{call_id}/claim/")
    second = ev.client(ev.other_judge).post(f"/api/v1/judge-calls/{call_id}/claim/")
    assert first.status_code == 200
    assert (first.json()["status"], first.json()["claimed_by"]) == ("claimed", ev.judge.username)
    assert second.status_code == 409
    assert second.json()["detail"] == f"claimed by {ev.judge.username}"
    assert ev.client(ev.judge).post(f"/api/v1/judge-calls/{call_id}/claim/").status_code == 200
    assert JudgeCall.objects.get(pk=call_id).claimed_by == ev.judge
    assert AuditEntry.objects.filter(action="judge_call.claim").count() == 1


def test_scorekeepers_and_players_do_not_claim(floor_event):
    ev = floor_event
    call_id = raise_call(ev, ev.players[0], ev.matches[0]).json()["id"]
    assert ev.client(ev.scorekeeper).post(f"/api/v1/judge-calls/{call_id}/claim/").status_code == 403
    assert ev.client(ev.players[0]).post(f"/api/v1/judge-calls/{call_id}/claim/").status_code == 403
    assert ev.client(ev.foreign_judge).post(f"/api/v1/judge-calls/{call_id}/claim/").status_code == 403


def test_escalated_call_goes_to_the_head_judge_who_may_take_it_over(floor_event):
    ev = floor_event
    call_id = raise_call(ev, ev.players[0], ev.matches[0]).json()["id"]
    ev.client(ev.judge).post(f"/api/v1/judge-calls/{call_id}/claim/")
    assert ev.client(ev.other_judge).post(f"/api/v1/judge-calls/{call_id}/escalate/").status_code == 409
    escalated = ev.client(ev.judge).post(f"/api/v1/judge-calls/{call_id}/escalate/")
    assert (escalated.status_code, escalated.json()["escalated"]) == (200, True)
    assert ev.client(ev.judge).post(f"/api/v1/judge-calls/{call_id}/escalate/").status_code == 409
    taken = ev.client(ev.head_judge).post(f"/api/v1/judge-calls/{call_id}/claim/")
    assert (taken.status_code, taken.json()["claimed_by"]) == (200, ev.head_judge.username)


def test_resolving_with_an_extension_moves_the_tables_end_by_four_minutes(floor_event):
    ev = floor_event
    match = ev.matches[0]
    before = {row.table: row.ends_at for row in round_clock(ev.round, now=timezone.now()).tables}
    call_id = raise_call(ev, ev.players[0], match).json()["id"]
    ev.client(ev.judge).post(f"/api/v1/judge-calls/{call_id}/claim/")
    resolved = ev.client(ev.judge).post(
        f"/api/v1/judge-calls/{call_id}/resolve/",
        {"note": "long ruling on layers", "extension_minutes": 4},
        format="json",
    )
    assert resolved.status_code == 200
    assert (resolved.json()["status"], resolved.json()["extension_minutes"]) == ("resolved", 4)
    after = {row.table: row.ends_at for row in round_clock(ev.round, now=timezone.now()).tables}
    assert after[1] - before[1] == datetime.timedelta(minutes=4)
    assert after[2] == before[2]
    assert TimeExtension.objects.get(match=match).reason == "judge call: long ruling on layers"
    end_of_round = ev.client(ev.judge).get(f"/api/v1/tournaments/{ev.tournament.pk}/rounds/1/end-of-round/")
    row = next(r for r in end_of_round.json()["tables"] if r["table"] == 1)
    assert row["extension_minutes"] == 4


def test_resolving_with_a_penalty_issues_it_for_the_player_at_the_table(floor_event):
    ev = floor_event
    call_id = raise_call(ev, ev.players[1], ev.matches[0], "opponent is very slow").json()["id"]
    offender = ev.player_row(0)
    resolved = ev.client(ev.judge).post(
        f"/api/v1/judge-calls/{call_id}/resolve/",
        {"note": "watched two turns", "penalty": {"player": offender.pk, "infraction": "TE-SP"}},
        format="json",
    )
    assert resolved.status_code == 200
    penalty = Penalty.objects.get(pk=resolved.json()["penalty"])
    assert (penalty.player, penalty.infraction, penalty.penalty, penalty.match) == (
        offender,
        "TE-SP",
        "warning",
        ev.matches[0],
    )
    assert penalty.description == "Judge call at table 1: watched two turns"


def test_a_refused_penalty_leaves_the_call_open_and_nothing_saved(floor_event):
    ev = floor_event
    call_id = raise_call(ev, ev.players[0], ev.matches[0]).json()["id"]
    away = ev.player_row(4)  # plays at table 3
    refused = ev.client(ev.judge).post(
        f"/api/v1/judge-calls/{call_id}/resolve/",
        {"note": "x", "penalty": {"player": away.pk, "infraction": "TE-SP"}, "extension_minutes": 3},
        format="json",
    )
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "penalty.player"
    assert (
        JudgeCall.objects.get(pk=call_id).status,
        Penalty.objects.count(),
        TimeExtension.objects.count(),
    ) == (
        "open",
        0,
        0,
    )


def test_another_judge_cannot_resolve_a_claimed_call(floor_event):
    ev = floor_event
    call_id = raise_call(ev, ev.players[0], ev.matches[0]).json()["id"]
    ev.client(ev.judge).post(f"/api/v1/judge-calls/{call_id}/claim/")
    refused = ev.client(ev.other_judge).post(f"/api/v1/judge-calls/{call_id}/resolve/", {"note": "done"})
    assert refused.status_code == 409
    assert (
        ev.client(ev.head_judge).post(f"/api/v1/judge-calls/{call_id}/resolve/", {"note": "done"}).status_code
        == 200
    )
    assert (
        ev.client(ev.judge).post(f"/api/v1/judge-calls/{call_id}/resolve/", {"note": "again"}).status_code
        == 409
    )


def test_calls_close_when_the_result_is_confirmed(floor_event):
    ev = floor_event
    match = ev.matches[0]
    call_id = raise_call(ev, ev.players[0], match).json()["id"]
    match_result_report(match=match, actor=ev.scorekeeper, team_a_wins=1, team_b_wins=0, draws=0, version=1)
    listed = {row["id"]: row["status"] for row in ev.client(ev.judge).get(calls_url(ev)).json()}
    assert listed[call_id] == "closed"
    claim = ev.client(ev.judge).post(f"/api/v1/judge-calls/{call_id}/claim/")
    assert claim.status_code == 409
    assert claim.json()["detail"] == "this call closed when the table's result was confirmed"
    again = raise_call(ev, ev.players[0], Match.objects.get(pk=match.pk))
    assert again.status_code == 409


def test_bad_bodies_name_the_field(floor_event):
    ev = floor_event
    assert raise_call(ev, ev.judge, ev.matches[0], "x" * 201).status_code == 400
    missing = ev.client(ev.judge).post(calls_url(ev), {"match": 999999}, format="json")
    assert (missing.status_code, missing.json()["errors"][0]["field"]) == (400, "match")
    call_id = raise_call(ev, ev.players[0], ev.matches[0]).json()["id"]
    blank = ev.client(ev.judge).post(f"/api/v1/judge-calls/{call_id}/resolve/", {"note": "  "}, format="json")
    assert blank.status_code == 400
    too_long = ev.client(ev.judge).post(
        f"/api/v1/judge-calls/{call_id}/resolve/", {"note": "x", "extension_minutes": 61}, format="json"
    )
    assert (too_long.status_code, too_long.json()["errors"][0]["field"]) == (400, "extension_minutes")
    bad_penalty = ev.client(ev.judge).post(
        f"/api/v1/judge-calls/{call_id}/resolve/", {"note": "x", "penalty": "TE-SP"}, format="json"
    )
    assert bad_penalty.status_code == 400
