"""Event settings and the event state the Swiss engine reads.

The Django adapter builds one ``EventState`` from the database (teams, results, drops,
disqualifications, penalty adjustments, keep-apart pairs, fixed tables) and passes it, with a seed,
to ``compute_standings`` and ``pair_round``. Everything is plain values keyed by integer team id, so
the engine never sees a model instance and a test can build an event in a few lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from tournaments.domain.choices import Tiebreaker
from tournaments.domain.day_two import DayTwo
from tournaments.domain.errors import SettingsError
from tournaments.domain.results import MatchResult, games_to_win
from tournaments.domain.settings import tiebreaker_problems

#: Team events (2HG) rank by match points then OMW% (MTR App. C: no game points in team
#: tournaments); individual events use the full MTR 3.1 list (docs/rules.md#tiebreakers).
TEAM_TIEBREAKERS = (Tiebreaker.MATCH_POINTS, Tiebreaker.OPPONENTS_MATCH_WIN)
INDIVIDUAL_TIEBREAKERS = (
    Tiebreaker.MATCH_POINTS,
    Tiebreaker.OPPONENTS_MATCH_WIN,
    Tiebreaker.GAME_WIN,
    Tiebreaker.OPPONENTS_GAME_WIN,
)

#: docs/decisions.md "Percentage floor": 1/3 reproduces the published standings we checked; the MTR prints 0.33.
DEFAULT_FLOOR = Fraction(1, 3)


def default_tiebreakers(team_size: int) -> tuple[Tiebreaker, ...]:
    """The tiebreakers an event ranks by when its organizer chose none, by its team size."""
    return TEAM_TIEBREAKERS if team_size > 1 else INDIVIDUAL_TIEBREAKERS


def parse_floor(value: str | Fraction) -> Fraction:
    """Read the percentage floor setting: "1/3" (the default) or a decimal such as "0.33", exactly."""
    if isinstance(value, Fraction):
        floor = value
    else:
        text = str(value).strip()
        try:
            floor = Fraction(text) if "/" in text else Fraction(Decimal(text))
        except (ValueError, ZeroDivisionError, InvalidOperation) as exc:
            raise SettingsError(f"percentage floor {value!r} is not a number or a fraction") from exc
    if not 0 <= floor < 1:
        raise SettingsError(f"percentage floor must be in [0, 1), got {value!r}")
    return floor


@dataclass(frozen=True)
class EventSettings:
    """The settings that change standings and pairings; everything else about Swiss is fixed.

    ``games_per_match`` is 1 for 2HG (MTR 9.1) and 3 for best-of-three individual play; it decides
    how many games a bye is worth.
    """

    tiebreakers: tuple[Tiebreaker, ...] = TEAM_TIEBREAKERS
    percentage_floor: Fraction = DEFAULT_FLOOR
    games_per_match: int = 1
    day_two: DayTwo | None = None

    def __post_init__(self) -> None:
        problems = tiebreaker_problems([str(t) for t in self.tiebreakers])
        if problems:
            raise SettingsError(problems[0])
        tiebreakers = tuple(Tiebreaker(t) for t in self.tiebreakers)
        if self.games_per_match < 1 or self.games_per_match % 2 == 0:
            raise SettingsError(f"games per match must be a positive odd number, got {self.games_per_match}")
        object.__setattr__(self, "tiebreakers", tiebreakers)
        object.__setattr__(self, "percentage_floor", parse_floor(self.percentage_floor))

    @classmethod
    def team_event(cls, percentage_floor: str | Fraction = DEFAULT_FLOOR) -> EventSettings:
        return cls(TEAM_TIEBREAKERS, parse_floor(percentage_floor), 1)

    @classmethod
    def individual_event(
        cls, percentage_floor: str | Fraction = DEFAULT_FLOOR, games_per_match: int = 3
    ) -> EventSettings:
        return cls(INDIVIDUAL_TIEBREAKERS, parse_floor(percentage_floor), games_per_match)

    @classmethod
    def from_values(
        cls,
        *,
        tiebreakers: Sequence[str],
        percentage_floor: str,
        games_per_match: int,
        day_two: DayTwo | None = None,
    ) -> EventSettings:
        """Build from stored setting values (strings), as the adapter keeps them."""
        try:
            parsed = tuple(Tiebreaker(t) for t in tiebreakers)
        except ValueError as exc:
            raise SettingsError(f"unknown tiebreaker in {list(tiebreakers)!r}") from exc
        return cls(parsed, parse_floor(percentage_floor), games_per_match, day_two)

    @property
    def games_to_win(self) -> int:
        return games_to_win(self.games_per_match)


#: Premier events award byes for 1, 2 or 3 rounds (MTR App. E counts their holders as 2, 4 or 8).
MAX_AWARDED_BYES = 3


def _pair_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class EventState:
    """Everything recorded about an event that standings and pairings depend on.

    ``drops`` maps a team to the first round it is no longer paired in (MTR 2.10: a drop after
    pairings takes effect next round); its results up to then stay and it still counts as an
    opponent. A team dropped before round 1 (effective round 1, no results) is left out of the
    standings. ``disqualified`` teams are never paired and are removed from the standings, but their
    matches still count for their opponents. ``penalty_points`` are per-team match-point adjustments
    (negative for a penalty), which may take a team below zero. ``awarded_byes`` maps a team to its
    Premier-style awarded byes (1 to 3): it is not paired in rounds 1 to that number and has a bye
    in each of them instead. ``eliminated`` teams did not make the cut to day 2
    (``settings.day_two``): never paired again, their standings rows stay.
    """

    team_ids: tuple[int, ...]
    results: tuple[MatchResult, ...] = ()
    settings: EventSettings = field(default_factory=EventSettings)
    drops: Mapping[int, int] = field(default_factory=dict)
    disqualified: frozenset[int] = frozenset()
    penalty_points: Mapping[int, int] = field(default_factory=dict)
    keep_apart: tuple[tuple[int, int], ...] = ()
    fixed_tables: Mapping[int, int] = field(default_factory=dict)
    awarded_byes: Mapping[int, int] = field(default_factory=dict)
    eliminated: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        team_ids = tuple(self.team_ids)
        known = set(team_ids)
        if len(known) != len(team_ids):
            raise SettingsError("a team id appears twice")
        object.__setattr__(self, "team_ids", team_ids)
        object.__setattr__(self, "results", tuple(self.results))
        object.__setattr__(self, "disqualified", frozenset(self.disqualified))
        object.__setattr__(self, "eliminated", frozenset(self.eliminated))
        object.__setattr__(self, "keep_apart", tuple(_pair_key(a, b) for a, b in self.keep_apart))
        unknown = {t for r in self.results for t in r.teams} - known
        unknown |= set(self.drops) - known
        unknown |= set(self.disqualified) - known
        unknown |= self.eliminated - known
        unknown |= set(self.penalty_points) - known
        unknown |= {t for pair in self.keep_apart for t in pair} - known
        unknown |= set(self.fixed_tables) - known
        unknown |= set(self.awarded_byes) - known
        if unknown:
            raise SettingsError(f"unknown team ids: {sorted(unknown)}")
        if len(set(self.fixed_tables.values())) != len(self.fixed_tables):
            raise SettingsError("two teams have the same fixed table")
        if any(table < 1 for table in self.fixed_tables.values()):
            raise SettingsError("table numbers start at 1")
        if any(not 0 <= rounds <= MAX_AWARDED_BYES for rounds in self.awarded_byes.values()):
            raise SettingsError(f"awarded byes are 0 to {MAX_AWARDED_BYES} rounds")

    def is_active(self, team: int, round_number: int) -> bool:
        """Whether ``team`` is paired in ``round_number``: not disqualified, not eliminated at
        the cut to day 2, not dropped by then."""
        if team in self.disqualified or team in self.eliminated:
            return False
        dropped = self.drops.get(team)
        return dropped is None or round_number < dropped

    def active_teams(self, round_number: int) -> list[int]:
        return [t for t in self.team_ids if self.is_active(t, round_number)]

    def has_awarded_bye(self, team: int, round_number: int) -> bool:
        return self.awarded_byes.get(team, 0) >= round_number

    def results_through(self, round_number: int) -> tuple[MatchResult, ...]:
        """Results of rounds 1..round_number, for standings "after round N"."""
        return tuple(r for r in self.results if r.round_number <= round_number)

    def with_results(self, results: Iterable[MatchResult]) -> EventState:
        """A copy with more results appended, as a simulation or the next round needs."""
        return replace(self, results=self.results + tuple(results))
