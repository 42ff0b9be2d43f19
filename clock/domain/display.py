"""What the clock screens show: one row per table and the round's clock, from the pure core.

The projector, the judges' list, a player's own table and the API all read these rows (through
``clock.selectors``), so every screen says the same thing about a table.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from clock.domain.end_of_round import (
    TEAM_ADDITIONAL_TURNS,
    TableEndOfRound,
    Turn,
    extra_turns_total,
    with_table_end,
)
from clock.domain.round_clock import ClockState, RoundClock
from tournaments.domain.choices import TeamSide


@dataclass(frozen=True)
class TableClock:
    """One table's row on every clock screen and in the API.

    ``active_team`` is the team taking the current end-of-round turn (at turn 0, the team that
    was active when time was called); None before time is called and after the last turn.
    ``extra_turns_total`` counts turns after turn 0, and before time is called it already shows
    the Slow Play turns the table has earned so far. ``extra_turns_since`` is when the time-up
    task marked the table as in extra turns (its own end); until a judge records the active team
    with the time call, that is all the screens can say. ``additional_turns``: the event's
    turns before any Slow Play ones (five one-versus-one, three in 2HG; MTR 2.4). A table whose
    result is in (``result_in``) is finished: not out of time, not waiting for a judge, not in
    extra turns.
    """

    table: int
    ends_at: datetime | None
    extension_minutes: int
    time_up: bool
    time_called: bool
    extra_turns_total: int
    extra_turns_played: int
    active_team: TeamSide | None
    current_turn: Turn | None
    finished: bool
    extra_turns_since: datetime | None = None
    result_in: bool = False
    additional_turns: int = TEAM_ADDITIONAL_TURNS


def table_clock_row(clock: RoundClock, table: TableEndOfRound, now: datetime) -> TableClock:
    table = with_table_end(clock, table, now)
    tracker = table.tracker
    if tracker is None:
        total = extra_turns_total(table.counted_penalties, additional_turns=table.additional_turns)
        played, active, current, finished = 0, None, None, False
    else:
        total = tracker.extra_turns_total
        played = tracker.extra_turns_played
        active, current, finished = tracker.active_team, tracker.current_turn, tracker.finished
    if table.result_in:
        active, current, finished = None, None, True
    return TableClock(
        table=table.table,
        ends_at=table.ends_at,
        extension_minutes=table.extension_minutes,
        time_up=not table.result_in and clock.table_time_up(now, table.extension_minutes),
        time_called=tracker is not None,
        extra_turns_total=total,
        extra_turns_played=played,
        active_team=active,
        current_turn=current,
        finished=finished,
        extra_turns_since=None if table.result_in else table.extra_turns_since,
        result_in=table.result_in,
        additional_turns=table.additional_turns,
    )


@dataclass(frozen=True)
class RoundClockView:
    """The whole payload of ``GET .../rounds/{n}/clock/``."""

    state: ClockState
    ends_at: datetime | None
    remaining_seconds: int | None
    tables: tuple[TableClock, ...]


def round_clock_view(clock: RoundClock, tables: Iterable[TableEndOfRound], now: datetime) -> RoundClockView:
    return RoundClockView(
        state=clock.state(now),
        ends_at=clock.ends_at(now),
        remaining_seconds=clock.remaining_seconds(now),
        tables=tuple(table_clock_row(clock, table, now) for table in sorted(tables, key=lambda t: t.table)),
    )
