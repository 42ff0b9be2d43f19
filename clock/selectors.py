"""Reads for the round clock: stored rows turned into the pure clock core's values.

The clock is never held in memory between requests. Every read rebuilds it from the round's
start, length and pauses, each table's extensions and time call, and the Slow Play penalties the
penalties app reports, so a restarted web process or a worker waking late sees the same clock.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Sum
from django.db.models.functions import Coalesce

from clock.domain.display import RoundClockView, TableClock, round_clock_view, table_clock_row
from clock.domain.end_of_round import (
    SlowPlayPenalty,
    TableEndOfRound,
    TimeCalled,
    additional_turns_for,
    with_table_end,
)
from clock.domain.round_clock import (
    DEFAULT_ROUND_LENGTH,
    PLAYOFF_ROUND_LENGTH,
    RoundClock,
    total_extension_minutes,
)
from clock.domain.round_clock import TimeExtension as ExtensionValue
from penalties import selectors as penalty_selectors
from tournaments.enums import RoundKind
from tournaments.models import Match, Round, RoundPause, Tournament


def round_length(round_row: Round) -> timedelta | None:
    """The length the round runs (or will run) for; None means untimed.

    Once started, the stored ``length_minutes`` is the truth and None there means untimed
    (a final the organizer chose to leave open, MTR App. B). Before the start an empty value
    means "the default when the clock starts": the event's ``round_minutes`` for Swiss, 90
    minutes for playoffs (docs/rules.md#round-length).
    """
    if round_row.length_minutes is not None:
        return timedelta(minutes=round_row.length_minutes)
    if round_row.started_at is not None:
        return None
    if round_row.kind == RoundKind.PLAYOFF:
        return PLAYOFF_ROUND_LENGTH
    minutes = getattr(round_row.tournament, "round_minutes", None)
    return timedelta(minutes=minutes) if minutes else DEFAULT_ROUND_LENGTH


def clock_from_rows(round_row: Round, pauses: list[RoundPause]) -> RoundClock:
    """The core's clock for a round, from its columns and its pause rows (in any order)."""
    ordered = sorted(pauses, key=lambda pause: pause.paused_at)
    return RoundClock.from_timestamps(
        length=round_length(round_row),
        started_at=round_row.started_at,
        pauses=[(pause.paused_at, pause.resumed_at) for pause in ordered],
    )


def round_clock_only(round_row: Round) -> RoundClock:
    """The round's clock alone (one query for the pauses), for writes that lock the round first."""
    return clock_from_rows(round_row, list(RoundPause.objects.filter(round_id=round_row.pk)))


def table_end_of_round(
    match: Match,
    penalty_times: list[datetime],
    *,
    clock: RoundClock,
    now: datetime,
    additional_turns: int,
) -> TableEndOfRound:
    """A table's stored end-of-round facts as the core's value, with its own end read from the
    round's ``clock`` as of ``now`` (the cut-off for Slow Play turns, IPG 3.3) and the event's
    ``additional_turns`` (``event_additional_turns``).

    Precondition: ``match.extensions`` is prefetched (or a query per match is accepted).
    """
    time_called = None
    if match.time_called_at is not None and match.active_team:
        time_called = TimeCalled(match.active_team, match.time_called_at)
    table = TableEndOfRound(
        table=match.table,
        extension_minutes=total_extension_minutes(
            ExtensionValue(extension.minutes, extension.reason) for extension in match.extensions.all()
        ),
        penalties=tuple(SlowPlayPenalty(issued_at) for issued_at in sorted(penalty_times)),
        time_called=time_called,
        turns_completed=match.turns_completed if time_called is not None else 0,
        extra_turns_since=match.extra_turns_since,
        result_in=match.has_result,
        additional_turns=additional_turns,
    )
    return with_table_end(clock, table, now)


def event_additional_turns(tournament: Tournament) -> int:
    """The event's end-of-round turns after turn 0, before Slow Play: five in a one-versus-one
    event, three in 2HG (MTR 2.4)."""
    return additional_turns_for(tournament.team_size)


def seated_matches(round_row: Round):
    """The round's matches that have a table (a bye has no table and no clock), with what the
    clock and the judge's list need: both teams and the extensions, in three queries."""
    return (
        Match.objects.filter(round_id=round_row.pk, table__isnull=False)
        .select_related("team_a", "team_b")
        .prefetch_related("extensions")
        .order_by("table")
    )


@dataclass(frozen=True)
class RoundClockData:
    """Everything one read of a round's clock loaded, for pages that show more than the API."""

    clock: RoundClock
    view: RoundClockView
    matches: tuple[Match, ...]
    tables: dict[int, TableEndOfRound]


def round_clock_data(round_row: Round, *, now: datetime) -> RoundClockData:
    """Load the round's clock and every table's state as of ``now``.

    Queries: the pauses, the matches with their teams, their extensions, plus whatever the
    penalties selector needs for the Slow Play times; the count does not grow with the tables.
    Precondition: ``round_row.tournament`` is loaded (select_related) or one more query is spent.
    """
    clock = round_clock_only(round_row)
    matches = tuple(seated_matches(round_row))
    penalty_times: dict[int, list[datetime]] = defaultdict(list)
    if matches:
        penalty_times.update(penalty_selectors.slow_play_penalty_times([match.pk for match in matches]))
    additional = event_additional_turns(round_row.tournament)
    tables = {
        match.table: table_end_of_round(
            match, penalty_times.get(match.pk, []), clock=clock, now=now, additional_turns=additional
        )
        for match in matches
    }
    return RoundClockData(
        clock=clock,
        view=round_clock_view(clock, tables.values(), now),
        matches=matches,
        tables=tables,
    )


def round_clock(round_row: Round, *, now: datetime) -> RoundClockView:
    """The round clock payload (``GET .../rounds/{n}/clock/``) as of ``now``, in a fixed number of
    queries whatever the number of tables (see ``round_clock_data``)."""
    return round_clock_data(round_row, now=now).view


def match_clock_row(match: Match, *, now: datetime) -> TableClock:
    """One table's row of the clock, after a judge acted on it."""
    round_row = match.round
    clock = round_clock_only(round_row)
    penalty_times = penalty_selectors.slow_play_penalty_times([match.pk]).get(match.pk, [])
    additional = event_additional_turns(round_row.tournament)
    table = table_end_of_round(match, penalty_times, clock=clock, now=now, additional_turns=additional)
    return table_clock_row(clock, table, now)


def extension_minutes_by_table(round_row: Round) -> dict[int, int]:
    """Table → total extension minutes, for the time-up scheduler (one query)."""
    rows = (
        Match.objects.filter(round_id=round_row.pk, table__isnull=False)
        .annotate(extension_total=Coalesce(Sum("extensions__minutes"), 0))
        .values_list("table", "extension_total")
    )
    return dict(rows)
