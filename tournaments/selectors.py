"""Reads for pages and the API, each in a fixed number of queries.

This module is also the adapter's read half: it turns stored rows into the Swiss engine's plain
values (``EventState``), so pairings and standings are always computed by ``tournaments.domain`` from
the same picture of the event.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Case, Count, F, Prefetch, QuerySet, When

from tournaments.domain import (
    INDIVIDUAL_TIEBREAKERS,
    TEAM_TIEBREAKERS,
    EventSettings,
    EventState,
    MatchResult,
    ResultKind,
    chart_size,
    compute_standings,
    format_percentage,
)
from tournaments.domain.play_draw import play_draw_chooser
from tournaments.enums import MatchResultKind, PlayoffPlayDraw, RoundKind, StaffRole
from tournaments.hooks import match_point_adjustments
from tournaments.models import DraftPod, KeepApart, Match, Player, Round, Staff, Team, Tournament


def tournaments_listed() -> QuerySet[Tournament]:
    return Tournament.objects.annotate(team_count=Count("teams", distinct=True)).order_by("-date", "-id")


def tournaments_staffed_by(user) -> QuerySet[Tournament]:
    return (
        Tournament.objects.filter(staff__user=user)
        .annotate(team_count=Count("teams", distinct=True))
        .order_by("-date", "-id")
    )


def staff_for(tournament: Tournament) -> QuerySet[Staff]:
    """The event's staff with their accounts (one query), organizer first, then by role and name."""
    return (
        Staff.objects.filter(tournament=tournament)
        .select_related("user")
        .order_by(
            Case(When(role=StaffRole.ORGANIZER, then=0), default=1),
            "role",
            "user__username",
        )
    )


def round_seed(tournament: Tournament, number: int) -> int:
    """The pairing seed of round ``number``: derived from the event's seed, so a re-pair after a
    deletion, or an audit, reproduces it from the stored event alone."""
    return random.Random(f"{tournament.seed}:round:{number}").getrandbits(48)


def event_settings_for(tournament: Tournament) -> EventSettings:
    return EventSettings.from_values(
        tiebreakers=tournament.tiebreakers
        or (TEAM_TIEBREAKERS if tournament.is_team_event else INDIVIDUAL_TIEBREAKERS),
        percentage_floor=tournament.percentage_floor,
        games_per_match=tournament.games_per_match,
    )


def match_as_result(match: Match, round_number: int) -> MatchResult | None:
    """The engine's view of a stored match; ``None`` while it has no confirmed result.

    A penalty Match Loss is stored with the loser at 0 games; the engine wants the loser as team A,
    so the sides are swapped when team B lost.
    """
    if not match.confirmed or match.result_kind == MatchResultKind.PENDING:
        return None
    kind = match.result_kind
    if kind == MatchResultKind.BYE:
        return MatchResult.bye(round_number, match.team_a_id)
    if kind == MatchResultKind.MISSED_ROUND_LOSS:
        return MatchResult.missed_round(round_number, match.team_a_id)
    if kind == MatchResultKind.DOUBLE_LOSS:
        return MatchResult.double_loss(round_number, match.team_a_id, match.team_b_id)
    if kind == MatchResultKind.PENALTY_LOSS:
        loser_is_a = match.team_a_wins < match.team_b_wins
        loser, winner = (
            (match.team_a_id, match.team_b_id) if loser_is_a else (match.team_b_id, match.team_a_id)
        )
        return MatchResult(
            round_number,
            loser,
            winner,
            0,
            max(match.team_a_wins, match.team_b_wins),
            match.draws,
            ResultKind.MATCH_LOSS,
        )
    return MatchResult.played(
        round_number, match.team_a_id, match.team_b_id, match.team_a_wins, match.team_b_wins, match.draws
    )


def event_state_for(
    tournament: Tournament,
    *,
    through_round: int | None = None,
    teams: list[Team] | None = None,
    adjustments: Mapping[int, int] | None = None,
) -> EventState:
    """Everything the engine needs about the Swiss part of the event, in three queries
    (teams unless given, Swiss matches, keep-apart pairs) plus the match-point ``adjustments``
    (team id → points; unless given, what the apps registered in ``tournaments.hooks`` report).

    With ``through_round``, only results of rounds 1..N count and teams that registered later are
    left out, so "standings after round N" is what was true then.
    """
    if teams is None:
        teams = list(Team.objects.filter(tournament=tournament).order_by("id"))
    if through_round is not None:
        teams = [t for t in teams if t.registered_after_round <= through_round]
    team_ids = {t.id for t in teams}
    matches = Match.objects.filter(round__tournament=tournament, round__kind=RoundKind.SWISS).values_list(
        "round__number",
        "team_a_id",
        "team_b_id",
        "team_a_wins",
        "team_b_wins",
        "draws",
        "result_kind",
        "confirmed",
    )
    if through_round is not None:
        matches = matches.filter(round__number__lte=through_round)
    results = []
    for number, a, b, a_wins, b_wins, draws, kind, confirmed in matches:
        row = Match(
            team_a_id=a,
            team_b_id=b,
            team_a_wins=a_wins,
            team_b_wins=b_wins,
            draws=draws,
            result_kind=kind,
            confirmed=confirmed,
        )
        result = match_as_result(row, number)
        if result is not None and set(result.teams) <= team_ids:
            results.append(result)
    keep_apart = [
        (a, b)
        for a, b in KeepApart.objects.filter(tournament=tournament).values_list("team_a_id", "team_b_id")
        if a in team_ids and b in team_ids
    ]
    if adjustments is None:
        adjustments = match_point_adjustments(tournament.id)
    penalties = {team: points for team, points in adjustments.items() if team in team_ids}
    return EventState(
        team_ids=tuple(sorted(team_ids)),
        results=tuple(results),
        settings=event_settings_for(tournament),
        drops={t.id: t.dropped_after_round + 1 for t in teams if t.dropped_after_round is not None},
        disqualified=frozenset(t.id for t in teams if t.disqualified),
        penalty_points=penalties,
        keep_apart=tuple(keep_apart),
        fixed_tables={t.id: t.fixed_table for t in teams if t.fixed_table is not None},
        awarded_byes={t.id: t.awarded_byes for t in teams if t.awarded_byes},
    )


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


def last_public_standings_round(tournament: Tournament) -> int:
    """The Swiss round whose standings players and the public see (0 if none yet): the latest
    published round with every result in. Standings are posted after a round, never while its
    results are still coming in, so the page and the API show the same table (one query)."""
    return (
        Round.objects.public()
        .finished()
        .filter(tournament=tournament, kind=RoundKind.SWISS)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
        or 0
    )


def standings_for(tournament: Tournament, *, through_round: int | None = None) -> list[StandingsLine]:
    """Swiss standings computed by the engine, best first, in five queries plus the penalties'.

    ``through_round`` limits them to rounds 1..N (unset: every confirmed result so far). Ties left
    after the tiebreakers are broken by the seed of the last round counted, as DECISIONS.md says.
    Playoff matches never change the Swiss standings.
    """
    teams = list(
        Team.objects.filter(tournament=tournament)
        .order_by("id")
        .prefetch_related(Prefetch("players", queryset=Player.objects.order_by("position")))
    )
    state = event_state_for(tournament, through_round=through_round, teams=teams)
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
        )
        for row in compute_standings(state, seed=seed)
    ]


def play_draw_choosers(round: Round) -> dict[int, int]:  # noqa: A002 - the services name it round
    """Match id → the team that chooses to play or draw, for a playoff round's matches; empty for
    Swiss rounds, and byes have no entry (MTR 9.3, the event's ``playoff_play_draw``).

    ``higher_seed`` ranks teams by the final Swiss standings (after the last Swiss round), in the
    order the cut seeded them; ``random`` draws from the round's stored seed, so every reload and
    every printed document names the same team. One query for ``random``; with ``higher_seed``
    one more for the last Swiss round and the standings' own.
    """
    if round.kind != RoundKind.PLAYOFF:
        return {}
    pairs = list(
        Match.objects.filter(round=round, team_b__isnull=False)
        .order_by("id")
        .values_list("id", "team_a_id", "team_b_id")
    )
    if not pairs:
        return {}
    tournament = round.tournament
    policy = tournament.playoff_play_draw
    ranks: dict[int, int] = {}
    if policy == PlayoffPlayDraw.HIGHER_SEED:
        last_swiss = (
            Round.objects.filter(tournament=tournament, kind=RoundKind.SWISS)
            .order_by("-number")
            .values_list("number", flat=True)
            .first()
        )
        standings = standings_for(tournament, through_round=last_swiss)
        ranks = {line.team_id: position for position, line in enumerate(standings, start=1)}
    return {
        match_id: play_draw_chooser(team_a=a, team_b=b, swiss_rank=ranks, policy=policy, seed=round.seed)
        for match_id, a, b in pairs
    }


def chart_size_for(tournament: Tournament) -> int:
    """The event's size for the MTR round chart: its active teams, awarded-bye holders counted 2/4/8."""
    return chart_size(
        Team.objects.filter(
            tournament=tournament, dropped_after_round__isnull=True, disqualified=False
        ).values_list("awarded_byes", flat=True)
    )


def teams_for(tournament: Tournament, *, team_id: int | None = None) -> QuerySet[Team]:
    """Teams with their players (two queries); ``team_id`` narrows to one team (a player's view)."""
    teams = Team.objects.filter(tournament=tournament).prefetch_related(
        Prefetch("players", queryset=Player.objects.select_related("user").order_by("position"))
    )
    if team_id is not None:
        teams = teams.filter(pk=team_id)
    return teams.order_by("name")


#: Bracket order in a playoff, table order in Swiss; byes (no table) last.
_MATCH_ORDER = (F("bracket_slot").asc(nulls_last=True), F("table").asc(nulls_last=True), "id")


def _matches_queryset() -> QuerySet[Match]:
    return Match.objects.select_related("round", "team_a", "team_b", "reported_by")


def matches_for_round(round_obj: Round) -> QuerySet[Match]:
    """The round's matches, by table (byes last), with both teams joined: one query."""
    return _matches_queryset().filter(round=round_obj).order_by(*_MATCH_ORDER)


def round_detail(tournament: Tournament, number: int, *, include_unpublished: bool) -> Round | None:
    """The round with its matches prefetched (two queries), or ``None`` if unknown or not visible."""
    rounds = Round.objects.filter(tournament=tournament, number=number)
    if not include_unpublished:
        rounds = rounds.public()
    return rounds.prefetch_related(
        Prefetch(
            "matches",
            queryset=_matches_queryset().order_by(*_MATCH_ORDER),
        )
    ).first()


def rounds_for(tournament: Tournament, *, include_unpublished: bool) -> QuerySet[Round]:
    rounds = Round.objects.filter(tournament=tournament).annotate(match_count=Count("matches"))
    if not include_unpublished:
        rounds = rounds.public()
    return rounds.order_by("number")


def match_detail(match_id: int) -> Match | None:
    return _matches_queryset().select_related("round__tournament").filter(pk=match_id).first()


def match_snapshot(match: Match) -> dict[str, Any]:
    """The match as the API shows it; also the ``before``/``after`` of audit entries and the body of
    a stale-version 409, so a client sees one shape everywhere."""
    return {
        "id": match.id,
        "round": match.round.number,
        "table": match.table,
        "team_a": match.team_a_id,
        "team_b": match.team_b_id,
        "bracket_slot": match.bracket_slot,
        "result_kind": match.result_kind,
        "team_a_wins": match.team_a_wins,
        "team_b_wins": match.team_b_wins,
        "draws": match.draws,
        "version": match.version,
        "reported_by": match.reported_by_id,
        "reported_side": match.reported_side,
        "confirmed": match.confirmed,
        "disputed": match.disputed,
    }


def pods_for_draft(tournament: Tournament, draft: int | None = None) -> list[DraftPod]:
    """The pods of ``draft`` (default: the event's latest draft), by number; empty if none is
    seated. Two queries at most."""
    rows = DraftPod.objects.filter(tournament=tournament)
    if draft is None:
        draft = rows.order_by("-draft").values_list("draft", flat=True).first()
        if draft is None:
            return []
    return list(rows.filter(draft=draft).order_by("number"))
