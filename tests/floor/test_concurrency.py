"""Two judges tapping Claim at the same moment, a player's double tap: real threads on PostgreSQL.

The call row is locked before the claim is decided (``floor.services.calls``), so exactly one
judge gets the call and the other a 409 naming them; the match row is locked before a player's
call is checked against their live one (and a partial unique constraint backs it up), so a
double tap queues one call.
"""

from __future__ import annotations

import pytest
from django.db import connection

from floor.models import JudgeCall
from floor.services.calls import judge_call_raise
from tests.floor.conftest import build_floor_event
from tests.reliability.test_concurrency import at_once

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks and races need PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]


def test_two_judges_claim_at_once_one_wins():
    ev = build_floor_event(teams=4)
    call = judge_call_raise(tournament=ev.tournament, match=ev.matches[0], actor=ev.players[0])
    url = f"/api/v1/judge-calls/{call.pk}/claim/"
    first, second = ev.client(ev.judge), ev.client(ev.other_judge)
    responses = at_once(lambda: first.post(url), lambda: second.post(url))
    assert sorted(r.status_code for r in responses) == [200, 409]
    winner = JudgeCall.objects.get(pk=call.pk).claimed_by
    loser = next(r for r in responses if r.status_code == 409)
    assert loser.json()["detail"] == f"claimed by {winner.username}"


def test_a_double_tap_queues_one_call():
    ev = build_floor_event(teams=4)
    client = ev.client(ev.players[0])
    url = f"/api/v1/tournaments/{ev.tournament.pk}/judge-calls/"
    body = {"match": ev.matches[0].pk}
    responses = at_once(
        lambda: client.post(url, body, format="json"), lambda: client.post(url, body, format="json")
    )
    assert sorted(r.status_code for r in responses) == [201, 409]
    assert JudgeCall.objects.filter(match=ev.matches[0]).count() == 1
