"""The clock services against the database: start, pause/resume arithmetic, extensions and the
time call, each read back through the selector as the API would show it."""

from __future__ import annotations

import datetime

import pytest
import time_machine

from clock.domain.round_clock import ClockState
from clock.selectors import round_clock
from clock.services import (
    match_time_call,
    round_pause,
    round_resume,
    round_start,
    time_extension_grant,
)
from common.errors import ConflictError, DomainError
from tests.clock.conftest import T0, at
from tests.clock.factories import MatchFactory, RoundFactory
from tournaments.enums import RoundKind
from tournaments.models import AuditEntry, Round, RoundPause, TimeExtension

pytestmark = pytest.mark.django_db


def _view(round_row, now):
    return round_clock(Round.objects.select_related("tournament").get(pk=round_row.pk), now=now)


def _table(view, number):
    return next(row for row in view.tables if row.table == number)


def test_start_stores_the_events_round_length_and_the_start(tournament, round_one, tables, judge):
    tournament.round_minutes = 45
    tournament.save()

    round_start(round_row=round_one, actor=judge, at=T0)

    round_one.refresh_from_db()
    assert (round_one.started_at, round_one.length_minutes) == (T0, 45)
    view = _view(round_one, at(10))
    assert (view.state, view.ends_at, view.remaining_seconds) == (ClockState.RUNNING, at(45), 35 * 60)
    entry = AuditEntry.objects.get(action="round.clock_start")
    assert (entry.actor, entry.object_id, entry.after) == (
        judge,
        str(round_one.pk),
        {"started_at": T0.isoformat(), "length_minutes": 45},
    )


def test_start_keeps_a_length_set_on_the_round(round_one, tables, judge):
    round_one.length_minutes = 60
    round_one.save()

    round_start(round_row=round_one, actor=judge, at=T0)

    assert _view(round_one, T0).ends_at == at(60)


def test_playoff_round_defaults_to_ninety_minutes(tournament, judge):
    playoff = RoundFactory(tournament=tournament, number=6, kind=RoundKind.PLAYOFF)

    round_start(round_row=playoff, actor=judge, at=T0)

    playoff.refresh_from_db()
    assert playoff.length_minutes == 90
    assert _view(playoff, T0).remaining_seconds == 90 * 60


def test_untimed_final_has_no_end(tournament, judge, slow_play):
    final = RoundFactory(tournament=tournament, number=8, kind=RoundKind.PLAYOFF)
    MatchFactory(round=final, table=1)

    round_start(round_row=final, actor=judge, at=T0, untimed=True)

    final.refresh_from_db()
    assert (final.started_at, final.length_minutes) == (T0, None)
    view = _view(final, at(500))
    assert (view.state, view.ends_at, view.remaining_seconds, view.tables[0].ends_at) == (
        ClockState.RUNNING,
        None,
        None,
        None,
    )


def test_untimed_is_refused_for_a_swiss_round(round_one, judge):
    with pytest.raises(DomainError) as refused:
        round_start(round_row=round_one, actor=judge, at=T0, untimed=True)

    assert refused.value.status_code == 400
    assert refused.value.errors[0]["field"] == "untimed"


def test_a_round_shorter_than_forty_minutes_is_refused(round_one, judge):
    round_one.length_minutes = 30
    round_one.save()

    with pytest.raises(DomainError) as refused:
        round_start(round_row=round_one, actor=judge, at=T0)

    assert (refused.value.status_code, refused.value.message) == (
        400,
        "a round lasts at least 40 minutes (MTR Appendix B)",
    )


def test_start_waits_for_published_pairings(round_one, judge):
    round_one.published_at = None
    round_one.save()

    with pytest.raises(ConflictError) as refused:
        round_start(round_row=round_one, actor=judge, at=T0)

    assert (
        refused.value.message == "publish the pairings first: players must be seated before the clock starts"
    )
    round_one.refresh_from_db()
    assert round_one.started_at is None


def test_starting_twice_is_a_conflict_and_keeps_the_first_start(round_one, judge):
    round_start(round_row=round_one, actor=judge, at=T0)

    with pytest.raises(ConflictError) as refused:
        round_start(round_row=round_one, actor=judge, at=at(5))

    assert refused.value.message == "the round has already started"
    round_one.refresh_from_db()
    assert round_one.started_at == T0


def test_pause_and_resume_push_every_end_by_the_pause(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)
    round_pause(round_row=round_one, actor=judge, at=at(20))

    paused = _view(round_one, at(25))
    assert (paused.state, paused.remaining_seconds) == (ClockState.PAUSED, 30 * 60)

    round_resume(round_row=round_one, actor=judge, at=at(27))

    view = _view(round_one, at(30))
    assert (view.state, view.ends_at, view.remaining_seconds) == (ClockState.RUNNING, at(57), 27 * 60)
    assert [row.ends_at for row in view.tables] == [at(57), at(57), at(57)]
    assert list(RoundPause.objects.values_list("paused_at", "resumed_at")) == [(at(20), at(27))]
    assert list(AuditEntry.objects.order_by("id").values_list("action", flat=True)) == [
        "round.clock_start",
        "round.clock_pause",
        "round.clock_resume",
    ]


def test_two_pauses_add_up(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)
    round_pause(round_row=round_one, actor=judge, at=at(10))
    round_resume(round_row=round_one, actor=judge, at=at(12, 30))
    round_pause(round_row=round_one, actor=judge, at=at(40))
    round_resume(round_row=round_one, actor=judge, at=at(41))

    view = _view(round_one, at(53, 30))
    assert (view.state, view.ends_at, view.remaining_seconds) == (ClockState.TIME_UP, at(53, 30), 0)
    assert _view(round_one, at(53, 29)).remaining_seconds == 1


def test_a_second_pause_is_refused_and_writes_nothing(round_one, judge):
    round_start(round_row=round_one, actor=judge, at=T0)
    round_pause(round_row=round_one, actor=judge, at=at(20))

    with pytest.raises(ConflictError) as refused:
        round_pause(round_row=round_one, actor=judge, at=at(20, 1))

    assert refused.value.message == "the round is already paused"
    assert RoundPause.objects.count() == 1


def test_resume_without_a_pause_is_refused(round_one, judge):
    round_start(round_row=round_one, actor=judge, at=T0)

    with pytest.raises(ConflictError) as refused:
        round_resume(round_row=round_one, actor=judge, at=at(5))

    assert refused.value.message == "only a paused round can be resumed"


def test_pause_before_the_start_is_refused(round_one, judge):
    with pytest.raises(ConflictError) as refused:
        round_pause(round_row=round_one, actor=judge, at=T0)

    assert refused.value.message == "only a running round can be paused"


def test_extension_moves_only_that_tables_end(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)

    with time_machine.travel(at(12), tick=False):
        extension = time_extension_grant(match=tables[1], actor=judge, minutes=9, reason="deck check (6 + 3)")

    assert (extension.minutes, extension.reason, extension.granted_by, extension.created_at) == (
        9,
        "deck check (6 + 3)",
        judge,
        at(12),
    )
    view = _view(round_one, at(20))
    assert [(row.table, row.ends_at, row.extension_minutes) for row in view.tables] == [
        (1, at(50), 0),
        (2, at(59), 9),
        (3, at(50), 0),
    ]
    entry = AuditEntry.objects.get(action="match.time_extension")
    assert (entry.before, entry.after, entry.reason) == (
        {"extension_minutes": 0},
        {"extension_minutes": 9, "minutes": 9},
        "deck check (6 + 3)",
    )


def test_extensions_at_one_table_add_up_and_pause_with_the_round(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)
    with time_machine.travel(at(5), tick=False):
        time_extension_grant(match=tables[0], actor=judge, minutes=2, reason="ruling took 2 minutes")
        time_extension_grant(match=tables[0], actor=judge, minutes=4, reason="judge call")
    round_pause(round_row=round_one, actor=judge, at=at(30))
    round_resume(round_row=round_one, actor=judge, at=at(33))

    assert _table(_view(round_one, at(40)), 1).ends_at == at(59)


@pytest.mark.parametrize(
    ("minutes", "reason", "field", "message"),
    [
        (0, "deck check", "minutes", "an extension must add at least one minute"),
        (61, "deck check", "minutes", "a single extension is at most 60 minutes"),
        (3, "   ", "reason", "an extension needs a reason"),
    ],
)
def test_extension_input_is_checked(round_one, tables, judge, minutes, reason, field, message):
    with pytest.raises(DomainError) as refused:
        time_extension_grant(match=tables[0], actor=judge, minutes=minutes, reason=reason)

    assert (refused.value.status_code, refused.value.errors[0]["field"], refused.value.message) == (
        400,
        field,
        message,
    )
    assert TimeExtension.objects.count() == 0


def test_time_call_is_refused_before_the_tables_end(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)

    with pytest.raises(ConflictError) as refused:
        match_time_call(match=tables[0], actor=judge, active_team="A", at=at(49, 59))

    assert refused.value.message == "table 1 still has time on its clock"
    tables[0].refresh_from_db()
    assert tables[0].time_called_at is None


def test_time_call_is_accepted_at_the_tables_end(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)

    match_time_call(match=tables[0], actor=judge, active_team="B", at=at(50))

    tables[0].refresh_from_db()
    assert (tables[0].time_called_at, tables[0].active_team, tables[0].turns_completed) == (at(50), "B", 0)
    row = _table(_view(round_one, at(51)), 1)
    assert (row.time_called, row.active_team, row.extra_turns_total, row.extra_turns_played) == (
        True,
        "B",
        3,
        0,
    )
    entry = AuditEntry.objects.get(action="match.time_called")
    assert (entry.actor, entry.after) == (judge, {"time_called_at": at(50).isoformat(), "active_team": "B"})


def test_slow_play_after_the_tables_end_adds_no_turns_even_before_time_is_called(
    round_one, tables, judge, slow_play
):
    """IPG 3.3: table 1 ran out at 10:50; a Slow Play at 10:52 is already in extra turns, so the
    judge clicking time at 10:53 still gets 3 turns. Table 2's penalty at 10:49 adds 2."""
    round_start(round_row=round_one, actor=judge, at=T0)
    slow_play[tables[0].pk] = [at(52)]
    slow_play[tables[1].pk] = [at(49)]

    for match in tables[:2]:
        match_time_call(match=match, actor=judge, active_team="A", at=at(53))

    view = _view(round_one, at(54))
    assert [(_table(view, n).time_called, _table(view, n).extra_turns_total) for n in (1, 2)] == [
        (True, 3),
        (True, 5),
    ]


def test_an_extended_table_gets_time_called_only_after_its_extension(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)
    with time_machine.travel(at(30), tick=False):
        time_extension_grant(match=tables[2], actor=judge, minutes=9, reason="deck check")

    with pytest.raises(ConflictError):
        match_time_call(match=tables[2], actor=judge, active_team="A", at=at(50))
    match_time_call(match=tables[2], actor=judge, active_team="A", at=at(59))

    tables[2].refresh_from_db()
    assert tables[2].time_called_at == at(59)


def test_paused_time_does_not_count_towards_the_tables_end(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)
    round_pause(round_row=round_one, actor=judge, at=at(10))
    round_resume(round_row=round_one, actor=judge, at=at(15))

    with pytest.raises(ConflictError):
        match_time_call(match=tables[0], actor=judge, active_team="A", at=at(54, 59))
    match_time_call(match=tables[0], actor=judge, active_team="A", at=at(55))


def test_time_is_called_once(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)
    match_time_call(match=tables[0], actor=judge, active_team="A", at=at(50))

    with pytest.raises(ConflictError) as refused:
        match_time_call(match=tables[0], actor=judge, active_team="B", at=at(51))

    assert refused.value.message == "time was already called at table 1"


def test_time_call_accepts_a_team_id(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)

    match_time_call(match=tables[0], actor=judge, active_team=tables[0].team_b_id, at=at(50))

    tables[0].refresh_from_db()
    assert tables[0].active_team == "B"


def test_time_call_refuses_a_team_not_at_the_table(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)

    with pytest.raises(DomainError) as refused:
        match_time_call(match=tables[0], actor=judge, active_team=tables[1].team_a_id, at=at(50))

    assert refused.value.errors[0]["field"] == "active_team"


def test_no_extension_once_time_is_called(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)
    match_time_call(match=tables[0], actor=judge, active_team="A", at=at(50))

    with pytest.raises(ConflictError) as refused:
        time_extension_grant(match=tables[0], actor=judge, minutes=3, reason="deck check")

    assert refused.value.message == (
        "time was already called at table 1; extensions come before the end-of-round turns (MTR 2.4)"
    )


def test_time_call_in_an_untimed_round_is_refused(tournament, judge, slow_play):
    final = RoundFactory(tournament=tournament, number=8, kind=RoundKind.PLAYOFF)
    match = MatchFactory(round=final, table=1)
    round_start(round_row=final, actor=judge, at=T0, untimed=True)

    with pytest.raises(ConflictError) as refused:
        match_time_call(match=match, actor=judge, active_team="A", at=T0 + datetime.timedelta(hours=3))

    assert refused.value.message == "an untimed round has no end-of-round turns"
