"""What people read about an event, built once for pages, printed documents and the API.

Each function here is the one source of a thing a person reads (the final standings, the
winner, a round's pairings with points and seats): the web pages render it, ``documents.builders``
lays the same rows out on paper, so what is shown and what is printed cannot disagree.
"""

from __future__ import annotations

import dataclasses
import math

from tournaments.domain.rounds import PlayoffMatch, playoff_winner
from tournaments.enums import MatchResultKind, RoundKind
from tournaments.models import Match, Round, Tournament
from tournaments.selectors import StandingsLine, match_as_result, standings_for


def is_final(round_obj: Round) -> bool:
    """The playoff's last round: a playoff round of a single match (a query)."""
    return round_obj.kind == RoundKind.PLAYOFF and Match.objects.filter(round=round_obj).count() == 1


def playoff_order(tournament: Tournament, final: Round, swiss_rank: dict[int, int]) -> list[int]:
    """Team ids by playoff finish: the final's winner, the finalist, then the teams out in each
    earlier playoff round (latest round first: semifinal losers, then quarterfinal losers...),
    each group in Swiss order. A team is out in the round after which it plays no more, which also
    places a team that dropped out of the bracket. Two queries."""
    matches = list(
        Match.objects.filter(
            round__tournament=tournament, round__kind=RoundKind.PLAYOFF, round__number__lte=final.number
        )
        .select_related("round")
        .order_by("-round__number", "bracket_slot", "id")
    )
    final_match = next(m for m in matches if m.round_id == final.id)
    teams = (final_match.team_a_id, final_match.team_b_id)
    winner = playoff_winner(
        PlayoffMatch(1, 2, *teams),
        match_as_result(final_match, final.number) if final_match.confirmed else None,
    )
    order = [winner, *(t for t in teams if t is not None and t != winner)]
    placed = set(order)
    by_round: dict[int, set[int]] = {}
    for match in matches:
        for team_id in (match.team_a_id, match.team_b_id):
            if team_id is not None and team_id not in placed:
                by_round.setdefault(match.round.number, set()).add(team_id)
    for number in sorted(by_round, reverse=True):
        out = sorted(by_round[number] - placed, key=lambda t: (swiss_rank.get(t, math.inf), t))
        order.extend(out)
        placed.update(out)
    return order


def final_standings(tournament: Tournament, final: Round) -> list[StandingsLine]:
    """The event's final standings: playoff places first (``playoff_order``), then the rest in
    Swiss order; ``rank`` becomes the place, the other columns stay the Swiss ones."""
    lines = standings_for(tournament)
    by_team = {line.team_id: line for line in lines}
    top = playoff_order(tournament, final, {line.team_id: line.rank for line in lines})
    ordered = [by_team[t] for t in top if t in by_team]
    ordered += [line for line in lines if line.team_id not in set(top)]
    return [dataclasses.replace(line, rank=place) for place, line in enumerate(ordered, start=1)]


def finished_final(tournament: Tournament) -> Round | None:
    """The event's final once its result is in (the latest round, a one-match playoff round with
    every result confirmed), else ``None``."""
    latest = Round.objects.filter(tournament=tournament).order_by("-number").first()
    if latest is None or not latest.is_finished or not is_final(latest):
        return None
    return latest


@dataclasses.dataclass(frozen=True)
class Outcome:
    """A match's result as people read it: who won (``None`` for a draw or no result yet) and the
    games ("1-0-0"); ``text`` is the sentence pages show."""

    winner_id: int | None
    games: str
    text: str


def match_outcome(match: Match) -> Outcome:
    games = f"{match.team_a_wins}-{match.team_b_wins}-{match.draws}"
    if match.team_b_id is None:
        label = "Bye" if match.result_kind == MatchResultKind.BYE else "Missed round (loss)"
        winner = match.team_a_id if match.result_kind == MatchResultKind.BYE else None
        return Outcome(winner, "", label)
    if not match.has_result:
        return Outcome(None, "", "Not reported yet")
    if not match.confirmed:
        return Outcome(None, games, f"{games}, waiting for confirmation")
    if match.team_a_wins == match.team_b_wins:
        return Outcome(None, games, f"Draw {games}")
    winner = match.team_a if match.team_a_wins > match.team_b_wins else match.team_b
    return Outcome(winner.pk, games, f"{winner.name} won {games}")


@dataclasses.dataclass(frozen=True)
class BracketRound:
    number: int
    label: str
    matches: list[tuple[Match, Outcome]]


def playoff_bracket_rounds(tournament: Tournament) -> list[BracketRound]:
    """The published playoff rounds with each match's outcome, first round first (two queries)."""
    matches = (
        Match.objects.filter(round__tournament=tournament, round__kind=RoundKind.PLAYOFF)
        .filter(round__published_at__isnull=False)
        .select_related("round", "team_a", "team_b")
        .order_by("round__number", "bracket_slot", "id")
    )
    by_round: dict[int, list[Match]] = {}
    for match in matches:
        by_round.setdefault(match.round.number, []).append(match)
    names = {1: "Final", 2: "Semifinals", 4: "Quarterfinals"}
    return [
        BracketRound(
            number,
            f"Round {number}: {names.get(len(round_matches), f'Top {2 * len(round_matches)}')}",
            [(match, match_outcome(match)) for match in round_matches],
        )
        for number, round_matches in sorted(by_round.items())
    ]
