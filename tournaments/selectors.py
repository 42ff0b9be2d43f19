"""Reads for pages and the API, each in a fixed number of queries.

This module is also the adapter's read half: it turns stored rows into the Swiss engine's plain
values (``EventState``), so pairings and standings are always computed by ``tournaments.domain`` from
the same picture of the event. The standings built from it are ``tournaments.standings``; a result
slip's address and code, ``tournaments.slips``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Case, Count, F, Max, Prefetch, QuerySet, When
from django.utils.translation import gettext as _

from tournaments.domain import (
    EventSettings,
    EventState,
    MatchResult,
    PlayoffError,
    ResultKind,
    chart_size,
    recommended_rounds,
    with_day_two_cut,
)
from tournaments.domain.choices import TeamSide
from tournaments.domain.pods import forced_rematch_pods, pod_sizes
from tournaments.domain.report_view import report_view
from tournaments.domain.result_state import Entry, EntrySource, ResultState, derive
from tournaments.domain.team_forming import InvitationStatus
from tournaments.enums import Format, Rel, RoundKind, StaffRole, TournamentStatus
from tournaments.hooks import match_point_adjustments, teams_without_lists
from tournaments.models import (
    DraftPod,
    KeepApart,
    Match,
    Player,
    PoolEntry,
    ResultReport,
    Round,
    Staff,
    Team,
    TeamInvitation,
    Tournament,
)


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
        tiebreakers=tournament.ranking_tiebreakers,
        percentage_floor=tournament.percentage_floor,
        games_per_match=tournament.games_per_match,
        day_two=tournament.cut_to_day_two,
    )


def match_as_result(match: Match, round_number: int) -> MatchResult | None:
    """The engine's view of a stored match; ``None`` while it has no confirmed result.

    A penalty Match Loss is stored with the loser at 0 games; the engine wants the loser as team A,
    so the sides are swapped when team B lost.
    """
    if not match.confirmed or match.result_kind == ResultKind.PENDING:
        return None
    kind = match.result_kind
    if kind == ResultKind.BYE:
        return MatchResult.bye(round_number, match.team_a_id)
    if kind == ResultKind.MISSED_ROUND:
        return MatchResult.missed_round(round_number, match.team_a_id)
    if kind == ResultKind.DOUBLE_LOSS:
        return MatchResult.double_loss(round_number, match.team_a_id, match.team_b_id)
    if kind == ResultKind.MATCH_LOSS:
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


def report_entry(row: ResultReport) -> Entry:
    """A stored report as the result state machine reads it."""
    return Entry(
        source=EntrySource(row.source),
        side=TeamSide(row.side) if row.side else None,
        a_wins=row.team_a_wins,
        b_wins=row.team_b_wins,
        draws=row.draws,
        reason=row.reason,
        author=row.author_id,
        at=row.created_at,
    )


def match_result_state(match: Match) -> ResultState:
    """The match's result state, recomputed from its stored reports (one query)."""
    rows = ResultReport.objects.filter(match=match).order_by("id")
    return derive((report_entry(row) for row in rows), games_per_match=match.round.tournament.games_per_match)


def result_columns(state: ResultState) -> dict[str, Any]:
    """The ``Match`` result columns (the cache) that ``state`` gives."""
    result = state.result
    return {
        "result_kind": result.kind,
        "team_a_wins": result.a_wins,
        "team_b_wins": result.b_wins,
        "draws": result.draws,
        "confirmed": result.confirmed,
        "disputed": result.disputed,
        "reported_side": result.side or "",
        "reported_by_id": result.author,
        "reported_at": result.at,
    }


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
    left out, so "standings after round N" is what was true then. Once a day-2 round is paired
    (``day_two``), the teams below the cut are ``eliminated``.
    """
    if teams is None:
        teams = list(Team.objects.filter(tournament=tournament).formed().order_by("id"))
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
    latest_round = 0
    for number, a, b, a_wins, b_wins, draws, kind, confirmed in matches:
        latest_round = max(latest_round, number)
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
    state = EventState(
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
    cut = state.settings.day_two
    if cut is not None and cut.applies_to(latest_round):
        state = with_day_two_cut(state)
    return state


def pairing_state(tournament: Tournament, number: int) -> EventState:
    """The event as the pairing of round ``number`` sees it: in a day-2 round, with the teams
    below the cut eliminated (the cut is made when its first round is paired)."""
    state = event_state_for(tournament)
    cut = state.settings.day_two
    if cut is not None and cut.applies_to(number):
        state = with_day_two_cut(state)
    return state


def draft_team_ids(tournament: Tournament) -> list[int]:
    """The teams the event's next draft seats: those the next Swiss round would pair (not
    dropped, disqualified, forming, or cut at day 2)."""
    number = (
        Round.objects.filter(tournament=tournament, kind=RoundKind.SWISS).aggregate(last=Max("number"))[
            "last"
        ]
        or 0
    ) + 1
    return pairing_state(tournament, number).active_teams(number)


@dataclass(frozen=True)
class PodWarning:
    """Pods the next draft would seat that force rematches in the Swiss rounds left."""

    teams: int
    sizes: tuple[int, ...]
    too_small: tuple[int, ...]
    rounds: int

    @property
    def message(self) -> str:
        """What the organizer reads before seating, with what the rules allow instead."""
        return _(
            "%(teams)s teams make pods of %(sizes)s teams, and a pod of %(small)s teams cannot play the "
            "%(rounds)s Swiss rounds left without rematches. The rules allow one pod of all %(teams)s "
            "teams, or cross-pod pairing at Regular REL (announced in the settings)."
        ) % {
            "teams": self.teams,
            "sizes": " + ".join(str(size) for size in self.sizes),
            "small": min(self.too_small),
            "rounds": self.rounds,
        }


def pod_rematch_warning(tournament: Tournament, teams: int) -> PodWarning | None:
    """What to tell the organizer before seating ``teams`` teams in pods, if a pod would be too
    small for the Swiss rounds left (MTR 7.6: play stays in the pod, unless cross-pod pairing is
    announced at Regular REL, which needs no warning); nothing right after a draft is seated."""
    if tournament.format != Format.DRAFT or (tournament.cross_pod_pairing and tournament.rel == Rel.REGULAR):
        return None
    played = Round.objects.filter(tournament=tournament, kind=RoundKind.SWISS).count()
    if DraftPod.objects.filter(tournament=tournament, seated_after_round=played).exists():
        return None  # a draft was just seated for the rounds to come
    total = tournament.swiss_rounds
    if total is None:
        try:
            total = recommended_rounds(
                teams,
                team_event=tournament.is_team_event,
                booster_draft_playoff=tournament.booster_draft_playoff,
            ).swiss_rounds
        except PlayoffError:
            return None
    sizes = tuple(pod_sizes(teams, team_size=tournament.team_size))
    too_small = tuple(forced_rematch_pods(sizes, total - played, team_size=tournament.team_size))
    if not too_small:
        return None
    return PodWarning(teams, sizes, too_small, total - played)


def teams_without_decklists(tournament: Tournament) -> list[Team]:
    """At Competitive and Professional REL every player registers a decklist before play (MTR
    2.7): the active teams still missing one, by name, for the warning before a Swiss round is
    paired (the manage page and the pairing API's answer). Empty at Regular REL and in the playoff."""
    if tournament.rel not in (Rel.COMPETITIVE, Rel.PROFESSIONAL) or tournament.status in (
        TournamentStatus.TOP_CUT,
        TournamentStatus.FINISHED,
    ):
        return []
    return list(Team.objects.filter(pk__in=teams_without_lists(tournament.pk)).order_by("name"))


def chart_size_for(tournament: Tournament) -> int:
    """The event's size for the MTR round chart: its active teams, awarded-bye holders counted 2/4/8."""
    return chart_size(
        Team.objects.filter(tournament=tournament, dropped_after_round__isnull=True, disqualified=False)
        .formed()
        .values_list("awarded_byes", flat=True)
    )


def teams_for(tournament: Tournament, *, team_id: int | None = None) -> QuerySet[Team]:
    """Teams with their players (two queries); ``team_id`` narrows to one team (a player's view)."""
    teams = (
        Team.objects.filter(tournament=tournament)
        .select_related("tournament", "captain")
        .prefetch_related(
            Prefetch("players", queryset=Player.objects.select_related("user").order_by("position")),
            Prefetch(
                "invitations",
                queryset=TeamInvitation.objects.filter(status=InvitationStatus.PENDING).select_related(
                    "invitee"
                ),
                to_attr="pending_invitations",
            ),
        )
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


def invitations_for(user, tournament: Tournament) -> QuerySet[TeamInvitation]:
    """The invitations addressed to the player in this event, newest first."""
    return (
        TeamInvitation.objects.filter(tournament=tournament, invitee=user)
        .select_related("team", "invited_by", "invitee", "player")
        .order_by("-created_at", "-id")
    )


def pool_for(tournament: Tournament) -> QuerySet[PoolEntry]:
    """The partner pool, who joined first first."""
    return PoolEntry.objects.filter(tournament=tournament).select_related("user").order_by("created_at", "id")


@dataclass(frozen=True)
class ReportStatus:
    """A match's result as one team sees it while it is reported and confirmed (the floor's judge
    calls read it): ``state`` and each team's open report as stored rows, from
    ``domain.report_view``."""

    state: str
    ours: ResultReport | None
    theirs: ResultReport | None


def match_report_status(match: Match, side: TeamSide | str) -> ReportStatus:
    """The report status of ``match`` for team ``side`` (one query)."""
    rows = list(ResultReport.objects.filter(match=match).order_by("id"))
    entries = [report_entry(row) for row in rows]
    view = report_view(entries, TeamSide(side))
    row_of = {id(entry): row for entry, row in zip(entries, rows, strict=True)}
    return ReportStatus(str(view.state), row_of.get(id(view.ours)), row_of.get(id(view.theirs)))


def match_entries(matches: list[Match]) -> dict[int, list[Entry]]:
    """Each match's stored entries in the order they were made, as ``domain.report_view`` reads
    them (one query for any number of matches)."""
    entries: dict[int, list[Entry]] = {match.pk: [] for match in matches}
    for row in ResultReport.objects.filter(match__in=list(entries)).order_by("id"):
        entries[row.match_id].append(report_entry(row))
    return entries
