"""What people read about an event, built once for pages, printed documents and the API.

Each function here is the one source of a thing a person reads (the final standings, the
winner, a round's pairings with points and seats): the web pages render it, ``documents.builders``
lays the same rows out on paper, so what is shown and what is printed cannot disagree.
"""

from __future__ import annotations

import dataclasses
import math
from decimal import Decimal
from typing import NamedTuple

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from tournaments.domain.choices import Tiebreaker
from tournaments.domain.rounds import PlayoffMatch, playoff_winner
from tournaments.domain.seating import seat_order
from tournaments.domain.text import fold, initial, last_first, name_sort_key
from tournaments.enums import ResultKind, RoundKind
from tournaments.models import Match, Player, Round, Team, Tournament
from tournaments.selectors import match_as_result, matches_for_round
from tournaments.standings import StandingsLine, play_draw_choosers, standings_for


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
    latest = Round.objects.filter(tournament=tournament).newest()
    if latest is None or not latest.is_finished or not is_final(latest):
        return None
    return latest


@dataclasses.dataclass(frozen=True)
class Outcome:
    """A match's result as people read it: who won (``None`` for a draw or no result yet), the
    games from team A's side ("1-0-0", for machines) and ``text``, the sentence pages show."""

    winner_id: int | None
    games: str
    text: str


def games_text(ours: int, theirs: int, draws: int) -> str:
    """A game record from one team's side, as a sentence reads it: "1-0", "0-1", "2-1", draws
    only when there were some ("1-0-1")."""
    return f"{ours}-{theirs}-{draws}" if draws else f"{ours}-{theirs}"


def winner_first(team_a_wins: int, team_b_wins: int, draws: int) -> str:
    """A game record with the winner's games first ("1-0" whichever team won); a draw in full."""
    if team_a_wins == team_b_wins:
        return f"{team_a_wins}-{team_b_wins}-{draws}"
    return games_text(max(team_a_wins, team_b_wins), min(team_a_wins, team_b_wins), draws)


def match_outcome(match: Match, *, for_team: int | None = None) -> Outcome:
    """The match's result in words, the games read the right way: the winner's first ("Red Dawn
    won 1-0"), or, on ``for_team``'s own page, that team's first ("Blue Moon lost 0-1"); a draw
    as its record ("Draw 0-0-1")."""
    games = f"{match.team_a_wins}-{match.team_b_wins}-{match.draws}"
    if match.team_b_id is None:
        bye = match.result_kind == ResultKind.BYE
        return Outcome(match.team_a_id if bye else None, "", _("Bye") if bye else _("Missed round (loss)"))
    if not match.has_result:
        return Outcome(None, "", _("Not reported yet"))
    a_won = match.team_a_wins > match.team_b_wins
    if match.team_a_wins == match.team_b_wins:
        winner_id, text = None, _("Draw %(games)s") % {"games": games}
    else:
        winner, loser = (match.team_a, match.team_b) if a_won else (match.team_b, match.team_a)
        high, low = sorted((match.team_a_wins, match.team_b_wins), reverse=True)
        winner_id = winner.pk
        if for_team == loser.pk:
            text = _("%(team)s lost %(games)s") % {
                "team": loser.name,
                "games": games_text(low, high, match.draws),
            }
        else:
            text = _("%(team)s won %(games)s") % {
                "team": winner.name,
                "games": games_text(high, low, match.draws),
            }
    if not match.confirmed:
        return Outcome(None, games, _("%(result)s, waiting for confirmation") % {"result": text})
    return Outcome(winner_id, games, text)


@dataclasses.dataclass(frozen=True)
class BracketRound:
    """One playoff round of the bracket. It holds the matches only, and reads their stage and
    outcomes in words when a page shows them, so a copy kept for every reader of the event (the
    event page's memoized frame) speaks each reader's language."""

    number: int
    rows: list[Match]

    @property
    def label(self) -> str:
        """The round and its stage: "Round 4: Semifinals"; before the quarterfinals "Top 16"."""
        stages = {1: _("Final"), 2: _("Semifinals"), 4: _("Quarterfinals")}
        count = len(self.rows)
        stage = stages[count] if count in stages else _("Top %(count)s") % {"count": 2 * count}
        return _("Round %(number)s: %(stage)s") % {"number": self.number, "stage": stage}

    @property
    def matches(self) -> list[tuple[Match, Outcome]]:
        return [(match, match_outcome(match)) for match in self.rows]


def playoff_bracket_rounds(tournament: Tournament) -> list[BracketRound]:
    """The published playoff rounds, first round first (one query)."""
    matches = (
        Match.objects.filter(round__tournament=tournament, round__kind=RoundKind.PLAYOFF)
        .public()
        .select_related("round", "team_a", "team_b")
        .order_by("round__number", "bracket_slot", "id")
    )
    by_round: dict[int, list[Match]] = {}
    for match in matches:
        by_round.setdefault(match.round.number, []).append(match)
    return [BracketRound(number, round_matches) for number, round_matches in sorted(by_round.items())]


# ---- a round's pairings: by table and by name -------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Seat:
    player: Player
    primary: bool


@dataclasses.dataclass(frozen=True)
class Side:
    """One team at a table: players in seat order, the primary (who sits on the right) first, and
    the team's match points going into the round (docs/rules.md#pairings-sheets)."""

    team: Team
    seats: list[Seat]
    match_points: int


@dataclasses.dataclass(frozen=True)
class PairingRow:
    """One table of a round as the pairings by table show it, on a page and on paper."""

    table: int | None
    side_a: Side
    side_b: Side | None
    #: The folded names of both teams and their players, what a search by name looks in.
    search_text: str
    #: The team that chooses to play or draw (playoff rounds only, MTR 9.3); ``None`` otherwise.
    chooser: Team | None = None
    match: Match | None = None


@dataclasses.dataclass(frozen=True)
class NameRow:
    """One player of a round as the pairings by name show them: their table, their team, who they
    play. Sorted by last name; ``initial`` is the letter the printed sheets file them under."""

    player: Player
    posted_name: str
    initial: str
    table: int | None
    side: Side
    opponent: Side | None
    match: Match | None


def points_before(tournament: Tournament, round_obj: Round) -> dict[int, int]:
    """Each team's match points going into a round, as pairings show them (docs/rules.md#pairings-sheets; in a
    playoff round, the final Swiss points). All zero in round 1, with no query."""
    if round_obj.number <= 1:
        return {}
    return {
        line.team_id: line.match_points
        for line in standings_for(tournament, through_round=round_obj.number - 1)
    }


def seated_side(
    match: Match, letter: str, players: dict[int, list[Player]], points: dict[int, int]
) -> Side | None:
    """The team on side ``letter`` of ``match`` with its players (team id → players) in seat order:
    the match's recorded seats when the team set them, else registration order (first = primary)."""
    team = match.team_a if letter == "A" else match.team_b
    if team is None:
        return None
    recorded = match.seats.get(letter) if isinstance(match.seats, dict) else None
    ordered = seat_order(
        players.get(team.pk, []), recorded, member_id=lambda p: p.pk, position=lambda p: p.position
    )
    return Side(
        team, [Seat(player, index == 0) for index, player in enumerate(ordered)], points.get(team.pk, 0)
    )


def pairings_by_table(round_obj: Round) -> list[PairingRow]:
    """The round's tables in order, byes last, each team with its seats and points before the
    round: the rows of the public pairings, the pairings-by-table PDF, the slips and the API.
    Three queries plus the standings before the round (none in round 1)."""
    tournament = round_obj.tournament
    matches = sorted(matches_for_round(round_obj), key=lambda match: match.table is None)
    players: dict[int, list[Player]] = {}
    for player in Player.objects.filter(tournament=tournament).order_by("team_id", "position", "id"):
        players.setdefault(player.team_id, []).append(player)
    points = points_before(tournament, round_obj)
    choosers = play_draw_choosers(round_obj)
    rows = []
    for match in matches:
        side_a, side_b = seated_side(match, "A", players, points), seated_side(match, "B", players, points)
        sides = [side for side in (side_a, side_b) if side]
        names = [side.team.name for side in sides] + [
            seat.player.name for side in sides for seat in side.seats
        ]
        chooser = next((side.team for side in sides if side.team.pk == choosers.get(match.pk)), None)
        if side_a is None:  # every match has a team A: unreachable, keeps the type exact
            continue
        rows.append(PairingRow(match.table, side_a, side_b, fold(" | ".join(names)), chooser, match))
    return rows


def pairings_by_name(rows: list[PairingRow]) -> list[NameRow]:
    """Every player of the round by last name (then whole name, then id): the public pages by name,
    the projector and the pairings-by-name PDF. No query: built from ``pairings_by_table``."""
    entries = []
    for row in rows:
        for side, opponent in ((row.side_a, row.side_b), (row.side_b, row.side_a)):
            if side is None:
                continue
            for seat in side.seats:
                name = seat.player.name
                entries.append(
                    NameRow(
                        seat.player, last_first(name), initial(name), row.table, side, opponent, row.match
                    )
                )
    entries.sort(key=lambda e: (*name_sort_key(e.player.name, e.player.name_reading), e.player.pk))
    return entries


def record_shown(line: StandingsLine | None) -> StandingsLine | None:
    """A team's standings line as a page shows its record: none before the team's first result,
    so no rank is shown while there is nothing to rank by."""
    return line if line is not None and line.wins + line.losses + line.draws > 0 else None


def side_matches(side: Side, query: str) -> bool:
    """Whether the team's name or one of its players' names contains ``query`` (folded): the side
    a find-my-table reader is looking for, shown first and marked as theirs."""
    needle = fold(query)
    return bool(needle) and any(
        needle in fold(name) for name in (side.team.name, *(seat.player.name for seat in side.seats))
    )


def find_rows(rows: list[PairingRow], query: str) -> list[PairingRow]:
    """The tables whose team or player names contain ``query`` (folded: case and accents ignored)."""
    needle = fold(query)
    return [row for row in rows if needle in row.search_text] if needle else []


class TiebreakerCell(NamedTuple):
    """One tiebreaker of a standings row: the setting's name, the column heading, and the value as
    the engine rounded it (a fraction of 1, four decimals)."""

    name: str
    label: str
    value: Decimal

    @property
    def percent(self) -> str:
        """As pages and paper show it: a percentage with two decimals."""
        return f"{self.value * 100:.2f}"


#: The heading of each tiebreaker column; match points have a column of their own.
TIEBREAKER_LABELS = {
    Tiebreaker.OPPONENTS_MATCH_WIN: pgettext_lazy("tiebreaker", "OMW%"),
    Tiebreaker.GAME_WIN: pgettext_lazy("tiebreaker", "GW%"),
    Tiebreaker.OPPONENTS_GAME_WIN: pgettext_lazy("tiebreaker", "OGW%"),
}


def tiebreaker_columns(tournament: Tournament) -> list[tuple[str, str]]:
    """(name, heading) of the tiebreaker columns every standings table shows, page or paper: the
    event's own tiebreakers after match points, in the order they rank."""
    return [
        (str(name), str(TIEBREAKER_LABELS[name]))
        for name in tournament.ranking_tiebreakers
        if name != Tiebreaker.MATCH_POINTS
    ]


def standings_rows(lines: list[StandingsLine], tournament: Tournament) -> list[dict]:
    """Standings lines as every table of them shows them (the public pages, the manage page, the
    final, the PDF): each row's tiebreakers as (name, label, value) in the event's order.

    A line's tiebreaker values are its attributes of the same name (``omw``, ``gw``, ``ogw``)."""
    columns = tiebreaker_columns(tournament)
    return [
        {
            "rank": row.rank,
            "team_id": row.team_id,
            "team_name": row.team_name,
            "players": row.players,
            "wins": row.wins,
            "losses": row.losses,
            "draws": row.draws,
            "match_points": row.match_points,
            "penalty_points": row.penalty_points,
            "tiebreakers": [TiebreakerCell(name, label, getattr(row, name)) for name, label in columns],
            "dropped": row.dropped,
            "eliminated": row.eliminated,
        }
        for row in lines
    ]


def standings_table(tournament: Tournament, lines: list[StandingsLine]) -> dict:
    """What the pages' standings table template reads: the tiebreaker headings, the rows, and
    whether any row has penalty points (the penalty column shows only then)."""
    rows = standings_rows(lines, tournament)
    return {
        "columns": tiebreaker_columns(tournament),
        "rows": rows,
        "any_penalty": any(row["penalty_points"] for row in rows),
    }
