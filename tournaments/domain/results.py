"""Match results, the one input every standing and pairing is computed from.

A result is a match between two teams, or one team alone (a bye, or a round missed by a late
entry). It stores game counts from team A's side, so a single 2HG game (1-0), drawn games that
were replayed (1-0-1), a time draw (0-0-1), an intentional draw (0-0-3) and best-of-three records
(2-1, 1-1-1) are all the same shape. Results imposed by a penalty (a Match Loss, a double loss)
are their own kinds, because their match outcome does not follow from the game counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from tournaments.domain.choices import Choices
from tournaments.domain.errors import ResultError

POINTS_WIN = 3
POINTS_DRAW = 1
POINTS_LOSS = 0


class ResultKind(Choices):
    """How the match outcome is decided; the one value set of a match's ``result_kind`` column.

    PENDING: no result counts yet (nothing reported, or a report waiting for the other team).
    PLAYED: by the game counts (more games won wins the match; equal is a draw).
    BYE: team A wins without an opponent (3 match points, the games needed to win).
    MISSED_ROUND: team A, a late entry, lost a round it was not there for: a played round for its
        own MW% but nobody's opponent, and no games.
    MATCH_LOSS: team A received a Match Loss penalty; team B wins whatever the games say.
    DOUBLE_LOSS: both teams lose (both received a Match Loss); each is still the other's opponent.
    """

    PENDING = "pending", "Not yet reported"
    PLAYED = "played", "Played"
    BYE = "bye", "Bye"
    MISSED_ROUND = "missed_round_loss", "Late entry: missed round (loss)"
    MATCH_LOSS = "penalty_loss", "Match loss by penalty"
    DOUBLE_LOSS = "double_loss", "Double match loss by penalty"


class Outcome(StrEnum):
    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


OUTCOME_POINTS = {Outcome.WIN: POINTS_WIN, Outcome.DRAW: POINTS_DRAW, Outcome.LOSS: POINTS_LOSS}
_SOLO_KINDS = frozenset({ResultKind.BYE, ResultKind.MISSED_ROUND})


def games_to_win(games_per_match: int) -> int:
    """Games needed to win a match: 1 in a single-game 2HG match, 2 in best of three."""
    return games_per_match // 2 + 1


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One team's (or two teams') result in one round.

    Game counts are from team A's side. For a BYE the stored game counts are ignored: the standings
    credit the games needed to win from the event's ``games_per_match``, so one event setting
    decides it for every bye.
    """

    round_number: int
    team_a: int
    team_b: int | None
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    kind: ResultKind = ResultKind.PLAYED

    def __post_init__(self) -> None:
        if self.round_number < 1:
            raise ResultError(f"round number must be at least 1, got {self.round_number}")
        if min(self.a_wins, self.b_wins, self.draws) < 0:
            raise ResultError(f"round {self.round_number}: game counts cannot be negative")
        if self.kind is ResultKind.PENDING:
            raise ResultError(f"round {self.round_number}: a pending match has no result yet")
        if self.kind in _SOLO_KINDS:
            if self.team_b is not None:
                raise ResultError(f"round {self.round_number}: a {self.kind} has no opponent")
        elif self.team_b is None:
            raise ResultError(f"round {self.round_number}: a {self.kind} result needs two teams")
        elif self.team_b == self.team_a:
            raise ResultError(f"round {self.round_number}: team {self.team_a} cannot play itself")

    @classmethod
    def played(
        cls, round_number: int, team_a: int, team_b: int, a_wins: int, b_wins: int, draws: int = 0
    ) -> MatchResult:
        return cls(round_number, team_a, team_b, a_wins, b_wins, draws)

    @classmethod
    def intentional_draw(cls, round_number: int, team_a: int, team_b: int) -> MatchResult:
        """Reported as 0-0-3, as EventLink does (MTR 2.5)."""
        return cls(round_number, team_a, team_b, 0, 0, 3)

    @classmethod
    def bye(cls, round_number: int, team: int) -> MatchResult:
        return cls(round_number, team, None, kind=ResultKind.BYE)

    @classmethod
    def missed_round(cls, round_number: int, team: int) -> MatchResult:
        return cls(round_number, team, None, kind=ResultKind.MISSED_ROUND)

    @classmethod
    def match_loss(
        cls, round_number: int, loser: int, winner: int, *, games_per_match: int = 1
    ) -> MatchResult:
        """A penalty Match Loss: recorded as the winner taking the games needed, as a concession would."""
        return cls(round_number, loser, winner, 0, games_to_win(games_per_match), 0, ResultKind.MATCH_LOSS)

    @classmethod
    def double_loss(cls, round_number: int, team_a: int, team_b: int) -> MatchResult:
        return cls(round_number, team_a, team_b, kind=ResultKind.DOUBLE_LOSS)

    @property
    def teams(self) -> tuple[int, ...]:
        return (self.team_a,) if self.team_b is None else (self.team_a, self.team_b)

    @property
    def is_bye(self) -> bool:
        return self.kind is ResultKind.BYE

    def outcome_a(self) -> Outcome:
        """Team A's match outcome."""
        kind = self.kind
        if kind is ResultKind.PLAYED:
            if self.a_wins > self.b_wins:
                return Outcome.WIN
            return Outcome.DRAW if self.a_wins == self.b_wins else Outcome.LOSS
        if kind is ResultKind.BYE:
            return Outcome.WIN
        return Outcome.LOSS

    def outcome_b(self) -> Outcome:
        """Team B's match outcome (a loss for a solo result's missing side is never asked)."""
        kind = self.kind
        if kind is ResultKind.PLAYED:
            return {Outcome.WIN: Outcome.LOSS, Outcome.LOSS: Outcome.WIN, Outcome.DRAW: Outcome.DRAW}[
                self.outcome_a()
            ]
        if kind is ResultKind.MATCH_LOSS:
            return Outcome.WIN
        if kind is ResultKind.DOUBLE_LOSS:
            return Outcome.LOSS
        raise ResultError(f"round {self.round_number}: a {kind} has no team B")

    def outcome_for(self, team: int) -> Outcome:
        if team == self.team_a:
            return self.outcome_a()
        if team == self.team_b:
            return self.outcome_b()
        raise ResultError(f"team {team} did not play in this round-{self.round_number} result")

    def match_points_for(self, team: int) -> int:
        """Earned match points: win 3, draw 1, loss 0 (MTR Appendix C); penalties are applied in standings."""
        return OUTCOME_POINTS[self.outcome_for(team)]

    def opponent_of(self, team: int) -> int | None:
        if team == self.team_a:
            return self.team_b
        if team == self.team_b:
            return self.team_a
        raise ResultError(f"team {team} did not play in this round-{self.round_number} result")
