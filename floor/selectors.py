"""Reads of the floor app for the pages, the API and the PDFs (one view model each, shared)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q, QuerySet

from clock.selectors import round_clock_data
from decklists.models import DeckCheck
from decklists.selectors import teams_without_lists
from floor.domain.calls import (
    CallStatus,
    CallTimes,
    effective_status,
    response_times_by_judge,
    response_times_by_round,
)
from floor.domain.deck_checks import (
    Contenders,
    PlanTable,
    ProposedCheck,
    StandingsEntry,
    cut_contenders,
    plan_checks,
)
from floor.domain.zones import order_by_end
from floor.models import JudgeCall, Note, Zone
from tournaments.enums import ResultKind, RoundKind
from tournaments.models import Match, Round, Team, Tournament
from tournaments.standings import standings_for

# --- Judge calls ---------------------------------------------------------------------------


def _calls() -> QuerySet[JudgeCall]:
    return JudgeCall.objects.select_related(
        "match__round", "match__team_a", "match__team_b", "player", "claimed_by", "raised_by", "resolved_by"
    )


def call_status(call: JudgeCall) -> CallStatus:
    return effective_status(call.status, result_confirmed=call.match.confirmed)


def calls_for_event(tournament: Tournament, *, live_only: bool = False) -> list[JudgeCall]:
    """The event's calls, live ones first (oldest first: the longest wait on top), then the rest,
    newest first. Each call gets ``.effective_status`` and the ``.zone`` its table is in (or
    ``None``). Four queries whatever the number."""
    rows = list(_calls().filter(tournament=tournament).order_by("created_at", "id"))
    zones = list(Zone.objects.filter(tournament=tournament).order_by("first_table"))
    for call in rows:
        call.effective_status = call_status(call)
        call.zone = zone_of_table(zones, call.match.table)
    live = [c for c in rows if c.effective_status in (CallStatus.OPEN, CallStatus.CLAIMED)]
    if live_only:
        return live
    done = sorted(
        (c for c in rows if c.effective_status not in (CallStatus.OPEN, CallStatus.CLAIMED)),
        key=lambda c: (c.resolved_at or c.created_at, c.pk),
        reverse=True,
    )
    return live + done


def call_detail(call_id: int) -> JudgeCall | None:
    call = _calls().select_related("tournament").filter(pk=call_id).first()
    if call is not None:
        call.effective_status = call_status(call)
        zones = list(Zone.objects.filter(tournament=call.tournament_id).order_by("first_table"))
        call.zone = zone_of_table(zones, call.match.table)
    return call


def zone_of_table(zones: list[Zone], table: int | None) -> Zone | None:
    """The first zone (by first table) that holds ``table``."""
    return next((z for z in zones if table is not None and z.first_table <= table <= z.last_table), None)


def player_live_call(tournament: Tournament, *, user, match: Match | None) -> JudgeCall | None:
    """The user's own call at ``match`` that is still live, for "a judge is on the way"."""
    if match is None or not getattr(user, "is_authenticated", False):
        return None
    for call in _calls().filter(match=match, player__user=user).order_by("-created_at")[:1]:
        call.effective_status = call_status(call)
        if call.effective_status in (CallStatus.OPEN, CallStatus.CLAIMED):
            return call
    return None


def response_times(tournament: Tournament):
    """Call → claim → resolve times per judge and per round (for the head judge's page)."""
    times = [
        CallTimes(
            round_number=call.match.round.number,
            created_at=call.created_at,
            claimed_by=(call.claimed_by.get_full_name() or call.claimed_by.get_username())
            if call.claimed_by
            else None,
            claimed_at=call.claimed_at,
            resolved_at=call.resolved_at,
        )
        for call in _calls().filter(tournament=tournament)
    ]
    return response_times_by_judge(times), response_times_by_round(times)


# --- Zones and the end-of-round console ---------------------------------------------------


def zones_for(tournament: Tournament) -> list[Zone]:
    return list(Zone.objects.filter(tournament=tournament).prefetch_related("judges").order_by("first_table"))


@dataclass(frozen=True)
class OutstandingTable:
    """One table of a zone at the end of the round, as the console, the API and the sheet show it."""

    match: Match
    table: int
    ends_at: datetime | None
    extension_minutes: int
    time_up: bool
    time_called: bool
    extra_turns_total: int
    extra_turns_played: int
    active_team: str | None
    current_turn: int | None
    finished: bool
    result_in: bool


def end_of_round(round_row: Round, *, zone: Zone | None, now: datetime) -> list[OutstandingTable]:
    """The zone's tables without a confirmed result (still playing, or the slip not confirmed),
    ordered by their own end (round end + extensions), with their extra-turn counters; read
    through the clock's selectors, so every number is the clock's own. ``result_in``: a result
    was reported (waiting for the other team's confirmation or a scorekeeper's decision).
    ``zone`` None: every table."""
    data = round_clock_data(round_row, now=now)
    rows = {row.table: row for row in data.view.tables}
    tables = []
    for match in data.matches:
        if match.confirmed or (zone is not None and not zone.first_table <= match.table <= zone.last_table):
            continue
        row = rows[match.table]
        tables.append(
            OutstandingTable(
                match=match,
                table=match.table,
                ends_at=row.ends_at,
                extension_minutes=row.extension_minutes,
                time_up=row.time_up,
                time_called=row.time_called,
                extra_turns_total=row.extra_turns_total,
                extra_turns_played=row.extra_turns_played,
                active_team=str(row.active_team) if row.active_team else None,
                current_turn=row.current_turn.number if row.current_turn else None,
                finished=row.finished,
                result_in=match.has_result,
            )
        )
    return order_by_end(tables, table_of=lambda t: t.table, ends_at_of=lambda t: t.ends_at)


def zone_of_user(tournament: Tournament, user) -> Zone | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Zone.objects.filter(tournament=tournament, judges=user).order_by("first_table").first()


def current_round(tournament: Tournament) -> Round | None:
    """The latest paired round, for pages that open on "now"."""
    return Round.objects.filter(tournament=tournament).select_related("tournament").newest()


# --- Deck checks -------------------------------------------------------------------------


def checked_team_ids(tournament: Tournament) -> set[int]:
    """Teams whose decks were checked: every team at a table a deck check was started at (a check
    covers all the decks at the table, MTR 2.8 and 2HG practice)."""
    pairs = DeckCheck.objects.filter(tournament=tournament).values_list(
        "match__team_a_id", "match__team_b_id"
    )
    return {team for pair in pairs for team in pair if team is not None}


def deck_check_plan(round_row: Round, *, count: int) -> list[ProposedCheck]:
    """Tables to check among those still playing (no result reported: a finished table's decks
    are gone), never for a team without a registered list."""
    tournament = round_row.tournament
    tables = [
        PlanTable(match_id=pk, table=table, team_a=a, team_b=b)
        for pk, table, a, b in Match.objects.filter(
            round=round_row, table__isnull=False, team_b__isnull=False, result_kind=ResultKind.PENDING
        ).values_list("pk", "table", "team_a_id", "team_b_id")
    ]
    return plan_checks(
        tables,
        checked_teams=checked_team_ids(tournament),
        without_lists=teams_without_lists(tournament.pk),
        count=count,
        round_number=round_row.number,
        swiss_rounds=tournament.swiss_rounds or round_row.number,
        seed=round_row.seed,
    )


def deck_check_contenders(tournament: Tournament) -> Contenders:
    """Unchecked active teams that can still reach the top cut, from the standings after the last
    Swiss round whose results are all in; the rounds after it are the remaining ones. Teams cut
    at day 2 play no more and are not contenders."""
    finished = Round.objects.finished().filter(tournament=tournament, kind=RoundKind.SWISS).newest_number()
    lines = standings_for(tournament, through_round=finished) if finished else []
    active = dict(Team.objects.filter(tournament=tournament).values_list("pk", "dropped_after_round"))
    disqualified = set(
        Team.objects.filter(tournament=tournament, disqualified=True).values_list("pk", flat=True)
    )
    if lines:
        entries = [
            StandingsEntry(
                team_id=line.team_id,
                match_points=line.match_points,
                active=active.get(line.team_id) is None
                and line.team_id not in disqualified
                and not line.eliminated,
            )
            for line in lines
        ]
    else:
        entries = [
            StandingsEntry(team_id=pk, match_points=0, active=dropped is None and pk not in disqualified)
            for pk, dropped in sorted(active.items())
        ]
    swiss = tournament.swiss_rounds or finished
    return cut_contenders(
        entries,
        cut=tournament.top_cut or 0,
        remaining_rounds=max(0, swiss - finished),
        checked_teams=checked_team_ids(tournament),
    )


# --- Notes --------------------------------------------------------------------------------


def notes_for(
    tournament: Tournament,
    *,
    head_judge: bool,
    match_id: int | None = None,
    penalty_id: int | None = None,
    player_id: int | None = None,
    investigation_id: int | None = None,
) -> QuerySet[Note]:
    """The event's notes a judge may read (locked ones only for the head judge), oldest first.
    Callers check that the reader judges this event."""
    rows = Note.objects.filter(tournament=tournament).select_related("author", "locked_by")
    if not head_judge:
        rows = rows.filter(locked_at__isnull=True)
    filters = Q()
    if match_id is not None:
        filters &= Q(match_id=match_id)
    if penalty_id is not None:
        filters &= Q(penalty_id=penalty_id)
    if player_id is not None:
        filters &= Q(player_id=player_id)
    if investigation_id is not None:
        filters &= Q(investigation_id=investigation_id)
    return rows.filter(filters).order_by("created_at", "id")
