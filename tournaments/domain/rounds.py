"""How many Swiss rounds, how big a playoff, and the single-elimination bracket (MTR App. E, 10.4, 2.10).

A team counts as one player in the chart. The 4-team row exists only for team events (2HG); an
individual event of 4 players is below every chart row, so it gets the sanctioning minimum of 3
Swiss rounds (MTR 10.2) and no playoff.

Bracket rules: Top 8 plays 1v8, 4v5, 2v7, 3v6, and the semifinals are winner(1/8) v winner(4/5),
winner(2/7) v winner(3/6); Top 4 plays 1v4, 2v3. The next round always pairs the winners of
neighbouring matches, which gives exactly those semifinals. A playoff match cannot be a draw. A
team that drops after the cut is not replaced: its opponent advances (MTR 2.10). The 4- and
5-8-team rows are single elimination from the start: the missing seeds of the 8-slot bracket are
byes for the top seeds.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from common.translatable import N_
from tournaments.domain.errors import PlayoffError
from tournaments.domain.results import MatchResult, Outcome, ResultKind

#: (most teams in the row, Swiss rounds) for the rows that end in a Top 8 (MTR App. E).
_SWISS_CHART = ((32, 5), (64, 6), (128, 7), (226, 8), (409, 9))

#: Seed order of a bracket's first round, as seed pairs in the order the matches are listed.
_BRACKETS = {
    8: ((1, 8), (4, 5), (2, 7), (3, 6)),
    4: ((1, 4), (2, 3)),
    2: ((1, 2),),
}


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """The recommended structure for an event of a given size.

    ``single_elimination_rounds`` counts playoff rounds; with ``swiss_rounds`` 0 the whole event is
    single elimination (the 4-team and 5-8-team rows).
    """

    teams: int
    swiss_rounds: int
    playoff_size: int
    single_elimination_rounds: int


def chart_size(awarded_byes: Iterable[int]) -> int:
    """How many players the chart counts for teams with these awarded byes (one number per team):
    each team 1, the holder of a 1-, 2- or 3-round awarded bye 2, 4 or 8 (MTR App. E)."""
    return sum(2**byes for byes in awarded_byes)


def recommended_rounds(
    teams: int, *, team_event: bool = True, booster_draft_playoff: bool = False
) -> RoundPlan:
    """The MTR Appendix E row for ``teams`` teams (or players)."""
    if teams < 4:
        raise PlayoffError(N_("an event needs at least 4 teams to be sanctioned, got %(teams)s", teams=teams))
    if teams == 4 and team_event:
        return RoundPlan(teams, 0, 4, 2)
    if teams == 4:
        return RoundPlan(teams, 3, 0, 0)
    if teams <= 8:
        return RoundPlan(teams, 0, 8, 3)
    if teams <= 16:
        if booster_draft_playoff:
            return RoundPlan(teams, 4, 8, 3)
        return RoundPlan(teams, 5, 4, 2)
    for most, rounds in _SWISS_CHART:
        if teams <= most:
            return RoundPlan(teams, rounds, 8, 3)
    return RoundPlan(teams, 10, 8, 3)


@dataclass(frozen=True, slots=True)
class PlayoffMatch:
    """A bracket match; ``None`` on a side is an empty slot (a bye), so the other team advances."""

    seed_a: int
    seed_b: int
    team_a: int | None
    team_b: int | None


def first_playoff_round(seeded: Sequence[int], size: int) -> list[PlayoffMatch]:
    """The first bracket round for ``seeded`` (team ids, best first) in a bracket of ``size`` (2, 4 or 8).

    With fewer teams than slots (a 5-8-team single-elimination event) the top seeds get byes.
    """
    if size not in _BRACKETS:
        raise PlayoffError(N_("bracket size must be 2, 4 or 8, got %(size)s", size=size))
    if not size // 2 < len(seeded) <= size:
        raise PlayoffError(
            N_(
                "a bracket of %(size)s needs %(least)s to %(size)s teams, got %(got)s",
                size=size,
                least=size // 2 + 1,
                got=len(seeded),
            )
        )
    if len(set(seeded)) != len(seeded):
        raise PlayoffError(N_("a team is seeded twice"))

    def team(seed: int) -> int | None:
        return seeded[seed - 1] if seed <= len(seeded) else None

    return [PlayoffMatch(a, b, team(a), team(b)) for a, b in _BRACKETS[size]]


def playoff_winner(match: PlayoffMatch, result: MatchResult | None, dropped: Collection[int] = ()) -> int:
    """Who advances from ``match``.

    A bye slot or a dropped opponent sends the other team through without a result (MTR 2.10); a
    played result must have a winner, because single elimination has no draws (MTR 2.4).
    """
    present = [t for t in (match.team_a, match.team_b) if t is not None and t not in dropped]
    if not present:
        raise PlayoffError(N_("both teams of a playoff match are missing"))
    if len(present) == 1:
        return present[0]
    if result is None:
        raise PlayoffError(
            N_("no result for the playoff match of seeds %(a)s and %(b)s", a=match.seed_a, b=match.seed_b)
        )
    if set(result.teams) != set(present):
        raise PlayoffError(N_("the result is for other teams than this playoff match"))
    if result.kind is ResultKind.DOUBLE_LOSS:
        raise PlayoffError(N_("a playoff match needs a winner: a double loss cannot be recorded"))
    outcome = result.outcome_a()
    if outcome is Outcome.DRAW:
        raise PlayoffError(N_("playoff matches cannot end in a draw: play on until one team wins (MTR 2.4)"))
    return result.team_a if outcome is Outcome.WIN else result.team_b  # type: ignore[return-value]


def next_playoff_round(previous: Sequence[PlayoffMatch], winners: Sequence[int]) -> list[PlayoffMatch]:
    """Pair the winners of neighbouring matches: (1/8 v 4/5), (2/7 v 3/6); then the final."""
    if len(previous) != len(winners) or len(previous) < 2 or len(previous) % 2:
        raise PlayoffError(N_("the next playoff round needs one winner per match of an even-sized round"))
    matches = []
    for i in range(0, len(previous), 2):
        first, second = previous[i], previous[i + 1]
        for match, winner in ((first, winners[i]), (second, winners[i + 1])):
            if winner not in (match.team_a, match.team_b):
                raise PlayoffError(
                    N_(
                        "team %(team)s did not play the match of seeds %(a)s and %(b)s",
                        team=winner,
                        a=match.seed_a,
                        b=match.seed_b,
                    )
                )
        seed_a = first.seed_a if winners[i] == first.team_a else first.seed_b
        seed_b = second.seed_a if winners[i + 1] == second.team_a else second.seed_b
        matches.append(PlayoffMatch(seed_a, seed_b, winners[i], winners[i + 1]))
    return matches
