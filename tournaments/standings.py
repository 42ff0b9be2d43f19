"""Swiss standings as pages, printed documents and the API show them, in a fixed number of queries.

The engine (``tournaments.domain``) computes them from ``selectors.event_state_for``'s picture of the
event; here they become rows with names (``standings_for``), with the line of a cut to day 2, the
round whose standings the public sees, and who chooses to play or draw in a playoff match (the
higher seed by these standings, MTR 9.3).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Prefetch

from tournaments.domain import compute_standings, day_two_counts, format_percentage, with_day_two_cut
from tournaments.domain.play_draw import play_draw_chooser
from tournaments.enums import PlayoffPlayDraw, RoundKind
from tournaments.models import Match, Player, Round, Team, Tournament
from tournaments.selectors import event_state_for


@dataclass(frozen=True)
class StandingsLine:
    """One standings row as pages and the API show it; percentages rounded to 4 decimals."""

    rank: int
    team_id: int
    team_name: str
    players: tuple[str, ...]
    match_points: int
    penalty_points: int
    wins: int
    losses: int
    draws: int
    byes: int
    mw: Decimal
    omw: Decimal
    gw: Decimal
    ogw: Decimal
    dropped: bool
    eliminated: bool = False


@dataclass(frozen=True)
class DayTwoLine:
    """The day-2 line of the public pages: "18 of 32 teams advanced with 6+ points"."""

    after_round: int
    min_match_points: int
    advanced: int
    teams: int


def day_two_line(tournament: Tournament, standings_round: int) -> DayTwoLine | None:
    """The cut to day 2 once the standings shown are at or after its round, else ``None``."""
    cut = tournament.cut_to_day_two
    if cut is None or standings_round < cut.after_round:
        return None
    advanced, teams = day_two_counts(event_state_for(tournament, through_round=cut.after_round))
    return DayTwoLine(cut.after_round, cut.min_match_points, advanced, teams)


def last_public_standings_round(tournament: Tournament) -> int:
    """The Swiss round whose standings players and the public see (0 if none yet): the latest
    published round with every result in. Standings are posted after a round, never while its
    results are still coming in, so the page and the API show the same table (one query)."""
    return (
        Round.objects.public().finished().filter(tournament=tournament, kind=RoundKind.SWISS).newest_number()
    )


def standings_for(tournament: Tournament, *, through_round: int | None = None) -> list[StandingsLine]:
    """Swiss standings computed by the engine, best first, in five queries plus the penalties'.

    ``through_round`` limits them to rounds 1..N (unset: every confirmed result so far); from the
    round of a cut to day 2 on, the teams below it are marked ``eliminated``. Ties left after the
    tiebreakers are broken by the seed of the last round counted (docs/rules.md#tiebreakers).
    Playoff matches never change the Swiss standings.
    """
    teams = list(
        Team.objects.filter(tournament=tournament)
        .formed()
        .order_by("id")
        .prefetch_related(Prefetch("players", queryset=Player.objects.order_by("position")))
    )
    state = event_state_for(tournament, through_round=through_round, teams=teams)
    cut = state.settings.day_two
    if cut is not None and through_round is not None and through_round >= cut.after_round:
        state = with_day_two_cut(state)
    seeds = Round.objects.filter(tournament=tournament, kind=RoundKind.SWISS).order_by("-number")
    if through_round is not None:
        seeds = seeds.filter(number__lte=through_round)
    seed = seeds.values_list("seed", flat=True).first() or tournament.seed
    by_id = {t.id: t for t in teams}
    return [
        StandingsLine(
            rank=row.rank,
            team_id=row.team_id,
            team_name=by_id[row.team_id].name,
            players=tuple(p.name for p in by_id[row.team_id].players.all()),
            match_points=row.match_points,
            penalty_points=row.penalty_points,
            wins=row.wins,
            losses=row.losses,
            draws=row.draws,
            byes=row.byes,
            mw=Decimal(format_percentage(row.mw)),
            omw=Decimal(format_percentage(row.omw)),
            gw=Decimal(format_percentage(row.gw)),
            ogw=Decimal(format_percentage(row.ogw)),
            dropped=row.dropped,
            eliminated=row.eliminated,
        )
        for row in compute_standings(state, seed=seed)
    ]


def play_draw_choosers(round_row: Round) -> dict[int, int]:
    """Match id → the team that chooses to play or draw, for a playoff round's matches; empty for
    Swiss rounds, and byes have no entry (MTR 9.3, the event's ``playoff_play_draw``).

    ``higher_seed`` ranks teams by the final Swiss standings (after the last Swiss round), in the
    order the cut seeded them; ``random`` draws from the round's stored seed, so every reload and
    every printed document names the same team. One query for ``random``; with ``higher_seed``
    one more for the last Swiss round and the standings' own.
    """
    if round_row.kind != RoundKind.PLAYOFF:
        return {}
    pairs = list(
        Match.objects.filter(round=round_row, team_b__isnull=False)
        .order_by("id")
        .values_list("id", "team_a_id", "team_b_id")
    )
    if not pairs:
        return {}
    tournament = round_row.tournament
    policy = tournament.playoff_play_draw
    ranks: dict[int, int] = {}
    if policy == PlayoffPlayDraw.HIGHER_SEED:
        last_swiss = Round.objects.filter(tournament=tournament, kind=RoundKind.SWISS).newest_number() or None
        standings = standings_for(tournament, through_round=last_swiss)
        ranks = {line.team_id: position for position, line in enumerate(standings, start=1)}
    return {
        match_id: play_draw_chooser(team_a=a, team_b=b, swiss_rank=ranks, policy=policy, seed=round_row.seed)
        for match_id, a, b in pairs
    }
