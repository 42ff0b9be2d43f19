"""Where the clock services leave the round's next deadline, and the sweep that Celery beat runs
every few seconds over the rounds whose deadline has passed.

No task waits in the broker for a deadline: the services only store ``Round.time_check_at``, and
``round_time_sweep`` (run here at chosen instants, as beat would) checks the due rounds and moves
each one's deadline on, or clears it once nothing is left to mark.
"""

from __future__ import annotations

import pytest
import time_machine

from clock import services
from clock.services import (
    match_time_call,
    round_pause,
    round_resume,
    round_start,
    round_time_sweep,
    time_extension_grant,
)
from tests.clock.conftest import T0, at
from tournaments.models import AuditEntry, Round

pytestmark = pytest.mark.django_db


def stored_check(round_row):
    return Round.objects.get(pk=round_row.pk).time_check_at


def sweep(when):
    return {item.round_id: item for item in round_time_sweep(at=when)}


def test_start_stores_the_round_end_as_the_next_check(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)

    assert stored_check(round_one) == at(50)


def test_resume_stores_the_end_moved_by_the_pause(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)
    round_pause(round_row=round_one, actor=judge, at=at(40))
    round_resume(round_row=round_one, actor=judge, at=at(47))

    assert stored_check(round_one) == at(57)


def test_extension_stores_the_next_deadline(round_one, tables, judge):
    """Before the round end the next deadline is still the round's end; after it, the extended
    table's new end (tables 2 and 3 are already out of time at 10:52)."""
    round_start(round_row=round_one, actor=judge, at=T0)
    with time_machine.travel(at(20), tick=False):
        time_extension_grant(match=tables[1], actor=judge, minutes=9, reason="deck check (6 + 3)")
    first = stored_check(round_one)
    with time_machine.travel(at(52), tick=False):
        time_extension_grant(match=tables[0], actor=judge, minutes=4, reason="ruling (4 min)")

    assert (first, stored_check(round_one)) == (at(50), at(54))


def test_time_call_stores_a_check_at_the_call(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)

    match_time_call(match=tables[0], actor=judge, active_team="A", at=at(53))

    assert stored_check(round_one) == at(53)


def test_the_sweep_leaves_a_round_alone_until_its_deadline(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)

    assert sweep(at(49, 59)) == {}
    assert stored_check(round_one) == at(50)
    assert not AuditEntry.objects.filter(action__in=["round.time_up", "round.extra_turns"]).exists()


def test_the_sweep_marks_tables_at_each_end_then_stops_looking(round_one, tables, judge):
    """Table 2 has a 9-minute extension: the sweep at 10:50 marks tables 1 and 3 and records time
    up, looks again at 10:59 for table 2, then clears the round's deadline."""
    round_start(round_row=round_one, actor=judge, at=T0)
    with time_machine.travel(at(20), tick=False):
        time_extension_grant(match=tables[1], actor=judge, minutes=9, reason="deck check (6 + 3)")

    at_end = sweep(at(50, 3))[round_one.pk]
    nothing_due = sweep(at(55))
    table_two = sweep(at(59, 4))[round_one.pk]
    after = sweep(at(80))

    assert (at_end.check.recorded, at_end.check.tables_marked, at_end.next_check_at) == (True, (1, 3), at(59))
    assert nothing_due == {}
    assert (table_two.check.recorded, table_two.check.tables_marked, table_two.next_check_at) == (
        False,
        (2,),
        None,
    )
    assert after == {}
    assert stored_check(round_one) is None
    assert AuditEntry.objects.filter(action="round.time_up").count() == 1
    assert AuditEntry.objects.filter(action="round.extra_turns").count() == 2


def test_a_sweep_during_a_pause_clears_the_deadline_and_resume_sets_it_again(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)
    round_pause(round_row=round_one, actor=judge, at=at(45))

    during = sweep(at(50))[round_one.pk]
    cleared = stored_check(round_one)
    round_resume(round_row=round_one, actor=judge, at=at(60))
    at_new_end = sweep(at(65))[round_one.pk]

    assert (str(during.check.state), during.next_check_at, cleared) == ("paused", None, None)
    assert (at_new_end.check.recorded, at_new_end.check.tables_marked) == (True, (1, 2, 3))


def test_a_clock_change_between_the_check_and_its_hand_over_keeps_its_own_deadline(
    round_one, tables, judge, monkeypatch
):
    """The sweep read 10:50 as due; a judge's extension stored 11:01 before the sweep handed on:
    the sweep's conditional update loses, the extension's deadline stands."""
    round_start(round_row=round_one, actor=judge, at=T0)
    real_record = services.round_time_up_record

    def record_then_extend(**kwargs):
        check = real_record(**kwargs)
        Round.objects.filter(pk=round_one.pk).update(time_check_at=at(61))
        return check

    monkeypatch.setattr(services, "round_time_up_record", record_then_extend)
    swept = sweep(at(50))

    assert swept == {}
    assert stored_check(round_one) == at(61)


def test_rounds_without_a_clock_are_cleared_not_swept_forever(tournament, round_one, judge):
    Round.objects.filter(pk=round_one.pk).update(time_check_at=at(1))

    swept = sweep(at(2))[round_one.pk]

    assert (swept.check.state, swept.next_check_at, stored_check(round_one)) == (None, None, None)
