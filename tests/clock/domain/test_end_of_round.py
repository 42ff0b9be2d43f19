"""End-of-round turns (MTR 2.4, IPG 3.3), outcomes, and the clock API rows, with a passed-in clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clock.domain.display import round_clock_view, table_clock_row
from clock.domain.end_of_round import (
    EndOfRoundError,
    ExtraTurnsTracker,
    MatchKind,
    Outcome,
    SlowPlayPenalty,
    TableEndOfRound,
    TeamSide,
    TimeCalled,
    Turn,
    TurnKind,
    additional_turns_for,
    call_time,
    complete_turn,
    counted_slow_play_penalties,
    extra_turns_cutoff,
    outcome_after_last_turn,
    turn_sequence,
)
from clock.domain.round_clock import ClockState, RoundClock

T0 = datetime(2026, 3, 14, 10, 0, tzinfo=UTC)

# The 2HG FAQ's example names the teams Y and Z; at our tables they sit as A (Y) and B (Z).
Y, Z = TeamSide.A, TeamSide.B


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def clock() -> RoundClock:
    return RoundClock(length=timedelta(minutes=50)).start(T0)


def walk(tracker: ExtraTurnsTracker) -> list[tuple[int, TeamSide, TurnKind]]:
    """Play every turn the way the table view does, reading the current turn before each step."""
    played = []
    while not tracker.finished:
        turn = tracker.current_turn
        played.append((turn.number, turn.team, turn.kind))
        tracker = tracker.complete_turn()
    return played


class TestSeedExample:
    def test_time_on_team_y_turn(self):
        """2HG FAQ: Y finishes its turn; Z takes extra turn 1, Y turn 2, Z turn 3; then a draw."""
        assert turn_sequence(Y) == (
            Turn(0, Y, TurnKind.FINISH),
            Turn(1, Z, TurnKind.ADDITIONAL),
            Turn(2, Y, TurnKind.ADDITIONAL),
            Turn(3, Z, TurnKind.ADDITIONAL),
        )

    def test_walk_through_the_example_at_a_table(self):
        table = TableEndOfRound(table=7)
        table = call_time(clock(), table, "A", at(50))
        tracker = table.tracker
        assert (tracker.current_turn, tracker.next_turn) == (
            Turn(0, Y, TurnKind.FINISH),
            Turn(1, Z, TurnKind.ADDITIONAL),
        )
        assert walk(tracker) == [
            (0, Y, TurnKind.FINISH),
            (1, Z, TurnKind.ADDITIONAL),
            (2, Y, TurnKind.ADDITIONAL),
            (3, Z, TurnKind.ADDITIONAL),
        ]
        for _ in range(4):
            table = complete_turn(table)
        assert table.tracker.finished
        assert table.tracker.extra_turns_played == 3
        assert outcome_after_last_turn(MatchKind.SWISS, life_a=12, life_b=3) is Outcome.DRAW
        with pytest.raises(EndOfRoundError) as error:
            complete_turn(table)
        assert error.value.code == "turns_finished"

    def test_time_on_team_b_turn_starts_with_a(self):
        assert [turn.team for turn in turn_sequence(TeamSide.B)] == [
            TeamSide.B,
            TeamSide.A,
            TeamSide.B,
            TeamSide.A,
        ]


class TestSlowPlay:
    @pytest.mark.parametrize(
        ("penalties", "expected"),
        [
            (0, [(0, Y, "finish"), (1, Z, "additional"), (2, Y, "additional"), (3, Z, "additional")]),
            (
                1,
                [
                    (0, Y, "finish"),
                    (1, Z, "additional"),
                    (2, Y, "additional"),
                    (3, Z, "additional"),
                    (4, Y, "slow_play"),
                    (5, Z, "slow_play"),
                ],
            ),
            (
                2,
                [
                    (0, Y, "finish"),
                    (1, Z, "additional"),
                    (2, Y, "additional"),
                    (3, Z, "additional"),
                    (4, Y, "slow_play"),
                    (5, Z, "slow_play"),
                    (6, Y, "slow_play"),
                    (7, Z, "slow_play"),
                ],
            ),
        ],
    )
    def test_each_penalty_before_time_adds_two_turns(self, penalties, expected):
        issued = tuple(SlowPlayPenalty(at(10 + 5 * n)) for n in range(penalties))
        tracker = ExtraTurnsTracker(TimeCalled(Y, at(50)), issued)
        assert tracker.extra_turns_total == 3 + 2 * penalties
        assert walk(tracker) == expected

    def test_penalty_during_extra_turns_adds_none(self):
        tracker = ExtraTurnsTracker(TimeCalled(Y, at(50)), (SlowPlayPenalty(at(20)),))
        tracker = tracker.complete_turn().complete_turn()
        during = tracker.add_penalty(SlowPlayPenalty(at(56)))
        assert len(during.penalties) == 2, "the Warning itself stands"
        assert during.extra_turns_total == tracker.extra_turns_total == 5
        assert during.current_turn == Turn(2, Y, TurnKind.ADDITIONAL)

    def test_penalty_at_the_moment_time_is_called_is_already_in_extra_turns(self):
        called = TimeCalled(Y, at(50))
        assert counted_slow_play_penalties([SlowPlayPenalty(at(50))], called) == 0
        assert counted_slow_play_penalties([SlowPlayPenalty(at(49.9))], called) == 1

    def test_penalties_before_and_during_mix(self):
        tracker = ExtraTurnsTracker(
            TimeCalled(Z, at(55)),
            (SlowPlayPenalty(at(5)), SlowPlayPenalty(at(54)), SlowPlayPenalty(at(58))),
        )
        assert tracker.counted_penalties == 2
        assert [turn.team for turn in tracker.sequence] == [Z, Y, Z, Y, Z, Y, Z, Y]

    def test_late_recorded_penalty_issued_before_time_reopens_the_turns(self):
        tracker = ExtraTurnsTracker(TimeCalled(Y, at(50)), turns_completed=4)
        assert tracker.finished
        reopened = tracker.add_penalty(SlowPlayPenalty(at(45)))
        assert not reopened.finished
        assert reopened.current_turn == Turn(4, Y, TurnKind.SLOW_PLAY)


class TestSlowPlayCutOffAtTheTableEnd:
    """IPG 3.3: no turns for a penalty given once the match is in extra turns, which starts at the
    table's own end (round end plus its extensions), not when a judge gets round to calling time."""

    def table(self, issued_minutes: float, extension_minutes: int = 0) -> TableEndOfRound:
        return TableEndOfRound(
            table=7, extension_minutes=extension_minutes, penalties=(SlowPlayPenalty(at(issued_minutes)),)
        )

    def test_penalty_before_the_table_end_adds_two_turns(self):
        called = call_time(clock(), self.table(49), Y, at(53))

        assert (called.ends_at, called.counted_penalties, called.tracker.extra_turns_total) == (at(50), 1, 5)

    def test_penalty_after_the_table_end_but_before_the_time_call_adds_none(self):
        """Table out of time at 10:50, penalty at 10:52, judge clicks time at 10:53: 3 turns."""
        called = call_time(clock(), self.table(52), Y, at(53))

        assert (called.ends_at, called.counted_penalties, called.tracker.extra_turns_total) == (at(50), 0, 3)
        assert len(called.penalties) == 1, "the Warning itself stands"

    def test_penalty_after_the_time_call_adds_none(self):
        called = call_time(clock(), self.table(54), Y, at(53))

        assert (called.counted_penalties, called.tracker.extra_turns_total) == (0, 3)

    def test_an_extended_table_still_earns_turns_after_the_round_end(self):
        """+9 minutes: the table runs until 10:59, so a penalty at 10:52 is before its end."""
        called = call_time(clock(), self.table(52, extension_minutes=9), Y, at(59))

        assert (called.ends_at, called.tracker.extra_turns_total) == (at(59), 5)

    def test_row_before_the_time_call_stops_counting_at_the_table_end(self):
        """The judges' list shows 3 turns for the late penalty even before anyone calls time."""
        early, late = self.table(49), self.table(52)

        rows = [table_clock_row(clock(), table, at(53)) for table in (early, late)]

        assert [(row.time_up, row.time_called, row.extra_turns_total) for row in rows] == [
            (True, False, 5),
            (True, False, 3),
        ]

    def test_cut_off_is_the_earlier_of_the_end_and_the_call(self):
        called = TimeCalled(Y, at(53))

        assert extra_turns_cutoff(called, at(50)) == at(50)
        assert extra_turns_cutoff(called, at(59)) == at(53)
        assert extra_turns_cutoff(None, at(50)) == at(50)
        assert extra_turns_cutoff(None, None) is None
        assert counted_slow_play_penalties([SlowPlayPenalty(at(50))], None, at(50)) == 0
        assert counted_slow_play_penalties([SlowPlayPenalty(at(49.9))], None, at(50)) == 1


class TestOutcome:
    @pytest.mark.parametrize(
        ("kind", "life_a", "life_b", "expected"),
        [
            ("swiss", 20, 5, Outcome.DRAW),
            ("swiss", 5, 5, Outcome.DRAW),
            ("playoff", 20, 5, Outcome.A_WINS),
            ("playoff", 4, 9, Outcome.B_WINS),
            ("playoff", 7, 7, Outcome.PLAY_ON),
        ],
    )
    def test_after_last_turn(self, kind, life_a, life_b, expected):
        assert outcome_after_last_turn(kind, life_a, life_b) is expected

    def test_playoff_plays_on_until_one_team_is_ahead(self):
        assert outcome_after_last_turn(MatchKind.PLAYOFF, 10, 10) is Outcome.PLAY_ON
        assert outcome_after_last_turn(MatchKind.PLAYOFF, 10, 8) is Outcome.A_WINS

    def test_unknown_kind_is_refused(self):
        with pytest.raises(EndOfRoundError):
            outcome_after_last_turn("league", 1, 2)


class TestCallTime:
    def test_time_cannot_be_called_before_the_table_end(self):
        table = TableEndOfRound(table=3, extension_minutes=6)
        with pytest.raises(EndOfRoundError) as error:
            call_time(clock(), table, TeamSide.A, at(55))
        assert error.value.code == "time_not_up"
        assert call_time(clock(), table, TeamSide.A, at(56)).time_called == TimeCalled(TeamSide.A, at(56))

    def test_time_is_called_once(self):
        table = call_time(clock(), TableEndOfRound(table=3), TeamSide.B, at(50))
        with pytest.raises(EndOfRoundError) as error:
            call_time(clock(), table, TeamSide.A, at(51))
        assert error.value.code == "time_already_called"

    def test_untimed_final_has_no_time_call(self):
        final = RoundClock(length=None).start(T0)
        with pytest.raises(EndOfRoundError) as error:
            call_time(final, TableEndOfRound(table=1), TeamSide.A, at(500))
        assert error.value.code == "untimed_round"

    def test_bad_team_and_turns_without_time_are_refused(self):
        with pytest.raises(EndOfRoundError):
            TimeCalled("C", at(50))
        with pytest.raises(EndOfRoundError):
            TableEndOfRound(table=1, turns_completed=1)
        with pytest.raises(EndOfRoundError):
            complete_turn(TableEndOfRound(table=1))
        with pytest.raises(EndOfRoundError):
            ExtraTurnsTracker(TimeCalled(Y, at(50)), turns_completed=5)


class TestClockView:
    def test_rows_for_the_api(self):
        round_clock = clock().pause(at(20)).resume(at(22))
        tables = [
            TableEndOfRound(table=2, extension_minutes=5, penalties=(SlowPlayPenalty(at(30)),)),
            call_time(round_clock, TableEndOfRound(table=1), TeamSide.B, at(52)),
        ]
        tables[1] = complete_turn(complete_turn(tables[1]))

        view = round_clock_view(round_clock, tables, at(53))

        assert view.state is ClockState.TIME_UP
        assert view.ends_at == at(52)
        assert view.remaining_seconds == 0
        first, second = view.tables
        assert (first.table, first.ends_at, first.extension_minutes) == (1, at(52), 0)
        assert (first.time_up, first.time_called) == (True, True)
        assert (first.extra_turns_total, first.extra_turns_played) == (3, 1)
        assert first.active_team is TeamSide.B
        assert first.current_turn == Turn(2, TeamSide.B, TurnKind.ADDITIONAL)
        assert (second.table, second.ends_at, second.time_up, second.time_called) == (2, at(57), False, False)
        assert (second.extra_turns_total, second.extra_turns_played, second.active_team) == (5, 0, None)

    def test_not_started_round(self):
        view = round_clock_view(RoundClock(), [TableEndOfRound(table=1)], at(0))
        assert (view.state, view.ends_at, view.remaining_seconds) == (ClockState.NOT_STARTED, None, 3000)
        assert view.tables[0].ends_at is None

    def test_row_after_the_last_turn(self):
        table = call_time(clock(), TableEndOfRound(table=4), TeamSide.A, at(50))
        for _ in range(4):
            table = complete_turn(table)
        row = table_clock_row(clock(), table, at(70))
        assert (row.finished, row.active_team, row.extra_turns_played) == (True, None, 3)


class TestRestart:
    def test_mid_round_restart_rebuilds_clock_and_table_state(self):
        """Everything the judges see is rebuilt from stored timestamps and counters alone."""
        live_clock = clock().pause(at(15)).resume(at(18))
        live_table = TableEndOfRound(table=9, extension_minutes=4, penalties=(SlowPlayPenalty(at(40)),))
        live_table = call_time(live_clock, live_table, TeamSide.A, at(57))
        live_table = complete_turn(complete_turn(complete_turn(live_table)))

        stored_round = {"started_at": live_clock.started_at, "pauses": live_clock.to_timestamps()}
        stored_table = {
            "table": 9,
            "extension_minutes": 4,
            "penalties_issued_at": [at(40)],
            "time_called_at": at(57),
            "active_team": "A",
            "turns_completed": 3,
        }

        rebuilt_clock = RoundClock.from_timestamps(length=timedelta(minutes=50), **stored_round)
        rebuilt_table = TableEndOfRound(
            table=stored_table["table"],
            extension_minutes=stored_table["extension_minutes"],
            penalties=tuple(SlowPlayPenalty(t) for t in stored_table["penalties_issued_at"]),
            time_called=TimeCalled(stored_table["active_team"], stored_table["time_called_at"]),
            turns_completed=stored_table["turns_completed"],
            ends_at=rebuilt_clock.table_ends_at(at(64), stored_table["extension_minutes"]),
        )

        assert rebuilt_table == live_table
        now = at(64)
        assert round_clock_view(rebuilt_clock, [rebuilt_table], now) == round_clock_view(
            live_clock, [live_table], now
        )
        tracker = rebuilt_table.tracker
        assert tracker.current_turn == Turn(3, TeamSide.B, TurnKind.ADDITIONAL)
        assert tracker.next_turn == Turn(4, TeamSide.A, TurnKind.SLOW_PLAY)
        assert walk(tracker) == [
            (3, TeamSide.B, TurnKind.ADDITIONAL),
            (4, TeamSide.A, TurnKind.SLOW_PLAY),
            (5, TeamSide.B, TurnKind.SLOW_PLAY),
        ]


class TestSequenceProperties:
    @given(team=st.sampled_from(TeamSide), penalties=st.integers(0, 10))
    def test_turns_alternate_and_count(self, team, penalties):
        turns = turn_sequence(team, penalties)
        assert len(turns) == 1 + 3 + 2 * penalties
        assert [turn.number for turn in turns] == list(range(len(turns)))
        assert all(a.team is not b.team for a, b in zip(turns, turns[1:], strict=False))
        assert turns[0] == Turn(0, team, TurnKind.FINISH)
        assert sum(turn.kind is TurnKind.SLOW_PLAY for turn in turns) == 2 * penalties
        slow = [turn.team for turn in turns if turn.kind is TurnKind.SLOW_PLAY]
        assert slow.count(TeamSide.A) == slow.count(TeamSide.B) == penalties

    @given(
        before=st.lists(st.integers(0, 49 * 60), max_size=4),
        during=st.lists(st.integers(50 * 60, 80 * 60), max_size=4),
    )
    def test_only_penalties_before_time_count(self, before, during):
        called = TimeCalled(TeamSide.A, T0 + timedelta(minutes=50))
        penalties = [SlowPlayPenalty(T0 + timedelta(seconds=s)) for s in before + during]
        tracker = ExtraTurnsTracker(called, tuple(penalties))
        assert tracker.extra_turns_total == 3 + 2 * len(before)


@pytest.mark.parametrize(("team_size", "additional"), [(1, 5), (2, 3), (3, 3), (4, 3)])
def test_additional_turns_depend_on_the_team_size(team_size, additional):
    """MTR 2.4: five in an individual match, three where teammates play together (2HG)."""
    assert additional_turns_for(team_size) == additional


def test_a_one_versus_one_sequence_has_five_turns_then_two_per_slow_play():
    turns = turn_sequence(TeamSide.A, 1, additional_turns=additional_turns_for(1))

    assert [t.number for t in turns] == list(range(8))
    assert [t.kind for t in turns[1:]] == [TurnKind.ADDITIONAL] * 5 + [TurnKind.SLOW_PLAY] * 2
    assert [t.team for t in turns] == [TeamSide.A, TeamSide.B] * 4


def test_no_team_has_fewer_than_one_player():
    with pytest.raises(EndOfRoundError):
        additional_turns_for(0)
