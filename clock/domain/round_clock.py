"""The round clock, as pure arithmetic over stored timestamps.

A round's clock is stored as the instant it started and the list of pauses staff made
(paused_at, resumed_at or None), never as a ticking counter: every question ("how much time is
left?", "when does table 12 run out?") is answered from those timestamps and an instant passed
in by the caller. That is what lets the clock survive a process restart or a worker that
wakes up late, and it is why nothing here calls ``now()``.

Rules encoded here:

* Round length: 50 minutes by default, never less than 40 (MTR Appendix B, the minimum "for any
  match"; docs/rules.md#round-length: a lower value is refused); playoff rounds 90 minutes; finals may be untimed,
  which is modelled as ``length=None``.
* Time extensions (MTR 2.6) belong to one table: that table's time runs out at the round's end
  plus its extensions, and its end-of-round turns start only after them (MTR 2.4).
* A pause stops the round clock and every table clock with it, including a table still running
  on an extension after the round's own time is up.

Every query reads the clock "as of" the instant it is given: events recorded after that instant
are ignored, so a slightly skewed caller clock gives a consistent past view, not an error.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from enum import StrEnum

from clock.domain.errors import ClockError
from common.translatable import N_

DEFAULT_ROUND_LENGTH = timedelta(minutes=50)
PLAYOFF_ROUND_LENGTH = timedelta(minutes=90)
MIN_ROUND_LENGTH = timedelta(minutes=40)
MAX_EXTENSION_MINUTES = 60
"""Cap on a single extension grant. MTR 2.6 sizes extensions by what was lost (a judge call, a
deck check plus 3 minutes); an hour is far beyond any of those, so a larger value is a typo."""

_ZERO = timedelta(0)


class ClockState(StrEnum):
    NOT_STARTED = "not_started"
    RUNNING = "running"
    PAUSED = "paused"
    TIME_UP = "time_up"
    FINISHED = "finished"


def require_aware(value: datetime, name: str) -> datetime:
    """Refuse naive datetimes: a naive instant compared with an aware one is a bug waiting for
    the next daylight-saving change."""
    if not isinstance(value, datetime):
        raise ClockError("not_a_datetime", f"{name} must be a datetime, got {type(value).__name__}")
    if value.tzinfo is None or value.tzinfo.utcoffset(value) is None:
        raise ClockError("naive_datetime", f"{name} must be timezone-aware")
    return value


def validate_round_length(length: timedelta | None) -> timedelta | None:
    """Return ``length`` if it is a legal round length; ``None`` means untimed (finals only).

    MTR Appendix B makes 40 minutes the minimum for any match, playoffs included, so it is
    refused below that for every timed round.
    """
    if length is None:
        return None
    if not isinstance(length, timedelta):
        raise ClockError("invalid_length", "round length must be a timedelta or None (untimed)")
    if length < MIN_ROUND_LENGTH:
        raise ClockError(
            "round_too_short",
            N_(
                "a round lasts at least %(minutes)s minutes (MTR Appendix B)",
                minutes=f"{MIN_ROUND_LENGTH.total_seconds() // 60:.0f}",
            ),
        )
    return length


def validate_extension_minutes(minutes: int) -> int:
    """Check one extension grant: a positive whole number of minutes, at most the sane cap."""
    if isinstance(minutes, bool) or not isinstance(minutes, int):
        raise ClockError("invalid_extension", N_("an extension is a whole number of minutes"))
    if minutes <= 0:
        raise ClockError("invalid_extension", N_("an extension must add at least one minute"))
    if minutes > MAX_EXTENSION_MINUTES:
        raise ClockError(
            "extension_too_long",
            N_("a single extension is at most %(minutes)s minutes", minutes=MAX_EXTENSION_MINUTES),
        )
    return minutes


@dataclass(frozen=True)
class TimeExtension:
    """One extension a judge granted to one table (MTR 2.6), with the reason for the audit."""

    minutes: int
    reason: str

    def __post_init__(self) -> None:
        validate_extension_minutes(self.minutes)
        if not isinstance(self.reason, str) or not self.reason.strip():
            raise ClockError("extension_reason_required", N_("an extension needs a reason"))


def total_extension_minutes(extensions: Iterable[TimeExtension]) -> int:
    """A table's extensions add up; its end is the round's end plus the sum (MTR 2.6)."""
    return sum(extension.minutes for extension in extensions)


@dataclass(frozen=True)
class Pause:
    """A stretch during which the round clock stood still; ``ended_at`` is None while it lasts."""

    started_at: datetime
    ended_at: datetime | None = None

    def __post_init__(self) -> None:
        require_aware(self.started_at, "pause start")
        if self.ended_at is not None:
            require_aware(self.ended_at, "pause end")
            if self.ended_at < self.started_at:
                raise ClockError("pause_out_of_order", "a pause cannot end before it starts")

    @property
    def is_open(self) -> bool:
        return self.ended_at is None


@dataclass(frozen=True)
class RoundClock:
    """A round's clock: its start, its length (None: untimed), its pauses, its finish.

    Build it from stored timestamps (``from_timestamps``) or step it with ``start``/``pause``/
    ``resume``/``finish``, each of which returns a new clock and refuses what the history does
    not allow. The history is validated on construction: pauses in order, not overlapping, after
    the start, and only the last one open.
    """

    length: timedelta | None = DEFAULT_ROUND_LENGTH
    started_at: datetime | None = None
    pauses: tuple[Pause, ...] = field(default_factory=tuple)
    finished_at: datetime | None = None

    def __post_init__(self) -> None:
        validate_round_length(self.length)
        object.__setattr__(self, "pauses", tuple(self.pauses))
        if self.started_at is None:
            if self.pauses or self.finished_at is not None:
                raise ClockError("not_started", "a round that has not started has no pauses or finish")
            return
        require_aware(self.started_at, "round start")
        last = self.started_at
        for index, pause in enumerate(self.pauses):
            if not isinstance(pause, Pause):
                raise ClockError("invalid_pause", "pauses must be Pause values")
            if pause.started_at < last:
                raise ClockError("pause_out_of_order", "pauses must follow the start and each other")
            if pause.ended_at is None:
                if index != len(self.pauses) - 1:
                    raise ClockError("pause_out_of_order", "only the last pause may still be open")
                last = pause.started_at
            else:
                last = pause.ended_at
        if self.finished_at is not None:
            require_aware(self.finished_at, "round finish")
            if self.finished_at < last:
                raise ClockError("finish_out_of_order", "a round cannot finish before its last event")

    @classmethod
    def from_timestamps(
        cls,
        *,
        length: timedelta | None,
        started_at: datetime | None,
        pauses: Iterable[tuple[datetime, datetime | None]] = (),
        finished_at: datetime | None = None,
    ) -> RoundClock:
        """Rebuild the clock from the stored columns, e.g. after a restart."""
        return cls(
            length=length,
            started_at=started_at,
            pauses=tuple(Pause(start, end) for start, end in pauses),
            finished_at=finished_at,
        )

    def to_timestamps(self) -> list[tuple[datetime, datetime | None]]:
        """The pauses as the (paused_at, resumed_at) pairs the adapter stores."""
        return [(pause.started_at, pause.ended_at) for pause in self.pauses]

    @property
    def untimed(self) -> bool:
        return self.length is None

    def _last_event(self) -> datetime | None:
        if self.finished_at is not None:
            return self.finished_at
        if self.pauses:
            last = self.pauses[-1]
            return last.started_at if last.ended_at is None else last.ended_at
        return self.started_at

    def _check_order(self, at: datetime) -> None:
        require_aware(at, "instant")
        last = self._last_event()
        if last is not None and at < last:
            raise ClockError("out_of_order", "a clock event cannot come before the previous one")

    def start(self, at: datetime) -> RoundClock:
        """Start the round; starting twice would silently reset everyone's time."""
        require_aware(at, "round start")
        if self.started_at is not None:
            raise ClockError("already_started", N_("the round has already started"))
        return replace(self, started_at=at)

    def pause(self, at: datetime) -> RoundClock:
        """Stop the clock (e.g. a room-wide announcement). Allowed once time is up too, since
        tables on extensions are still playing on the same clock."""
        self._check_order(at)
        if self.started_at is None or self.finished_at is not None:
            raise ClockError("not_running", N_("only a running round can be paused"))
        if self.pauses and self.pauses[-1].is_open:
            raise ClockError("already_paused", N_("the round is already paused"))
        return replace(self, pauses=(*self.pauses, Pause(at)))

    def resume(self, at: datetime) -> RoundClock:
        self._check_order(at)
        if self.finished_at is not None or not self.pauses or not self.pauses[-1].is_open:
            raise ClockError("not_paused", N_("only a paused round can be resumed"))
        return replace(self, pauses=(*self.pauses[:-1], Pause(self.pauses[-1].started_at, at)))

    def finish(self, at: datetime) -> RoundClock:
        """Close the round (all results in). The clock freezes; an open pause ends with it."""
        self._check_order(at)
        if self.started_at is None:
            raise ClockError("not_started", N_("a round that has not started cannot finish"))
        if self.finished_at is not None:
            raise ClockError("already_finished", N_("the round has already finished"))
        return replace(self, finished_at=at)

    def _horizon(self, now: datetime) -> datetime:
        """The instant the clock is read at: ``now``, or the finish if that came first."""
        require_aware(now, "now")
        if self.finished_at is not None and self.finished_at <= now:
            return self.finished_at
        return now

    def _running_segments(self, until: datetime) -> list[tuple[datetime, datetime]]:
        """The wall-clock intervals, up to ``until``, during which the clock ran."""
        assert self.started_at is not None
        segments: list[tuple[datetime, datetime]] = []
        cursor = self.started_at
        for pause in self.pauses:
            if pause.started_at >= until:
                break
            segments.append((cursor, pause.started_at))
            if pause.ended_at is None or pause.ended_at >= until:
                return segments
            cursor = pause.ended_at
        if cursor < until:
            segments.append((cursor, until))
        return segments

    def is_paused(self, now: datetime) -> bool:
        horizon = self._horizon(now)
        if self.started_at is None or self.started_at > horizon:
            return False
        if self.finished_at is not None and self.finished_at <= now:
            return False
        return any(
            pause.started_at <= horizon and (pause.ended_at is None or pause.ended_at > horizon)
            for pause in self.pauses
        )

    def elapsed(self, now: datetime) -> timedelta:
        """Running time so far: wall-clock time since the start minus the pauses."""
        horizon = self._horizon(now)
        if self.started_at is None or self.started_at >= horizon:
            return _ZERO
        return sum((end - start for start, end in self._running_segments(horizon)), _ZERO)

    def remaining(self, now: datetime) -> timedelta | None:
        """Round time left, never negative; frozen while paused; None when untimed."""
        if self.length is None:
            return None
        return max(self.length - self.elapsed(now), _ZERO)

    def remaining_seconds(self, now: datetime) -> int | None:
        """Whole seconds left, rounded up, so it reads 0 exactly when time is up."""
        remaining = self.remaining(now)
        if remaining is None:
            return None
        return math.ceil(remaining.total_seconds())

    def state(self, now: datetime) -> ClockState:
        """Finished, not started, paused, time up or running, in that order of precedence.

        A pause after time is up still reads ``paused``: the room is stopped, tables on
        extensions included.
        """
        horizon = self._horizon(now)
        if self.finished_at is not None and self.finished_at <= now:
            return ClockState.FINISHED
        if self.started_at is None or self.started_at > horizon:
            return ClockState.NOT_STARTED
        if self.is_paused(now):
            return ClockState.PAUSED
        if self.length is not None and self.elapsed(now) >= self.length:
            return ClockState.TIME_UP
        return ClockState.RUNNING

    def instant_at_running_time(self, target: timedelta, now: datetime) -> datetime | None:
        """The wall-clock instant at which running time reaches ``target``.

        If it was reached already, this is the real past instant. Otherwise it is projected from
        ``now`` assuming no further pause, so while paused the projection moves with ``now``
        (a scheduler must reschedule on resume). None before the start, or when the round
        finished before reaching it.
        """
        horizon = self._horizon(now)
        if self.started_at is None or self.started_at > horizon:
            return None
        if target <= _ZERO:
            return self.started_at
        accumulated = _ZERO
        for start, end in self._running_segments(horizon):
            span = end - start
            if accumulated + span >= target:
                return start + (target - accumulated)
            accumulated += span
        if self.finished_at is not None and self.finished_at <= now:
            return None
        return now + (target - accumulated)

    def ends_at(self, now: datetime) -> datetime | None:
        """When round time runs out (see ``instant_at_running_time``); None if untimed."""
        if self.length is None:
            return None
        return self.instant_at_running_time(self.length, now)

    def table_ends_at(self, now: datetime, extension_minutes: int = 0) -> datetime | None:
        """When one table's time runs out: the round's end plus that table's extensions."""
        if self.length is None:
            return None
        return self.instant_at_running_time(self.length + _extension(extension_minutes), now)

    def table_time_up(self, now: datetime, extension_minutes: int = 0) -> bool:
        """Whether the table has reached its end (round length plus extensions) by ``now``."""
        if self.length is None:
            return False
        return self.elapsed(now) >= self.length + _extension(extension_minutes)


def _extension(extension_minutes: int) -> timedelta:
    if isinstance(extension_minutes, bool) or not isinstance(extension_minutes, int):
        raise ClockError("invalid_extension", "extension minutes must be a whole number")
    if extension_minutes < 0:
        raise ClockError("invalid_extension", "a table's extension total cannot be negative")
    return timedelta(minutes=extension_minutes)


def tables_out_of_time(
    clock: RoundClock, extension_minutes_by_table: Mapping[int, int], at: datetime
) -> tuple[int, ...]:
    """The tables at or past their own end at ``at``, in table order (for the alert task)."""
    return tuple(
        table
        for table, minutes in sorted(extension_minutes_by_table.items())
        if clock.table_time_up(at, minutes)
    )


def next_deadline(
    clock: RoundClock, extension_minutes_by_table: Mapping[int, int], now: datetime
) -> datetime | None:
    """The next instant after ``now`` at which the round or some table runs out of time.

    What a scheduler sets its next alert for; None when nothing is left to run out (untimed,
    not started, finished, or every table already out of time). While paused this projection
    moves, so the scheduler should recompute it on resume.
    """
    if clock.state(now) in (ClockState.NOT_STARTED, ClockState.FINISHED) or clock.untimed:
        return None
    candidates = [clock.ends_at(now)]
    candidates += [clock.table_ends_at(now, minutes) for minutes in extension_minutes_by_table.values()]
    future = [instant for instant in candidates if instant is not None and instant > now]
    return min(future, default=None)
