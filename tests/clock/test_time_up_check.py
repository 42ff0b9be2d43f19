"""The time-up check the sweep runs for a round: idempotent, a no-op until the clock says time is
up, harmless when stale.

Called directly with the instant to check at; the sweep over rounds is
``test_time_up_scheduling.py``, and the live-worker round trip of the sweep task is the
transactional test here.
"""

from __future__ import annotations

import datetime
import time

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone

from clock.services import (
    TimeUpCheck,
    match_time_call,
    round_pause,
    round_resume,
    round_start,
    round_time_up_record,
    time_extension_grant,
)
from clock.tasks import round_time_sweep_task
from tests.clock.conftest import T0, at
from tests.clock.factories import MatchFactory, RoundFactory
from tests.conftest import IN_CI, live_worker_expected
from tournaments.models import AuditEntry, Round


def run_task(round_id, when) -> dict:
    check: TimeUpCheck = round_time_up_record(round_id=round_id, at=when)
    return {
        "state": str(check.state) if check.state is not None else None,
        "recorded": check.recorded,
        "tables_out_of_time": list(check.tables_out_of_time),
        "tables_marked": list(check.tables_marked),
    }


def test_the_sweeps_are_in_the_beat_schedule_under_their_task_names():
    """Beat sends names: a renamed task would silently never run again."""
    from config.celery import app

    app.loader.import_default_modules()
    schedule = {entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert schedule == {
        "clock.round_time_sweep": 5.0,
        "documents.requeue_orphaned": 10.0,
        "event_io.mirror_sweep": 5.0,
    }
    assert set(schedule) <= set(app.tasks)
    assert round_time_sweep_task.name == "clock.round_time_sweep"


@pytest.mark.django_db
def test_before_time_is_up_the_task_records_nothing(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)

    result = run_task(round_one.pk, at(49, 59))

    assert (result["state"], result["recorded"]) == ("running", False)
    round_one.refresh_from_db()
    assert round_one.time_up_recorded_at is None


@pytest.mark.django_db
def test_task_run_twice_records_time_up_once(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)
    with time_machine.travel(at(20), tick=False):
        time_extension_grant(match=tables[1], actor=judge, minutes=5, reason="deck check")

    first = run_task(round_one.pk, at(50, 2))
    second = run_task(round_one.pk, at(51))

    assert (first["recorded"], first["tables_out_of_time"]) == (True, [1, 3])
    assert (second["recorded"], second["tables_out_of_time"]) == (False, [1, 3])
    round_one.refresh_from_db()
    assert round_one.time_up_recorded_at == at(50, 2)
    entry = AuditEntry.objects.get(action="round.time_up")
    assert (entry.actor, entry.after) == (
        None,
        {
            "time_up_recorded_at": at(50, 2).isoformat(),
            "tables_out_of_time": [1, 3],
            "tables_on_extension": [2],
        },
    )
    tables[0].refresh_from_db()
    assert (tables[0].time_called_at, tables[0].active_team) == (None, "")


@pytest.mark.django_db
def test_a_stale_run_after_a_pause_does_nothing(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)
    round_pause(round_row=round_one, actor=judge, at=at(45))

    result = run_task(round_one.pk, at(50))

    assert (result["state"], result["recorded"]) == ("paused", False)
    assert Round.objects.get(pk=round_one.pk).time_up_recorded_at is None


@pytest.mark.django_db
def test_unknown_unstarted_and_untimed_rounds_are_ignored(tournament, round_one, judge, slow_play):
    final = RoundFactory(tournament=tournament, number=8, kind="playoff")
    MatchFactory(round=final, table=1)
    round_start(round_row=final, actor=judge, at=T0, untimed=True)

    results = [run_task(round_id, at(600)) for round_id in (999999, round_one.pk, final.pk)]

    assert [(r["state"], r["recorded"]) for r in results] == [
        (None, False),
        (None, False),
        ("running", False),
    ]


@pytest.mark.django_db(transaction=True)
def test_sweep_task_round_trip_through_celery_records_time_up():
    """Eager in embedded mode, through Redis to the live worker in the service run: the worker
    reads the committed round, so this test commits (transaction=True). The sweep keeps no
    result, so the test waits for what it writes."""
    if settings.REDIS_URL and not live_worker_expected():
        message = "REDIS_URL is set but no worker was started (set CELERY_LIVE_WORKER=1 when one runs)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    started = timezone.now() - datetime.timedelta(minutes=51)
    round_row = RoundFactory(
        number=1,
        started_at=started,
        length_minutes=50,
        time_check_at=started + datetime.timedelta(minutes=50),
    )
    MatchFactory(round=round_row, table=1)

    round_time_sweep_task.delay()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        round_row.refresh_from_db()
        if round_row.time_check_at is None:
            break
        time.sleep(0.2)
    round_time_sweep_task.delay()
    time.sleep(0 if settings.CELERY_TASK_ALWAYS_EAGER else 2)

    round_row.refresh_from_db()
    assert (round_row.time_up_recorded_at is not None, round_row.time_check_at) == (True, None)
    assert AuditEntry.objects.filter(action="round.time_up", object_id=str(round_row.pk)).count() == 1
    assert AuditEntry.objects.filter(action="round.extra_turns", object_id=str(round_row.pk)).count() == 1


def since(match):
    match.refresh_from_db()
    return match.extra_turns_since


@pytest.mark.django_db
def test_tables_past_their_end_are_marked_in_extra_turns_exactly_once(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)
    with time_machine.travel(at(20), tick=False):
        time_extension_grant(match=tables[1], actor=judge, minutes=9, reason="deck check (6 + 3)")

    early = run_task(round_one.pk, at(49, 59))
    first = run_task(round_one.pk, at(50, 40))
    again = run_task(round_one.pk, at(51))

    assert [r["tables_marked"] for r in (early, first, again)] == [[], [1, 3], []]
    assert [since(match) for match in tables] == [at(50), None, at(50)]
    entry = AuditEntry.objects.get(action="round.extra_turns")
    assert (entry.actor, entry.after) == (
        None,
        {"extra_turns_since": {"1": at(50).isoformat(), "3": at(50).isoformat()}},
    )


@pytest.mark.django_db
def test_a_table_on_a_nine_minute_extension_is_marked_only_at_its_own_end(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)
    with time_machine.travel(at(20), tick=False):
        time_extension_grant(match=tables[1], actor=judge, minutes=9, reason="deck check (6 + 3)")
    run_task(round_one.pk, at(50))

    before = run_task(round_one.pk, at(58, 59))
    at_end = run_task(round_one.pk, at(59, 30))
    later = run_task(round_one.pk, at(60))

    assert [r["tables_marked"] for r in (before, at_end, later)] == [[], [2], []]
    assert [since(match) for match in tables] == [at(50), at(59), at(50)]
    assert AuditEntry.objects.filter(action="round.extra_turns").count() == 2


@pytest.mark.django_db
def test_pausing_stops_marking_until_the_clock_runs_again(round_one, tables, judge):
    """Table 2 has 4 of its 9 extra minutes left when the room is paused at 10:55: no run during
    the pause marks it; after the 20-minute pause it runs out at 11:19."""
    round_start(round_row=round_one, actor=judge, at=T0)
    with time_machine.travel(at(20), tick=False):
        time_extension_grant(match=tables[1], actor=judge, minutes=9, reason="deck check (6 + 3)")
    run_task(round_one.pk, at(50))
    round_pause(round_row=round_one, actor=judge, at=at(55))

    during = [run_task(round_one.pk, at(minute)) for minute in (59, 65, 74)]
    round_resume(round_row=round_one, actor=judge, at=at(75))
    before_end = run_task(round_one.pk, at(78, 59))
    at_end = run_task(round_one.pk, at(79))

    assert [(r["state"], r["tables_marked"]) for r in during] == [("paused", [])] * 3
    assert (before_end["tables_marked"], at_end["tables_marked"]) == ([], [2])
    assert since(tables[1]) == at(79)


@pytest.mark.django_db
def test_a_late_extension_moves_a_marked_table_out_of_extra_turns(round_one, tables, judge):
    """A deck check noted only at 10:52 gives table 1 +5: it is back on its clock until 10:55."""
    round_start(round_row=round_one, actor=judge, at=T0)
    run_task(round_one.pk, at(50))

    with time_machine.travel(at(52), tick=False):
        time_extension_grant(match=tables[0], actor=judge, minutes=5, reason="deck check (2 + 3)")
    cleared = since(tables[0])
    marked = run_task(round_one.pk, at(55))

    assert (cleared, marked["tables_marked"], since(tables[0])) == (None, [1], at(55))


@pytest.mark.django_db
def test_time_call_records_extra_turns_when_no_run_marked_the_table(round_one, tables, judge):
    """No sweep ran yet (or no beat runs): the time call records the table's own end itself."""
    round_start(round_row=round_one, actor=judge, at=T0)

    match_time_call(match=tables[0], actor=judge, active_team="A", at=at(53))

    assert since(tables[0]) == at(50)
