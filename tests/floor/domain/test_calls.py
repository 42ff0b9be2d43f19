"""The judge-call rules and the response-time summary, without a database."""

from __future__ import annotations

import datetime

import pytest

from floor.domain.calls import (
    CallRefused,
    CallState,
    CallStatus,
    CallTimes,
    check_claim,
    check_escalate,
    check_resolve,
    effective_status,
    response_times_by_judge,
    response_times_by_round,
)

T0 = datetime.datetime(2026, 7, 18, 10, 0, tzinfo=datetime.UTC)


def at(seconds: int) -> datetime.datetime:
    return T0 + datetime.timedelta(seconds=seconds)


def test_a_live_call_at_a_confirmed_table_is_closed():
    assert effective_status("open", result_confirmed=True) is CallStatus.CLOSED
    assert effective_status("claimed", result_confirmed=True) is CallStatus.CLOSED
    assert effective_status("resolved", result_confirmed=True) is CallStatus.RESOLVED
    assert effective_status("open", result_confirmed=False) is CallStatus.OPEN


def test_claim_rules():
    open_call = CallState(CallStatus.OPEN)
    assert check_claim(open_call, judge_id=1, head_judge=False) is True
    mine = CallState(CallStatus.CLAIMED, claimed_by=1, claimed_by_name="ana")
    assert check_claim(mine, judge_id=1, head_judge=False) is False
    with pytest.raises(CallRefused) as refused:
        check_claim(mine, judge_id=2, head_judge=False)
    assert (refused.value.code, refused.value.message) == ("claimed", "claimed by ana")
    with pytest.raises(CallRefused):
        check_claim(mine, judge_id=3, head_judge=True)  # not escalated: the head judge waits too
    escalated = CallState(CallStatus.CLAIMED, claimed_by=1, claimed_by_name="ana", escalated=True)
    assert check_claim(escalated, judge_id=3, head_judge=True) is True
    with pytest.raises(CallRefused) as closed:
        check_claim(CallState(CallStatus.OPEN, result_confirmed=True), judge_id=1, head_judge=True)
    assert closed.value.code == "closed"


def test_escalate_and_resolve_rules():
    mine = CallState(CallStatus.CLAIMED, claimed_by=1, claimed_by_name="ana")
    check_escalate(mine, judge_id=1, head_judge=False)
    with pytest.raises(CallRefused):
        check_escalate(mine, judge_id=2, head_judge=False)
    with pytest.raises(CallRefused):
        check_escalate(CallState(CallStatus.OPEN, escalated=True), judge_id=1, head_judge=False)
    check_resolve(CallState(CallStatus.OPEN), judge_id=2, head_judge=False)
    check_resolve(mine, judge_id=9, head_judge=True)
    with pytest.raises(CallRefused):
        check_resolve(mine, judge_id=2, head_judge=False)
    with pytest.raises(CallRefused) as resolved:
        check_resolve(CallState(CallStatus.RESOLVED, claimed_by=1), judge_id=1, head_judge=False)
    assert resolved.value.code == "resolved"


def test_response_times_per_judge_and_round():
    calls = [
        CallTimes(1, at(0), "ana", at(30), at(300)),
        CallTimes(1, at(100), "ana", at(190), None),
        CallTimes(2, at(0), "Bo", at(10), at(70)),
        CallTimes(2, at(0), None, None, None),
    ]
    by_judge = response_times_by_judge(calls)
    assert [
        (r.key, r.calls, r.median_to_claim, r.longest_to_claim, r.median_to_resolve) for r in by_judge
    ] == [
        ("ana", 2, 60.0, 90.0, 300.0),
        ("Bo", 1, 10.0, 10.0, 70.0),
    ]
    by_round = response_times_by_round(calls)
    assert [(r.key, r.calls, r.claimed, r.resolved, r.longest_to_resolve) for r in by_round] == [
        (1, 2, 2, 1, 300.0),
        (2, 2, 1, 1, 70.0),
    ]
