"""End-of-round procedure at one 2HG table.

When a table's time runs out (the round's end plus that table's extensions, MTR 2.4 and 2.6),
a judge calls time and notes which team is active. Then, per MTR 2.4 in its 2HG form:

* the active team finishes its turn (turn 0),
* additional turns follow, alternating and starting with the other team: three in a team
  format where teammates play together (2HG, whose team counts as one player), five in an
  individual match (MTR 2.4; ``additional_turns_for``), as in the 2HG FAQ's example: time on
  Team Y's turn, Y finishes, Z takes turn 1, Y turn 2, Z turn 3;
* each Slow Play penalty adds two more turns (IPG 3.3), cumulatively per penalty as
  docs/rules.md#slow-play fixes it, but none for a penalty given once the match is already in extra turns
  (the Warning itself still stands). A match is "in extra turns" from its table's own end (the
  round's end plus that table's extensions), or from the time call if a judge somehow called it
  earlier: a penalty counts only if it was issued strictly before the earlier of the two. The
  click is not the boundary, because a judge may reach the table minutes after its time ran out.

If the active team had already indicated passing the turn when time was called, that counts as
the next turn (MTR 2.4): the judge records the other team as active.

After the last turn with no winner, a Swiss match is a draw; a playoff has no draws: the team
with the higher life total wins, and on equal life play goes on until one team is ahead (MTR 2.4,
the extra state-based action).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum

from clock.domain.errors import EndOfRoundError
from clock.domain.round_clock import RoundClock, require_aware
from common.translatable import N_
from tournaments.domain.choices import TeamSide

TEAM_ADDITIONAL_TURNS = 3
"""MTR 2.4: three additional turns in a team format where teammates play together (2HG)."""
INDIVIDUAL_ADDITIONAL_TURNS = 5
"""MTR 2.4: five additional turns in an individual (one-versus-one) match."""
SLOW_PLAY_TURNS = 2
"""IPG 3.3: two additional turns per Slow Play penalty (one per team in the older 2HG wording)."""


class TurnKind(StrEnum):
    FINISH = "finish"
    ADDITIONAL = "additional"
    SLOW_PLAY = "slow_play"


class MatchKind(StrEnum):
    SWISS = "swiss"
    PLAYOFF = "playoff"


class Outcome(StrEnum):
    DRAW = "draw"
    A_WINS = "a_wins"
    B_WINS = "b_wins"
    PLAY_ON = "play_on"


@dataclass(frozen=True)
class Turn:
    """One end-of-round turn: 0 is the active team finishing, then 1, 2, 3 and any Slow Play."""

    number: int
    team: TeamSide
    kind: TurnKind


@dataclass(frozen=True)
class TimeCalled:
    """A judge called time at a table while ``active_team`` was taking its turn."""

    active_team: TeamSide
    called_at: datetime

    def __post_init__(self) -> None:
        object.__setattr__(self, "active_team", _team(self.active_team))
        require_aware(self.called_at, "time called at")


@dataclass(frozen=True)
class SlowPlayPenalty:
    """A Slow Play penalty (IPG 3.3) at the table, known by when it was issued."""

    issued_at: datetime

    def __post_init__(self) -> None:
        require_aware(self.issued_at, "slow play issued at")

    def adds_turns(self, time_called: TimeCalled | None, table_ends_at: datetime | None = None) -> bool:
        """True unless it came once the match was already in extra turns (IPG 3.3): at or after
        the table's own end, or at or after the time call (see ``extra_turns_cutoff``)."""
        cutoff = extra_turns_cutoff(time_called, table_ends_at)
        return cutoff is None or self.issued_at < cutoff


def extra_turns_cutoff(time_called: TimeCalled | None, table_ends_at: datetime | None) -> datetime | None:
    """The instant the match counts as in extra turns: the table's own end (round end plus its
    extensions) or the time call, whichever is earlier; None while neither is known (untimed, or
    not started and not called).

    ``table_ends_at`` is the adapter's reading of the stored clock. While the table still has
    time it is a projection later than the reading instant, so every penalty issued up to then
    counts, as it should.
    """
    instants = [] if table_ends_at is None else [table_ends_at]
    if time_called is not None:
        instants.append(time_called.called_at)
    return min(instants, default=None)


def additional_turns_for(team_size: int) -> int:
    """The event's additional turns after the active team's turn 0 (MTR 2.4): five when each
    side is one player, three when the side is a team playing together (2HG and larger giants)."""
    if team_size < 1:
        raise EndOfRoundError("invalid_team_size", f"a team has at least one player, got {team_size}")
    return INDIVIDUAL_ADDITIONAL_TURNS if team_size == 1 else TEAM_ADDITIONAL_TURNS


def _team(value: TeamSide | str) -> TeamSide:
    try:
        return TeamSide(value)
    except ValueError:
        raise EndOfRoundError(
            "invalid_team", N_("team must be 'A' or 'B', got %(value)r", value=value)
        ) from None


def counted_slow_play_penalties(
    penalties: Iterable[SlowPlayPenalty],
    time_called: TimeCalled | None,
    table_ends_at: datetime | None = None,
) -> int:
    """How many penalties add turns: those issued before the table's end and the time call."""
    return sum(1 for penalty in penalties if penalty.adds_turns(time_called, table_ends_at))


def extra_turns_total(slow_play_penalties: int = 0, *, additional_turns: int = TEAM_ADDITIONAL_TURNS) -> int:
    """Turns after turn 0: the event's additional ones (``additional_turns_for``) plus two per
    counted Slow Play penalty."""
    if slow_play_penalties < 0:
        raise EndOfRoundError("invalid_penalty_count", "penalty count cannot be negative")
    return additional_turns + SLOW_PLAY_TURNS * slow_play_penalties


def turn_sequence(
    active_team: TeamSide | str,
    slow_play_penalties: int = 0,
    *,
    additional_turns: int = TEAM_ADDITIONAL_TURNS,
) -> tuple[Turn, ...]:
    """Every end-of-round turn in order, turn 0 included.

    ``slow_play_penalties`` is the number that add turns (see ``counted_slow_play_penalties``).
    Turns alternate throughout, so the Slow Play turns give each team one more turn per penalty.
    """
    active = _team(active_team)
    total = extra_turns_total(slow_play_penalties, additional_turns=additional_turns)
    turns = [Turn(0, active, TurnKind.FINISH)]
    for number in range(1, total + 1):
        team = active.other if number % 2 else active
        kind = TurnKind.ADDITIONAL if number <= additional_turns else TurnKind.SLOW_PLAY
        turns.append(Turn(number, team, kind))
    return tuple(turns)


@dataclass(frozen=True)
class ExtraTurnsTracker:
    """Where a table stands in its end-of-round turns, rebuilt from what the adapter stores:
    the time call, the table's Slow Play penalties, how many turns have been completed (turn 0
    included, so 0 means the active team is still finishing its turn), the table's own end
    (None: unknown, then only the time call bounds the penalties that count) and the event's
    additional turns (``additional_turns_for`` its team size)."""

    time_called: TimeCalled
    penalties: tuple[SlowPlayPenalty, ...] = field(default_factory=tuple)
    turns_completed: int = 0
    table_ends_at: datetime | None = None
    additional_turns: int = TEAM_ADDITIONAL_TURNS

    def __post_init__(self) -> None:
        object.__setattr__(self, "penalties", tuple(self.penalties))
        if self.table_ends_at is not None:
            require_aware(self.table_ends_at, "table ends at")
        if isinstance(self.turns_completed, bool) or not isinstance(self.turns_completed, int):
            raise EndOfRoundError("invalid_turn_count", "turns completed must be a whole number")
        if not 0 <= self.turns_completed <= len(self.sequence):
            raise EndOfRoundError(
                "invalid_turn_count",
                f"turns completed must be between 0 and {len(self.sequence)}",
            )

    @property
    def counted_penalties(self) -> int:
        return counted_slow_play_penalties(self.penalties, self.time_called, self.table_ends_at)

    @property
    def sequence(self) -> tuple[Turn, ...]:
        return turn_sequence(
            self.time_called.active_team, self.counted_penalties, additional_turns=self.additional_turns
        )

    @property
    def extra_turns_total(self) -> int:
        return extra_turns_total(self.counted_penalties, additional_turns=self.additional_turns)

    @property
    def extra_turns_played(self) -> int:
        """Completed turns after turn 0, as the table view counts them."""
        return max(self.turns_completed - 1, 0)

    @property
    def finished(self) -> bool:
        """The last turn is over: time to apply ``outcome_after_last_turn``."""
        return self.turns_completed >= len(self.sequence)

    @property
    def current_turn(self) -> Turn | None:
        sequence = self.sequence
        return sequence[self.turns_completed] if self.turns_completed < len(sequence) else None

    @property
    def next_turn(self) -> Turn | None:
        sequence = self.sequence
        index = self.turns_completed + 1
        return sequence[index] if index < len(sequence) else None

    @property
    def active_team(self) -> TeamSide | None:
        """Whose turn it is now; None once the last turn is over."""
        current = self.current_turn
        return current.team if current is not None else None

    def complete_turn(self) -> ExtraTurnsTracker:
        if self.finished:
            raise EndOfRoundError("turns_finished", N_("every end-of-round turn has been played"))
        return replace(self, turns_completed=self.turns_completed + 1)

    def add_penalty(self, penalty: SlowPlayPenalty) -> ExtraTurnsTracker:
        """Record a penalty; one issued in extra turns is kept but adds no turns."""
        return replace(self, penalties=(*self.penalties, penalty))


def outcome_after_last_turn(kind: MatchKind | str, life_a: int, life_b: int) -> Outcome:
    """The result when the last end-of-round turn ends with no winner (MTR 2.4).

    Swiss: a draw, whatever the life totals. Playoff: the higher team life total wins; equal
    totals mean play goes on (ask again when the totals change).
    """
    try:
        match_kind = MatchKind(kind)
    except ValueError:
        raise EndOfRoundError("invalid_match_kind", f"unknown match kind {kind!r}") from None
    if match_kind is MatchKind.SWISS:
        return Outcome.DRAW
    if life_a > life_b:
        return Outcome.A_WINS
    if life_b > life_a:
        return Outcome.B_WINS
    return Outcome.PLAY_ON


@dataclass(frozen=True)
class TableEndOfRound:
    """A table's stored end-of-round facts: extensions, Slow Play penalties, the time call, the
    count of completed turns, and when the time-up task marked it as in extra turns. Everything
    the clock API shows for it derives from these.

    ``ends_at`` is the table's own end (round end plus its extensions) as the adapter read it
    from the stored clock; penalties issued from then on add no turns (IPG 3.3). None when the
    round is untimed or not started. ``additional_turns``: the event's, by its team size
    (``additional_turns_for``).
    """

    table: int
    extension_minutes: int = 0
    penalties: tuple[SlowPlayPenalty, ...] = field(default_factory=tuple)
    time_called: TimeCalled | None = None
    turns_completed: int = 0
    ends_at: datetime | None = None
    extra_turns_since: datetime | None = None
    #: The table's result is in: the match is over, whatever its clock says (it leaves the
    #: end-of-round views and is never out of time).
    result_in: bool = False
    additional_turns: int = TEAM_ADDITIONAL_TURNS

    def __post_init__(self) -> None:
        object.__setattr__(self, "penalties", tuple(self.penalties))
        if self.ends_at is not None:
            require_aware(self.ends_at, "table ends at")
        if self.extra_turns_since is not None:
            require_aware(self.extra_turns_since, "extra turns since")
        if self.extension_minutes < 0:
            raise EndOfRoundError("invalid_extension", "a table's extension total cannot be negative")
        if self.time_called is None and self.turns_completed:
            raise EndOfRoundError(
                "time_not_called", N_("no end-of-round turn is played before time is called")
            )
        if self.time_called is not None:
            ExtraTurnsTracker(
                self.time_called, self.penalties, self.turns_completed, self.ends_at, self.additional_turns
            )

    @property
    def counted_penalties(self) -> int:
        """The Slow Play penalties that add turns: issued before the table's end and time call."""
        return counted_slow_play_penalties(self.penalties, self.time_called, self.ends_at)

    @property
    def tracker(self) -> ExtraTurnsTracker | None:
        if self.time_called is None:
            return None
        return ExtraTurnsTracker(
            self.time_called, self.penalties, self.turns_completed, self.ends_at, self.additional_turns
        )


def call_time(
    clock: RoundClock, table: TableEndOfRound, active_team: TeamSide | str, at: datetime
) -> TableEndOfRound:
    """A judge calls time at ``table``: only once, and only when its own time has run out
    (round end plus its extensions; MTR 2.4 starts the turns after all extensions)."""
    require_aware(at, "time called at")
    if table.time_called is not None:
        raise EndOfRoundError(
            "time_already_called", N_("time was already called at table %(table)s", table=table.table)
        )
    if clock.untimed:
        raise EndOfRoundError("untimed_round", N_("an untimed round has no end-of-round turns"))
    if not clock.table_time_up(at, table.extension_minutes):
        raise EndOfRoundError(
            "time_not_up", N_("table %(table)s still has time on its clock", table=table.table)
        )
    return replace(with_table_end(clock, table, at), time_called=TimeCalled(_team(active_team), at))


def with_table_end(clock: RoundClock, table: TableEndOfRound, now: datetime) -> TableEndOfRound:
    """``table`` with its own end read from ``clock`` as of ``now`` (round end plus its
    extensions), the cut-off for Slow Play turns. Once the end has passed it is a fixed past
    instant, so any later reading gives the same value."""
    return replace(table, ends_at=clock.table_ends_at(now, table.extension_minutes))


def complete_turn(table: TableEndOfRound) -> TableEndOfRound:
    tracker = table.tracker
    if tracker is None:
        raise EndOfRoundError("time_not_called", N_("time has not been called at this table"))
    return replace(table, turns_completed=tracker.complete_turn().turns_completed)
