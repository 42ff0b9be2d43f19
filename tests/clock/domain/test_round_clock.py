"""The round clock: pause/resume arithmetic, table extensions, restarts, driven by a passed-in clock."""

from __future__ import annotations

import ast
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clock.domain.round_clock import (
    DEFAULT_ROUND_LENGTH,
    MAX_EXTENSION_MINUTES,
    PLAYOFF_ROUND_LENGTH,
    ClockError,
    ClockState,
    Pause,
    RoundClock,
    TimeExtension,
    next_deadline,
    tables_out_of_time,
    total_extension_minutes,
)
from tests.source import parse

T0 = datetime(2026, 3, 14, 10, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def minutes(value: float) -> timedelta:
    return timedelta(minutes=value)


def started(length: timedelta | None = DEFAULT_ROUND_LENGTH) -> RoundClock:
    return RoundClock(length=length).start(T0)


class TestBeforeStart:
    def test_not_started_has_full_time_and_no_end(self):
        clock = RoundClock()
        assert clock.state(at(5)) is ClockState.NOT_STARTED
        assert clock.elapsed(at(5)) == timedelta(0)
        assert clock.remaining(at(5)) == minutes(50)
        assert clock.ends_at(at(5)) is None
        assert clock.table_ends_at(at(5), 10) is None

    def test_start_twice_is_refused(self):
        with pytest.raises(ClockError) as error:
            started().start(at(1))
        assert error.value.code == "already_started"

    def test_pause_before_start_is_refused(self):
        with pytest.raises(ClockError) as error:
            RoundClock().pause(T0)
        assert error.value.code == "not_running"


class TestRunning:
    def test_remaining_and_end(self):
        clock = started()
        assert clock.state(at(12)) is ClockState.RUNNING
        assert clock.elapsed(at(12)) == minutes(12)
        assert clock.remaining(at(12)) == minutes(38)
        assert clock.remaining_seconds(at(12)) == 38 * 60
        assert clock.ends_at(at(12)) == at(50)

    def test_remaining_seconds_round_up_so_zero_means_time_up(self):
        clock = started()
        assert clock.remaining_seconds(at(50) - timedelta(milliseconds=400)) == 1
        assert clock.remaining_seconds(at(50)) == 0

    def test_time_up_exactly_at_length_and_never_negative(self):
        clock = started()
        assert clock.state(at(50)) is ClockState.TIME_UP
        assert clock.remaining(at(80)) == timedelta(0)
        assert clock.ends_at(at(80)) == at(50)


class TestPauseResume:
    def test_paused_clock_is_frozen_and_its_end_moves_with_now(self):
        clock = started().pause(at(20))
        assert clock.state(at(25)) is ClockState.PAUSED
        assert clock.remaining(at(25)) == minutes(30)
        assert clock.remaining(at(40)) == minutes(30)
        assert clock.ends_at(at(25)) == at(55)
        assert clock.ends_at(at(40)) == at(70)

    def test_resume_pushes_the_end_by_the_pause(self):
        clock = started().pause(at(20)).resume(at(27))
        assert clock.state(at(30)) is ClockState.RUNNING
        assert clock.elapsed(at(30)) == minutes(23)
        assert clock.remaining(at(30)) == minutes(27)
        assert clock.ends_at(at(30)) == at(57)
        assert clock.state(at(57)) is ClockState.TIME_UP

    def test_several_pauses_add_up(self):
        clock = started().pause(at(10)).resume(at(12)).pause(at(30)).resume(at(33))
        assert clock.ends_at(at(40)) == at(55)
        assert clock.remaining(at(40)) == minutes(15)

    def test_reading_inside_a_past_pause_is_as_of_that_instant(self):
        clock = started().pause(at(10)).resume(at(15))
        assert clock.state(at(12)) is ClockState.PAUSED
        assert clock.elapsed(at(12)) == minutes(10)
        assert clock.state(at(9)) is ClockState.RUNNING

    def test_pause_twice_is_refused(self):
        with pytest.raises(ClockError) as error:
            started().pause(at(5)).pause(at(6))
        assert error.value.code == "already_paused"

    def test_resume_when_not_paused_is_refused(self):
        with pytest.raises(ClockError) as error:
            started().resume(at(5))
        assert error.value.code == "not_paused"

    def test_events_out_of_order_are_refused(self):
        with pytest.raises(ClockError) as error:
            started().pause(at(10)).resume(at(9))
        assert error.value.code == "out_of_order"

    def test_pause_after_time_up_freezes_tables_on_extensions(self):
        clock = started().pause(at(52)).resume(at(60))
        assert clock.state(at(55)) is ClockState.PAUSED
        assert clock.ends_at(at(61)) == at(50)
        assert clock.table_ends_at(at(61), 5) == at(63)


class TestExtensions:
    def test_table_ends_at_round_end_plus_its_extensions(self):
        clock = started().pause(at(20)).resume(at(25))
        extensions = [TimeExtension(4, "deck check, 1 minute + 3"), TimeExtension(2, "judge call")]
        total = total_extension_minutes(extensions)
        assert total == 6
        assert clock.table_ends_at(at(30), total) == at(61)
        assert clock.table_ends_at(at(30), 0) == clock.ends_at(at(30)) == at(55)

    def test_table_time_up_waits_for_its_extension(self):
        clock = started()
        assert clock.state(at(52)) is ClockState.TIME_UP
        assert not clock.table_time_up(at(52), 3)
        assert clock.table_time_up(at(53), 3)

    @pytest.mark.parametrize("bad", [0, -1, MAX_EXTENSION_MINUTES + 1])
    def test_bad_extension_is_refused(self, bad):
        with pytest.raises(ClockError):
            TimeExtension(bad, "reason")

    def test_extension_needs_a_reason(self):
        with pytest.raises(ClockError) as error:
            TimeExtension(3, "  ")
        assert error.value.code == "extension_reason_required"

    def test_negative_table_total_is_refused(self):
        with pytest.raises(ClockError):
            started().table_ends_at(at(1), -2)

    def test_tables_out_of_time_and_next_deadline(self):
        clock = started()
        extensions = {3: 0, 1: 5, 2: 10}
        assert tables_out_of_time(clock, extensions, at(49)) == ()
        assert tables_out_of_time(clock, extensions, at(50)) == (3,)
        assert tables_out_of_time(clock, extensions, at(56)) == (1, 3)
        assert next_deadline(clock, extensions, at(10)) == at(50)
        assert next_deadline(clock, extensions, at(50)) == at(55)
        assert next_deadline(clock, extensions, at(61)) is None

    def test_next_deadline_without_tables_is_the_round_end(self):
        assert next_deadline(started(), {}, at(1)) == at(50)
        assert next_deadline(RoundClock(), {}, at(1)) is None


class TestLengths:
    def test_default_and_playoff_lengths(self):
        assert DEFAULT_ROUND_LENGTH == minutes(50)
        assert PLAYOFF_ROUND_LENGTH == minutes(90)
        assert RoundClock(length=PLAYOFF_ROUND_LENGTH).start(T0).ends_at(at(1)) == at(90)

    def test_below_forty_minutes_is_refused(self):
        with pytest.raises(ClockError) as error:
            RoundClock(length=minutes(39))
        assert error.value.code == "round_too_short"
        assert RoundClock(length=minutes(40)).length == minutes(40)

    def test_untimed_final_never_runs_out(self):
        clock = started(length=None)
        assert clock.state(at(600)) is ClockState.RUNNING
        assert clock.remaining(at(600)) is None
        assert clock.remaining_seconds(at(600)) is None
        assert clock.ends_at(at(600)) is None
        assert not clock.table_time_up(at(600), 0)
        assert next_deadline(clock, {1: 0}, at(600)) is None


class TestFinish:
    def test_finished_clock_freezes(self):
        clock = started().pause(at(20)).finish(at(30))
        assert clock.state(at(45)) is ClockState.FINISHED
        assert clock.elapsed(at(45)) == minutes(20)
        assert clock.remaining(at(45)) == minutes(30)
        assert clock.ends_at(at(45)) is None
        assert clock.state(at(25)) is ClockState.PAUSED

    def test_finished_after_time_up_keeps_the_real_end(self):
        clock = started().finish(at(70))
        assert clock.ends_at(at(80)) == at(50)

    def test_no_pause_after_finish(self):
        with pytest.raises(ClockError):
            started().finish(at(60)).pause(at(61))


class TestAwareness:
    def test_naive_datetimes_are_refused(self):
        naive = datetime(2026, 3, 14, 10, 0)
        with pytest.raises(ClockError) as error:
            RoundClock().start(naive)
        assert error.value.code == "naive_datetime"
        with pytest.raises(ClockError):
            started().remaining(naive)

    def test_other_timezones_compare_as_instants(self):
        plus_two = timezone(timedelta(hours=2))
        clock = started()
        assert clock.remaining(datetime(2026, 3, 14, 12, 10, tzinfo=plus_two)) == minutes(40)


class TestRestart:
    def test_clock_rebuilt_from_stored_timestamps_reads_the_same(self):
        live = started().pause(at(12)).resume(at(15)).pause(at(31))
        stored = {"started_at": live.started_at, "pauses": live.to_timestamps()}

        rebuilt = RoundClock.from_timestamps(length=minutes(50), **stored)

        assert rebuilt == live
        for instant in (at(5), at(13), at(31), at(40)):
            assert rebuilt.state(instant) is live.state(instant)
            assert rebuilt.remaining(instant) == live.remaining(instant)
            assert rebuilt.ends_at(instant) == live.ends_at(instant)
        resumed = rebuilt.resume(at(36))
        assert resumed.ends_at(at(40)) == at(58)

    def test_stored_history_that_breaks_order_is_refused(self):
        with pytest.raises(ClockError):
            RoundClock.from_timestamps(
                length=minutes(50), started_at=T0, pauses=[(at(10), None), (at(20), at(21))]
            )
        with pytest.raises(ClockError):
            RoundClock.from_timestamps(length=minutes(50), started_at=T0, pauses=[(at(-1), at(2))])
        with pytest.raises(ClockError):
            Pause(at(5), at(4))


actions = st.lists(
    st.tuples(st.sampled_from(["pause", "resume"]), st.integers(min_value=0, max_value=20 * 60)),
    max_size=12,
)


def build(steps: list[tuple[str, int]]) -> tuple[RoundClock, datetime]:
    """Apply the allowed actions of a random script; gaps are seconds after the previous event."""
    clock = started()
    cursor = T0
    for action, gap in steps:
        cursor += timedelta(seconds=gap)
        paused = bool(clock.pauses) and clock.pauses[-1].is_open
        if action == "pause" and not paused:
            clock = clock.pause(cursor)
        elif action == "resume" and paused:
            clock = clock.resume(cursor)
    return clock, cursor


class TestInvariants:
    @given(steps=actions, offset=st.integers(min_value=0, max_value=3 * 3600))
    def test_elapsed_plus_remaining_is_the_length_until_time_up(self, steps, offset):
        clock, last = build(steps)
        now = last + timedelta(seconds=offset)
        elapsed, remaining = clock.elapsed(now), clock.remaining(now)
        assert timedelta(0) <= elapsed <= now - T0
        assert timedelta(0) <= remaining <= clock.length
        if elapsed <= clock.length:
            assert elapsed + remaining == clock.length
        else:
            assert clock.state(now) in (ClockState.TIME_UP, ClockState.PAUSED)

    @given(steps=actions, offset=st.integers(min_value=0, max_value=3 * 3600))
    def test_end_is_now_plus_remaining_while_time_is_left(self, steps, offset):
        clock, last = build(steps)
        now = last + timedelta(seconds=offset)
        if clock.remaining(now) > timedelta(0):
            assert clock.ends_at(now) == now + clock.remaining(now)
        else:
            end = clock.ends_at(now)
            assert end <= now
            assert clock.elapsed(end) == clock.length

    @given(steps=actions, a=st.integers(0, 4 * 3600), b=st.integers(0, 4 * 3600))
    def test_elapsed_never_goes_backwards(self, steps, a, b):
        clock, _ = build(steps)
        early, late = sorted((T0 + timedelta(seconds=a), T0 + timedelta(seconds=b)))
        assert clock.elapsed(early) <= clock.elapsed(late)

    @given(steps=actions, extension=st.integers(0, 30), offset=st.integers(0, 3 * 3600))
    def test_table_end_is_never_before_the_round_end(self, steps, extension, offset):
        clock, last = build(steps)
        now = last + timedelta(seconds=offset)
        assert clock.table_ends_at(now, extension) >= clock.ends_at(now)
        assert clock.table_time_up(now, extension) == (clock.table_ends_at(now, extension) <= now)

    @given(steps=actions, offset=st.integers(0, 3 * 3600))
    def test_restart_from_storage_is_indistinguishable(self, steps, offset):
        clock, last = build(steps)
        now = last + timedelta(seconds=offset)
        rebuilt = RoundClock.from_timestamps(
            length=clock.length, started_at=clock.started_at, pauses=clock.to_timestamps()
        )
        assert rebuilt.state(now) is clock.state(now)
        assert rebuilt.remaining(now) == clock.remaining(now)
        assert rebuilt.ends_at(now) == clock.ends_at(now)


def test_domain_modules_stay_pure():
    """The clock is domain code: no django, no ORM, no reading the wall clock."""
    domain = Path(__file__).resolve().parents[3] / "clock" / "domain"
    for name in ("round_clock.py", "end_of_round.py", "display.py"):
        tree = parse((domain / name).read_text())
        imported = [
            alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
        ]
        imported += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        assert not any(module.startswith("django") or ".models" in module for module in imported), name
        called = {
            node.func.attr
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        }
        assert not called & {"now", "utcnow", "today", "time"}, name
