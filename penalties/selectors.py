"""Reads about penalties, for this app's views and for the apps that depend on penalties.

Standings (tournaments) and the round clock ask here, so they never know how penalties are stored.
Every read skips penalties not in force (``Penalty.objects.in_force``: overturned, or a proposed
Disqualification the head judge has not confirmed) except the lists staff read, which show them
marked: an appeal restores standings and turns by being left out here, with nothing else to undo.
"""

from __future__ import annotations

import datetime
from collections import defaultdict

from django.db.models import QuerySet, Sum

from common.i18n import localize
from penalties.domain import MatchPenalty, PriorPenalty
from penalties.domain import Penalty as PenaltyKind
from penalties.models import Penalty
from tournaments.domain.seating import seat_order
from tournaments.models import Match, Player


def penalty_name(value: str) -> str | None:
    """A stored penalty (``"game_loss"``) by its IPG name in the active language; ``None`` if unknown."""
    try:
        return localize(PenaltyKind(value).label)
    except ValueError:
        return None


def match_point_adjustments(tournament_id: int) -> dict[int, int]:
    """Team id → sum of match-point adjustments (negative), for standings and opponents' OMW%.

    One query. Teams without an adjustment are absent rather than 0.
    """
    rows = (
        Penalty.objects.in_force()
        .filter(tournament_id=tournament_id)
        .exclude(match_point_adjustment=0)
        .values("team_id")
        .annotate(total=Sum("match_point_adjustment"))
        .order_by("team_id")
    )
    return {row["team_id"]: row["total"] for row in rows if row["total"]}


def slow_play_penalty_times(match_ids: list[int]) -> dict[int, list[datetime.datetime]]:
    """Match id → when each Slow Play penalty that adds turns at that table was issued, in order.

    Only penalties the core gave extra turns count: a Slow Play upgraded to a Game Loss ends the
    match, and Regular REL (JAR) gives no turns. The round clock itself leaves out penalties issued
    after time was called (IPG 3.3). One query; matches without such penalties are absent.
    """
    times: dict[int, list[datetime.datetime]] = defaultdict(list)
    rows = (
        Penalty.objects.in_force()
        .filter(match_id__in=match_ids, extra_turns__gt=0)
        .order_by("created_at", "id")
        .values_list("match_id", "created_at")
    )
    for match_id, created_at in rows:
        times[match_id].append(created_at)
    return dict(times)


def penalties_listed(
    *,
    tournament_id: int,
    round_number: int | None = None,
    team_id: int | None = None,
    player_id: int | None = None,
) -> QuerySet[Penalty]:
    """Every penalty of the event (overturned ones included, marked), oldest first, in one query."""
    queryset = Penalty.objects.filter(tournament_id=tournament_id).select_related(
        "round", "match__round", "player", "team", "judge", "overturned_by"
    )
    if round_number is not None:
        queryset = queryset.filter(round__number=round_number)
    if team_id is not None:
        queryset = queryset.filter(team_id=team_id)
    if player_id is not None:
        queryset = queryset.filter(player_id=player_id)
    return queryset.order_by("created_at", "id")


def prior_penalties(*, player_id: int) -> list[PriorPenalty]:
    """The player's earlier penalties that count for repeat upgrades: overturned ones never do."""
    rows = Penalty.objects.in_force().filter(player_id=player_id).order_by("created_at", "id")
    return [
        PriorPenalty(infraction_code=code, day=day, base_penalty=PenaltyKind(base))
        for code, day, base in rows.values_list("infraction", "day", "base_penalty")
    ]


def match_penalties(*, match_id: int) -> list[MatchPenalty]:
    """The match's penalties as the core's :class:`MatchPenalty` values, overturned ones marked."""
    in_force = set(Penalty.objects.in_force().filter(match_id=match_id).values_list("id", flat=True))
    rows = Penalty.objects.filter(match_id=match_id).values_list(
        "id", "team_id", "penalty", "simultaneous_with_id"
    )
    return [
        MatchPenalty(
            penalty_id=pk,
            team_id=team_id,
            penalty=PenaltyKind(penalty),
            moment=simultaneous_with_id or pk,
            overturned=pk not in in_force,
        )
        for pk, team_id, penalty, simultaneous_with_id in rows
    ]


def latest_day(*, tournament_id: int) -> int:
    """The latest event day any penalty was given on (1 before the first), the default for the next."""
    return (
        Penalty.objects.filter(tournament_id=tournament_id)
        .order_by("-day")
        .values_list("day", flat=True)
        .first()
        or 1
    )


def round_tables(*, round_id: int) -> list[dict]:
    """The round's tables for the judge page: each team with its players in seat order, in 2 queries.

    Seats are ``A1``, ``A2``, ``B1``, ``B2`` from ``Match.seats`` (team A is the first listed);
    without stored seats, registration order. A bye is listed too (its team can still be penalised).
    """
    matches = list(
        Match.objects.filter(round_id=round_id).select_related("team_a", "team_b").order_by("table", "id")
    )
    team_ids = [team_id for match in matches for team_id in (match.team_a_id, match.team_b_id) if team_id]
    players_by_team: dict[int, list[Player]] = defaultdict(list)
    for player in Player.objects.filter(team_id__in=team_ids).order_by("position", "id"):
        players_by_team[player.team_id].append(player)
    tables = []
    for match in matches:
        teams = []
        for side, team in (("A", match.team_a), ("B", match.team_b)):
            if team is None:
                continue
            members = seat_order(
                players_by_team[team.pk],
                (match.seats or {}).get(side),
                member_id=lambda p: p.pk,
                position=lambda p: p.position,
            )
            teams.append(
                {
                    "id": team.pk,
                    "name": team.name,
                    "side": side,
                    "players": [
                        {"id": p.pk, "name": p.name, "seat": f"{side}{index}"}
                        for index, p in enumerate(members, start=1)
                    ],
                }
            )
        tables.append({"match": match.pk, "table": match.table, "bye": match.is_bye, "teams": teams})
    return tables
