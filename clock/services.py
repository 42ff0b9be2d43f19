"""Writes for the round clock: start, pause, resume, extensions and the end-of-round procedure.

Each service locks the row it changes, rebuilds the clock from stored timestamps, lets the pure
core (``clock.domain.round_clock`` and ``end_of_round``) decide, stores the new timestamps and
writes an audit entry. Nothing keeps time in memory, so the clock survives restarts; the
services store the round's next deadline (``Round.time_check_at``) and the periodic time-up
sweep (``round_time_sweep``, Celery beat) re-checks the clock itself once it has passed.

Rules (see the domain modules for details): players wait for the official clock before they
start (MTR App. B), so starting is separate from pairing; extensions (MTR 2.6) belong to one
table and push its end; end-of-round turns start only after all extensions (MTR 2.4); Slow Play
penalties add two turns each unless given once the table is in extra turns, i.e. from its own
end or the time call, whichever is earlier (IPG 3.3, docs/rules.md#slow-play).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils.translation import gettext as _

from clock.domain.end_of_round import EndOfRoundError, call_time, complete_turn
from clock.domain.errors import ClockUserError
from clock.domain.round_clock import ClockError, ClockState, RoundClock, next_deadline, tables_out_of_time
from clock.domain.round_clock import TimeExtension as ExtensionValue
from clock.selectors import (
    clock_from_rows,
    event_additional_turns,
    extension_minutes_by_table,
    round_clock,
    round_clock_only,
    round_length,
    table_end_of_round,
)
from common.errors import ConflictError, DomainError
from common.i18n import localize
from penalties import selectors as penalty_selectors
from tournaments.enums import ResultKind, RoundKind, TeamSide
from tournaments.models import Match, Round, RoundPause, TimeExtension
from tournaments.services.audit import audit_log

__all__ = [
    "match_time_call",
    "match_turn_complete",
    "round_clock",
    "round_pause",
    "round_resume",
    "round_start",
    "round_time_check_claim",
    "round_time_sweep",
    "round_time_up_record",
    "team_side",
    "time_extension_grant",
]

logger = logging.getLogger(__name__)

_CONFLICT_CODES = frozenset(
    {
        "already_started",
        "already_paused",
        "not_paused",
        "not_running",
        "not_started",
        "already_finished",
        "out_of_order",
        "pause_out_of_order",
        "finish_out_of_order",
        "time_already_called",
        "untimed_round",
        "time_not_up",
        "time_not_called",
        "turns_finished",
    }
)
"""Core refusals caused by the state of the round or table (409); anything else is bad input (400)."""

_FIELD_BY_CODE = {
    "invalid_extension": "minutes",
    "extension_too_long": "minutes",
    "extension_reason_required": "reason",
    "invalid_team": "active_team",
    "round_too_short": "length_minutes",
}


def _api_error(exc: ClockUserError) -> DomainError:
    """The core's refusal as the error the API handler turns into a 400/409 with its message."""
    message = localize(exc.message)
    error: dict = {"message": message, "code": exc.code}
    if exc.code in _FIELD_BY_CODE:
        error["field"] = _FIELD_BY_CODE[exc.code]
    cls = ConflictError if exc.code in _CONFLICT_CODES else DomainError
    return cls(message, errors=[error], extra={"code": exc.code})


def _schedule_time_up(round_id: int, deadline: datetime | None) -> None:
    """Tell the time-up sweep (``round_time_sweep``) to look at this round at ``deadline``.

    Start, resume, extensions and time calls store their next deadline here; the sweep, run by
    Celery beat every few seconds, picks up every round whose ``time_check_at`` has passed. No
    task waits in the broker for a deadline, so the broker's visibility timeout need not cover a
    round's length, and the check works the same with eager Celery (tests), the embedded worker
    and production.
    """
    if deadline is None:
        return
    Round.objects.filter(pk=round_id).update(time_check_at=deadline)


def _lock_round(round_row: Round) -> Round:
    """Re-read the round under a row lock, so two staff clicking Pause at once serialise and the
    second sees the first's pause (and is refused) instead of writing a second open pause."""
    return Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=round_row.pk)


def _clock_summary(clock: RoundClock, at: datetime) -> dict:
    remaining = clock.remaining_seconds(at)
    ends_at = clock.ends_at(at)
    return {
        "state": str(clock.state(at)),
        "remaining_seconds": remaining,
        "ends_at": ends_at.isoformat() if ends_at else None,
    }


@transaction.atomic
def round_start(*, round_row: Round, actor, at: datetime, untimed: bool = False) -> Round:
    """Start the round's clock at ``at``.

    Separate from pairing: the clock starts once players are seated, and they may not begin
    before it does (MTR App. B), so the pairings must be published first. The length is fixed
    here: the round's own ``length_minutes`` if set, else the event's ``round_minutes`` for
    Swiss and 90 minutes for playoffs (docs/rules.md#round-length). ``untimed`` (playoffs only, for a final the
    organizer leaves open) stores no length.
    """
    locked = _lock_round(round_row)
    if not locked.is_public:
        raise ConflictError(
            _("publish the pairings first: players must be seated before the clock starts"),
            extra={"code": "not_published"},
        )
    if locked.is_finished and locked.started_at is None:
        raise ConflictError(_("every result of this round is already in"), extra={"code": "round_finished"})
    if untimed and locked.kind != RoundKind.PLAYOFF:
        raise DomainError(
            _("only a playoff round may be untimed (finals, MTR App. B)"),
            errors=[{"field": "untimed", "message": _("only a playoff round may be untimed")}],
        )
    if locked.started_at is not None:
        raise _api_error(ClockError("already_started", _("the round has already started")))
    length = None if untimed else round_length(locked)
    try:
        clock = RoundClock(length=length).start(at)
    except ClockError as exc:
        raise _api_error(exc) from exc
    locked.started_at = at
    locked.length_minutes = None if length is None else int(length.total_seconds() // 60)
    locked.save(update_fields=["started_at", "length_minutes"])
    audit_log(
        tournament=locked.tournament,
        actor=actor,
        action="round.clock_start",
        obj=locked,
        before={"started_at": None},
        after={"started_at": at.isoformat(), "length_minutes": locked.length_minutes},
    )
    _schedule_time_up(locked.pk, next_deadline(clock, extension_minutes_by_table(locked), at))
    return locked


@transaction.atomic
def round_pause(*, round_row: Round, actor, at: datetime) -> RoundPause:
    """Stop the round clock at ``at`` (every table's clock stops with it, extensions included)."""
    locked = _lock_round(round_row)
    clock = round_clock_only(locked)
    try:
        clock.pause(at)
    except ClockError as exc:
        raise _api_error(exc) from exc
    pause = RoundPause.objects.create(round=locked, paused_at=at)
    audit_log(
        tournament=locked.tournament,
        actor=actor,
        action="round.clock_pause",
        obj=locked,
        before=_clock_summary(clock, at),
        after={"paused_at": at.isoformat()},
    )
    return pause


@transaction.atomic
def round_resume(*, round_row: Round, actor, at: datetime) -> RoundPause:
    """Restart the clock at ``at``; every end moves later by the length of the pause.

    The round's next deadline moves too (a pause cleared it: the sweep saw no deadline while
    the clock stood still).
    """
    locked = _lock_round(round_row)
    pauses = list(RoundPause.objects.filter(round_id=locked.pk))
    clock = clock_from_rows(locked, pauses)
    try:
        resumed = clock.resume(at)
    except ClockError as exc:
        raise _api_error(exc) from exc
    pause = max(pauses, key=lambda row: row.paused_at)
    pause.resumed_at = at
    pause.save(update_fields=["resumed_at"])
    audit_log(
        tournament=locked.tournament,
        actor=actor,
        action="round.clock_resume",
        obj=locked,
        before={"paused_at": pause.paused_at.isoformat()},
        after={
            "resumed_at": at.isoformat(),
            "paused_seconds": int((at - pause.paused_at).total_seconds()),
            **_clock_summary(resumed, at),
        },
    )
    _schedule_time_up(locked.pk, next_deadline(resumed, extension_minutes_by_table(locked), at))
    return pause


def _lock_match(match: Match) -> Match:
    """Re-read the match under a row lock with its round and event, so a time call and an
    extension at the same table cannot interleave."""
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__tournament")
        .prefetch_related("extensions")
        .get(pk=match.pk)
    )


def _require_table(match: Match) -> None:
    if match.table is None or match.team_b_id is None:
        raise ConflictError(_("a bye has no table and no clock"), extra={"code": "bye"})


@transaction.atomic
def time_extension_grant(*, match: Match, actor, minutes: int, reason: str) -> TimeExtension:
    """Give one table extra time, with the reason (MTR 2.6).

    The judge sizes it: a deck check is the time the check took plus 3 minutes; a ruling or
    judge pause over one minute is its length; a feature match with coverage is 3 minutes plus
    the time players took to arrive. 1 to 60 minutes (the core's cap: more is a typo). Refused
    once time has been called at the table: its end-of-round turns start only after all
    extensions (MTR 2.4), so a later one could not move anything.
    """
    locked = _lock_match(match)
    _require_table(locked)
    try:
        grant = ExtensionValue(minutes, reason.strip() if isinstance(reason, str) else reason)
    except ClockError as exc:
        raise _api_error(exc) from exc
    if locked.result_kind != ResultKind.PENDING:
        raise ConflictError(
            _("table %(table)s has already reported its result") % {"table": locked.table},
            extra={"code": "result_reported"},
        )
    if locked.time_called_at is not None:
        raise _api_error(
            EndOfRoundError(
                "time_already_called",
                _(
                    "time was already called at table %(table)s; extensions come before the "
                    "end-of-round turns (MTR 2.4)"
                )
                % {"table": locked.table},
            )
        )
    round_row = locked.round
    if round_row.started_at is not None and round_row.length_minutes is None:
        raise _api_error(EndOfRoundError("untimed_round", _("an untimed round has no end to extend")))
    before_total = sum(extension.minutes for extension in locked.extensions.all())
    extension = TimeExtension.objects.create(
        match=locked, minutes=grant.minutes, reason=grant.reason, granted_by=actor
    )
    if locked.extra_turns_since is not None:
        # Granted after the task marked the table (say, a deck check noted late): its end moves,
        # so it is in extra turns from the new end, or not yet (a later check marks it then).
        new_end = round_clock_only(round_row).table_ends_at(
            extension.created_at, before_total + grant.minutes
        )
        locked.extra_turns_since = (
            new_end if new_end is not None and new_end <= extension.created_at else None
        )
        locked.save(update_fields=["extra_turns_since"])
    audit_log(
        tournament=round_row.tournament,
        actor=actor,
        action="match.time_extension",
        obj=locked,
        before={"extension_minutes": before_total},
        after={"extension_minutes": before_total + grant.minutes, "minutes": grant.minutes},
        reason=grant.reason,
    )
    if round_row.started_at is not None:
        clock = round_clock_only(round_row)
        _schedule_time_up(
            round_row.pk,
            next_deadline(clock, extension_minutes_by_table(round_row), extension.created_at),
        )
    return extension


def team_side(match: Match, value: str | int) -> str:
    """Read the active team as the judge gave it: "A"/"B", or either team's id."""
    text = str(value).strip().upper()
    if text in TeamSide.values:
        return text
    if text.isascii() and text.isdigit():  # not "²": isdigit() accepts it, int() does not
        if int(text) == match.team_a_id:
            return TeamSide.A
        if match.team_b_id is not None and int(text) == match.team_b_id:
            return TeamSide.B
    message = f"active_team must be 'A', 'B' or the id of a team at this table, got {value!r}"
    raise DomainError(message, errors=[{"field": "active_team", "message": message}])


def _table_with_penalties(match: Match, clock: RoundClock, at: datetime):
    """The table as the core sees it, its own end read from the stored clock as of ``at``."""
    penalty_times = penalty_selectors.slow_play_penalty_times([match.pk]).get(match.pk, [])
    return table_end_of_round(
        match,
        penalty_times,
        clock=clock,
        now=at,
        additional_turns=event_additional_turns(match.round.tournament),
    )


@transaction.atomic
def match_time_call(*, match: Match, actor, active_team: str | int, at: datetime) -> Match:
    """A judge calls time at the table at ``at``, noting which team is active (MTR 2.4).

    Refused before the table's own end (round end plus its extensions, paused time not
    counted). The active team finishes its turn (turn 0), then three turns follow plus two per
    Slow Play penalty issued before the table's end (IPG 3.3: none once the match is in extra
    turns, however late the judge clicks). If the active team had already passed the turn, the
    judge gives the other team: that counts as the next turn.
    """
    locked = _lock_match(match)
    _require_table(locked)
    side = team_side(locked, active_team)
    clock = round_clock_only(locked.round)
    try:
        called = call_time(clock, _table_with_penalties(locked, clock, at), side, at)
    except ClockUserError as exc:
        raise _api_error(exc) from exc
    time_called = called.time_called
    assert time_called is not None, "call_time returns the table with time called"
    locked.time_called_at = time_called.called_at
    locked.active_team = str(time_called.active_team)
    locked.turns_completed = 0
    if locked.extra_turns_since is None:
        # The time-up sweep had not marked it yet (it runs every few seconds, or not at all without beat).
        locked.extra_turns_since = called.ends_at
    locked.save(update_fields=["time_called_at", "active_team", "turns_completed", "extra_turns_since"])
    audit_log(
        tournament=locked.round.tournament,
        actor=actor,
        action="match.time_called",
        obj=locked,
        before={"time_called_at": None},
        after={"time_called_at": at.isoformat(), "active_team": locked.active_team},
    )
    _schedule_time_up(locked.round_id, at)
    return locked


@transaction.atomic
def match_turn_complete(*, match: Match, actor) -> Match:
    """Mark the current end-of-round turn at the table as finished (turn 0 first).

    The sequence length comes from the Slow Play penalties issued before the table's end and
    the time call, so advancing past the last turn is refused (then a Swiss match is a draw, a
    playoff goes to life totals: MTR 2.4). The table's end is read as of the time call: it had
    passed by then, so it is a fixed instant whatever the clock did later.
    """
    locked = _lock_match(match)
    _require_table(locked)
    if locked.time_called_at is None:
        raise _api_error(EndOfRoundError("time_not_called", _("time has not been called at this table")))
    table = _table_with_penalties(locked, round_clock_only(locked.round), locked.time_called_at)
    try:
        advanced = complete_turn(table)
    except EndOfRoundError as exc:
        raise _api_error(exc) from exc
    finished_turn = table.tracker.current_turn
    locked.turns_completed = advanced.turns_completed
    locked.save(update_fields=["turns_completed"])
    audit_log(
        tournament=locked.round.tournament,
        actor=actor,
        action="match.turn_completed",
        obj=locked,
        before={"turns_completed": table.turns_completed},
        after={
            "turns_completed": advanced.turns_completed,
            "turn": finished_turn.number,
            "team": str(finished_turn.team),
            "kind": str(finished_turn.kind),
        },
    )
    return locked


@dataclass(frozen=True)
class TimeUpCheck:
    """What one run of the time-up check saw and did.

    ``stale``: the run was not the round's live check (``Round.time_check_at`` names another
    ETA), so it did nothing. ``tables_marked``: the tables this run marked as in extra turns.
    """

    state: ClockState | None
    recorded: bool
    tables_out_of_time: tuple[int, ...]
    next_deadline: datetime | None
    tables_marked: tuple[int, ...] = ()
    stale: bool = False


def round_time_up_record(*, round_id: int, at: datetime, check_at: datetime | None = None) -> TimeUpCheck:
    """Mark the tables whose own end has passed as in extra turns, record once that the round's
    time ran out, and say when to look again.

    Run by the time-up sweep (``round_time_sweep``), possibly late, twice, or after the clock
    changed, so it decides only from the stored clock as of ``at``. ``check_at`` is the deadline
    the sweep found stored; if the round's ``time_check_at`` names another one by now, a start,
    resume, extension, time call or another sweep replaced it, and this run stops (``stale``).
    None: a run from outside the sweep (a manual call), which checks anyway.

    Each table whose own end (round end plus its extensions) has passed gets
    ``extra_turns_since`` = that end, by a conditional update where it is still empty, so only
    the first run marks it and writes the ``round.extra_turns`` audit entry; a table still on an
    extension is marked by the run at its own end. While paused no further end passes, so
    nothing new is marked (resume schedules a new check). Once round time is up the run also
    claims ``time_up_recorded_at`` the same way. Its end-of-round turns start when a judge calls
    time with the active team, which only the judge can see.
    """
    round_row = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if round_row is None or round_row.started_at is None:
        return TimeUpCheck(None, False, (), None)
    if check_at is not None and round_row.time_check_at != check_at:
        return TimeUpCheck(None, False, (), None, stale=True)
    clock = round_clock_only(round_row)
    extensions = extension_minutes_by_table(round_row)
    state = clock.state(at)
    deadline = next_deadline(clock, extensions, at)
    out_of_time = tables_out_of_time(clock, extensions, at)
    marked = _mark_extra_turns(round_row, clock, extensions, out_of_time, at)
    if state is not ClockState.TIME_UP:
        return TimeUpCheck(state, False, (), None if state is ClockState.PAUSED else deadline, marked)
    with transaction.atomic():
        claimed = Round.objects.filter(pk=round_id, time_up_recorded_at__isnull=True).update(
            time_up_recorded_at=at
        )
        if claimed:
            audit_log(
                tournament=round_row.tournament,
                actor=None,
                action="round.time_up",
                obj=round_row,
                after={
                    "time_up_recorded_at": at.isoformat(),
                    "tables_out_of_time": list(out_of_time),
                    "tables_on_extension": sorted(set(extensions) - set(out_of_time)),
                },
            )
    if claimed:
        logger.info("round %s time up; tables out of time: %s", round_id, list(out_of_time))
    return TimeUpCheck(state, bool(claimed), out_of_time, deadline, marked)


@transaction.atomic
def _mark_extra_turns(
    round_row: Round,
    clock: RoundClock,
    extensions: dict[int, int],
    out_of_time: tuple[int, ...],
    at: datetime,
) -> tuple[int, ...]:
    """Set ``extra_turns_since`` to the table's own end on each out-of-time table not marked yet.

    The rows still empty are locked first, so two runs at once cannot both claim (and audit) the
    same table; the update keeps the emptiness condition as well. One update per distinct end.
    """
    if not out_of_time:
        return ()
    pending = {
        table: pk
        for table, pk in Match.objects.select_for_update()
        .filter(round_id=round_row.pk, table__in=out_of_time, extra_turns_since__isnull=True)
        .values_list("table", "pk")
        if table is not None
    }
    if not pending:
        return ()
    ends: dict[datetime, list[int]] = {}
    for table in sorted(pending):
        end = clock.table_ends_at(at, extensions[table])
        assert end is not None, "only a timed round has tables out of time"
        ends.setdefault(end, []).append(table)
    for end, tables in ends.items():
        Match.objects.filter(
            pk__in=[pending[table] for table in tables], extra_turns_since__isnull=True
        ).update(extra_turns_since=end)
    since = {str(table): end.isoformat() for end, tables in ends.items() for table in tables}
    audit_log(
        tournament=round_row.tournament,
        actor=None,
        action="round.extra_turns",
        obj=round_row,
        after={"extra_turns_since": since},
    )
    logger.info("round %s: tables %s in extra turns", round_row.pk, sorted(pending))
    return tuple(sorted(pending))


def round_time_check_claim(
    *, round_id: int, check_at: datetime | None, next_check_at: datetime | None
) -> bool:
    """Move the round's next time-up check from ``check_at`` to ``next_check_at`` (None: no
    deadline is left, the sweep stops looking at it); False if a clock change replaced it
    meanwhile (then that change's deadline stands). ``check_at`` None: take it over anyway."""
    rows = Round.objects.filter(pk=round_id)
    if check_at is not None:
        rows = rows.filter(time_check_at=check_at)
    return bool(rows.update(time_check_at=next_check_at))


def reschedule_at(deadline: datetime, at: datetime) -> datetime:
    """The next check: the deadline, but never in the past, so a worker whose clock runs a
    little ahead of the web server's does not spin."""
    return max(deadline, at + timedelta(seconds=1))


@dataclass(frozen=True)
class SweptRound:
    """One round the time-up sweep looked at: what it saw and when it looks again."""

    round_id: int
    check: TimeUpCheck
    next_check_at: datetime | None


def round_time_sweep(*, at: datetime, limit: int = 200) -> list[SweptRound]:
    """Run the time-up check of every round whose next deadline (``time_check_at``) has passed.

    Run by Celery beat every few seconds (``CELERY_BEAT_SCHEDULE``). Each round is checked as
    of ``at`` (``round_time_up_record``: idempotent, claims each write), then its next deadline
    is stored through a conditional update, so a start, pause, extension or time call committed
    meanwhile keeps its own deadline. Rounds are taken oldest deadline first, ``limit`` a run;
    the next run takes the rest.
    """
    due = list(
        Round.objects.filter(time_check_at__lte=at)
        .order_by("time_check_at", "pk")
        .values_list("pk", "time_check_at")[:limit]
    )
    swept = []
    for round_id, check_at in due:
        check = round_time_up_record(round_id=round_id, at=at, check_at=check_at)
        if check.stale:
            continue
        next_check_at = reschedule_at(check.next_deadline, at) if check.next_deadline else None
        if round_time_check_claim(round_id=round_id, check_at=check_at, next_check_at=next_check_at):
            swept.append(SweptRound(round_id, check, next_check_at))
    return swept
