"""When the clock services enqueue the time-up check, and that there is only ever one live chain.

``apply_async`` is replaced by a spy that records what would go to the broker: the on-commit
callbacks run (``django_capture_on_commit_callbacks(execute=True)``) but nothing is queued, and a
queued check is then run by hand, non-eagerly, at its ETA, as a worker with a broker would.
"""

from __future__ import annotations

import datetime

import pytest
import time_machine

from clock.services import (
    match_time_call,
    round_pause,
    round_resume,
    round_start,
    time_extension_grant,
)
from clock.tasks import round_time_up_task
from tests.clock.conftest import T0, at
from tournaments.models import Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch) -> list[tuple[dict, datetime.datetime]]:
    """Every (kwargs, eta) the services and the task would send to the broker, in order."""
    calls: list[tuple[dict, datetime.datetime]] = []
    monkeypatch.setattr(round_time_up_task, "apply_async", lambda *, kwargs, eta: calls.append((kwargs, eta)))
    return calls


@pytest.fixture
def broker():
    """Run as a worker fed by a real broker would: not eager, so the task may reschedule."""
    conf = round_time_up_task.app.conf
    eager = conf.task_always_eager
    conf.task_always_eager = False
    yield
    conf.task_always_eager = eager


def check(round_row, eta):
    return {"round_id": round_row.pk, "check_at": eta.isoformat()}


def run_queued(call, when=None):
    kwargs, eta = call
    with time_machine.travel(when or eta, tick=False):
        return round_time_up_task.run(**kwargs)


def stored_check(round_row):
    return Round.objects.get(pk=round_row.pk).time_check_at


def test_start_enqueues_the_check_for_the_round_end(
    round_one, tables, judge, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        round_start(round=round_one, actor=judge, at=T0)

    assert queued == [(check(round_one, at(50)), at(50))]
    assert stored_check(round_one) == at(50)


def test_resume_enqueues_the_check_for_the_end_moved_by_the_pause(
    round_one, tables, judge, queued, django_capture_on_commit_callbacks
):
    round_start(round=round_one, actor=judge, at=T0)
    round_pause(round=round_one, actor=judge, at=at(40))

    with django_capture_on_commit_callbacks(execute=True):
        round_resume(round=round_one, actor=judge, at=at(47))

    assert queued == [(check(round_one, at(57)), at(57))]
    assert stored_check(round_one) == at(57)


def test_extension_enqueues_the_check_for_the_next_deadline(
    round_one, tables, judge, queued, django_capture_on_commit_callbacks
):
    """Before the round end the next deadline is still the round's end; after it, the extended
    table's new end (tables 2 and 3 are already out of time at 10:52)."""
    round_start(round=round_one, actor=judge, at=T0)

    with django_capture_on_commit_callbacks(execute=True), time_machine.travel(at(20), tick=False):
        time_extension_grant(match=tables[1], actor=judge, minutes=9, reason="deck check (6 + 3)")
    with django_capture_on_commit_callbacks(execute=True), time_machine.travel(at(52), tick=False):
        time_extension_grant(match=tables[0], actor=judge, minutes=4, reason="ruling (4 min)")

    assert queued == [(check(round_one, at(50)), at(50)), (check(round_one, at(54)), at(54))]
    assert stored_check(round_one) == at(54)


def test_time_call_enqueues_a_check_at_the_call(
    round_one, tables, judge, queued, django_capture_on_commit_callbacks
):
    round_start(round=round_one, actor=judge, at=T0)

    with django_capture_on_commit_callbacks(execute=True):
        match_time_call(match=tables[0], actor=judge, active_team="A", at=at(53))

    assert queued == [(check(round_one, at(53)), at(53))]


def test_pause_enqueues_nothing(round_one, tables, judge, queued, django_capture_on_commit_callbacks):
    round_start(round=round_one, actor=judge, at=T0)

    with django_capture_on_commit_callbacks(execute=True):
        round_pause(round=round_one, actor=judge, at=at(10))

    assert queued == []


def test_only_the_latest_check_reschedules_so_the_chain_never_grows(
    round_one, tables, judge, queued, broker, django_capture_on_commit_callbacks
):
    """Start, an extension, a pause and a resume queue three checks; only the resume's goes on,
    and it hands on to exactly one check at the extended table's end, which ends the chain."""
    with django_capture_on_commit_callbacks(execute=True):
        round_start(round=round_one, actor=judge, at=T0)
    with django_capture_on_commit_callbacks(execute=True), time_machine.travel(at(20), tick=False):
        time_extension_grant(match=tables[1], actor=judge, minutes=9, reason="deck check (6 + 3)")
    round_pause(round=round_one, actor=judge, at=at(30))
    with django_capture_on_commit_callbacks(execute=True):
        round_resume(round=round_one, actor=judge, at=at(32))
    start_check, extension_check, resume_check = queued

    results = [run_queued(call) for call in (start_check, extension_check, resume_check)]
    table_check = queued[3]
    duplicate = run_queued(resume_check, at(52, 5))
    last = run_queued(table_check)

    assert [(r["stale"], r["tables_marked"], r["next_check"]) for r in results] == [
        (True, [], None),
        (True, [], None),
        (False, [1, 3], at(61).isoformat()),
    ]
    assert table_check == (check(round_one, at(61)), at(61))
    assert (duplicate["stale"], duplicate["next_check"]) == (True, None)
    assert (last["stale"], last["tables_marked"], last["next_check"]) == (False, [2], None)
    assert len(queued) == 4
    assert stored_check(round_one) == at(61)
