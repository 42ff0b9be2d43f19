"""Judge calls: who may claim, escalate and resolve a call, and how long judges took to answer.

A call is raised for one table; a judge claims it (so two judges don't run to the same table),
may escalate it to the head judge, and resolves it with a note. The stored status is one of
open, claimed, resolved; a call whose match result is confirmed is closed whatever it stored
(the players left the table), so "closed" is derived here and never written.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from common.translatable import N_


class CallStatus(StrEnum):
    OPEN = "open"
    CLAIMED = "claimed"
    RESOLVED = "resolved"
    CLOSED = "closed"


STORED_STATUSES = (CallStatus.OPEN, CallStatus.CLAIMED, CallStatus.RESOLVED)
LIVE_STATUSES = (CallStatus.OPEN, CallStatus.CLAIMED)
"""Stored statuses of a call still waiting for a judge's answer (unless its result is confirmed)."""


class CallRefused(Exception):
    """The call's state forbids the action; ``code`` says why, ``message`` says it to a judge."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class CallState:
    """What the rules read of a call: its stored status, who holds it, whether it went to the
    head judge, and whether the table's result is confirmed."""

    status: CallStatus
    claimed_by: int | None = None
    claimed_by_name: str = ""
    escalated: bool = False
    result_confirmed: bool = False


def effective_status(stored: CallStatus | str, *, result_confirmed: bool) -> CallStatus:
    """The status a judge or player sees: a live call at a table whose result is confirmed is closed."""
    status = CallStatus(stored)
    if status in LIVE_STATUSES and result_confirmed:
        return CallStatus.CLOSED
    return status


def _require_live(call: CallState) -> None:
    status = effective_status(call.status, result_confirmed=call.result_confirmed)
    if status is CallStatus.RESOLVED:
        raise CallRefused("resolved", N_("this call is already resolved"))
    if status is CallStatus.CLOSED:
        raise CallRefused("closed", N_("this call closed when the table's result was confirmed"))


def _claimed_by(call: CallState) -> N_:
    if call.claimed_by_name:
        return N_("claimed by %(judge)s", judge=call.claimed_by_name)
    return N_("claimed by another judge")


def check_claim(call: CallState, *, judge_id: int, head_judge: bool) -> bool:
    """May ``judge_id`` claim the call? True if the claim changes the holder, False if the judge
    already holds it (claiming twice is harmless).

    A call held by another judge is refused (409 "claimed by X"), so the second judge on the way
    turns back; the head judge may take over a call that was escalated to them.
    """
    _require_live(call)
    if call.claimed_by is None:
        return True
    if call.claimed_by == judge_id:
        return False
    if head_judge and call.escalated:
        return True
    raise CallRefused("claimed", _claimed_by(call))


def check_escalate(call: CallState, *, judge_id: int, head_judge: bool) -> None:
    """The judge holding a call (or any judge, while nobody holds it) sends it to the head judge."""
    _require_live(call)
    if call.escalated:
        raise CallRefused("escalated", N_("this call is already with the head judge"))
    if call.claimed_by not in (None, judge_id) and not head_judge:
        raise CallRefused("claimed", _claimed_by(call))


def check_resolve(call: CallState, *, judge_id: int, head_judge: bool) -> None:
    """The judge holding the call resolves it; an unclaimed call is claimed by resolving it (the
    judge who was nearest answered without tapping Claim); the head judge may resolve any call."""
    _require_live(call)
    if call.claimed_by not in (None, judge_id) and not head_judge:
        raise CallRefused("claimed", _claimed_by(call))


@dataclass(frozen=True)
class CallTimes:
    """One call's timestamps, for the response-time report."""

    round_number: int
    created_at: datetime
    claimed_by: str | None
    claimed_at: datetime | None
    resolved_at: datetime | None


@dataclass(frozen=True)
class ResponseTimes:
    """Calls answered by one judge (or in one round), with the median and longest seconds from the
    call to the claim and from the call to the resolution."""

    key: str | int
    calls: int
    claimed: int
    resolved: int
    median_to_claim: float | None
    longest_to_claim: float | None
    median_to_resolve: float | None
    longest_to_resolve: float | None


def _summary(key: str | int, calls: list[CallTimes]) -> ResponseTimes:
    to_claim = [(c.claimed_at - c.created_at).total_seconds() for c in calls if c.claimed_at is not None]
    to_resolve = [(c.resolved_at - c.created_at).total_seconds() for c in calls if c.resolved_at is not None]
    return ResponseTimes(
        key=key,
        calls=len(calls),
        claimed=len(to_claim),
        resolved=len(to_resolve),
        median_to_claim=statistics.median(to_claim) if to_claim else None,
        longest_to_claim=max(to_claim) if to_claim else None,
        median_to_resolve=statistics.median(to_resolve) if to_resolve else None,
        longest_to_resolve=max(to_resolve) if to_resolve else None,
    )


def response_times_by_judge(calls: Iterable[CallTimes]) -> list[ResponseTimes]:
    """Per judge who claimed calls, by name; unclaimed calls are not anybody's."""
    grouped: dict[str, list[CallTimes]] = {}
    for call in calls:
        if call.claimed_by is not None:
            grouped.setdefault(call.claimed_by, []).append(call)
    return [_summary(name, grouped[name]) for name in sorted(grouped, key=str.casefold)]


def response_times_by_round(calls: Iterable[CallTimes]) -> list[ResponseTimes]:
    """Per round, every call counted (an unanswered call shows in ``calls`` but not ``claimed``)."""
    grouped: dict[int, list[CallTimes]] = {}
    for call in calls:
        grouped.setdefault(call.round_number, []).append(call)
    return [_summary(number, grouped[number]) for number in sorted(grouped)]
