"""The pages everyone reads at a big event, light enough for a hall of phones.

The event page is "find my table": a name search (server-side, works without JavaScript) that
answers with the player's table, seats, opponents and their team's record. The full pairings are
split like the printed sheets, by table range and by name range (A–F, G–L ...), the standings are
paginated, and the projector shows the pairings by name in scrolling columns. Every page here reads
the same rows as the printed documents (``tournaments.read_models``) and is served from the cache
once rendered (``page_cache.public_page``), until the event changes (``tournaments.live``).

Also here: the home page, and a round's and a team's pages (staff see an unpublished round at once).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from django.core.paginator import Paginator
from django.db.models import Q, Sum
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from common.numbers import BadParameter, parse_column_int
from tournaments.domain.text import fold
from tournaments.enums import RoundKind
from tournaments.live import generation, memoized
from tournaments.models import Match, Round, Team, TimeExtension, Tournament
from tournaments.page_cache import answered_early, public_page
from tournaments.pages.common import round_label
from tournaments.read_models import (
    NameRow,
    PairingRow,
    Side,
    final_standings,
    find_rows,
    finished_final,
    match_outcome,
    pairings_by_name,
    pairings_by_table,
    playoff_bracket_rounds,
    side_matches,
    standings_rows,
    standings_table,
)
from tournaments.rules import is_event_staff
from tournaments.selectors import round_detail, rounds_for, teams_for, tournaments_listed
from tournaments.standings import (
    DayTwoLine,
    StandingsLine,
    day_two_line,
    last_public_standings_round,
    standings_for,
)


def home(request):
    return render(request, "tournaments/home.html", {"tournaments": tournaments_listed()})


#: Up to this many tables, the event page lists the whole round (a store night) under the search.
INLINE_TABLES = 32


#: Up to this many teams, the event page shows the whole standings (and, before round 1, the teams).
INLINE_TEAMS = 64


#: Tables per page of the pairings by table (about 60 KB of HTML).
TABLES_PER_PAGE = 50


#: Name ranges of the pairings by name, as the printed sheets are posted.
NAME_RANGES = (("A", "F"), ("G", "L"), ("M", "R"), ("S", "Z"))


#: Players per page within a name range (a range of common initials is split further).
NAMES_PER_PAGE = 150


#: Rows per page of the standings.
STANDINGS_PER_PAGE = 100


#: Tables a name search shows at most (a common first name matches many).
FIND_LIMIT = 12


@dataclass(frozen=True)
class FoundSide:
    """One team of a found table with its record so far (``None`` before any result); ``yours``:
    the search named this team or one of its players."""

    side: Side
    record: StandingsLine | None
    yours: bool


@dataclass(frozen=True)
class FoundTable:
    """A table the search found, the reader's own team first (the side the search named, marked
    "you"), then the opponents."""

    row: PairingRow
    sides: list[FoundSide]
    #: Minutes of time extension the judges gave this table (0: none).
    extension_minutes: int = 0


def _table_rows(round_obj: Round) -> list[PairingRow]:
    return memoized(round_obj.tournament_id, f"pairings:{round_obj.pk}", lambda: pairings_by_table(round_obj))


def _records(tournament: Tournament) -> dict[int, StandingsLine]:
    """Each team's record with every confirmed result so far."""
    return memoized(
        tournament.pk, "records", lambda: {line.team_id: line for line in standings_for(tournament)}
    )


def _latest_public_round(tournament: Tournament) -> Round | None:
    return Round.objects.public().filter(tournament=tournament).newest()


def _round_or_404(tournament: Tournament, number: int | None) -> Round:
    rounds = Round.objects.public().filter(tournament=tournament)
    found = rounds.filter(number=number).first() if number else rounds.newest()
    if found is None:
        raise Http404(_("No published round to show for this event yet."))
    return found


def _table_ranges(rows: list[PairingRow]) -> list[tuple[int, int]]:
    tables = [row.table for row in rows if row.table is not None]
    if not tables:
        return []
    last = max(tables)
    return [(start, min(start + TABLES_PER_PAGE - 1, last)) for start in range(1, last + 1, TABLES_PER_PAGE)]


def _standings_lines(tournament: Tournament, final: Round | None) -> tuple[int, list[StandingsLine]]:
    """The standings the public sees: the final ones once the final is in, else after the last
    complete Swiss round (none before)."""

    def compute() -> tuple[int, list[StandingsLine]]:
        if final is not None:
            return final.number, final_standings(tournament, final)
        complete = last_public_standings_round(tournament)
        return complete, standings_for(tournament, through_round=complete) if complete else []

    return memoized(tournament.pk, f"standings:{final.pk if final else 0}", compute)


def _day_two(tournament: Tournament, standings_round: int) -> DayTwoLine | None:
    """The day-2 line for the standings shown (computed once per generation)."""
    return memoized(
        tournament.pk, f"day-two:{standings_round}", lambda: day_two_line(tournament, standings_round)
    )


def _found(tournament: Tournament, rows: list[PairingRow], q: str) -> list[FoundTable]:
    found = find_rows(rows, q)[:FIND_LIMIT]
    if not found:
        return []
    records = _records(tournament)
    extensions = dict(
        TimeExtension.objects.filter(match__in=[row.match for row in found if row.match])
        .values("match_id")
        .annotate(total=Sum("minutes"))
        .values_list("match_id", "total")
    )
    return [
        FoundTable(row, _found_sides(row, records, q), extensions.get(row.match.pk, 0) if row.match else 0)
        for row in found
    ]


def _found_sides(row: PairingRow, records: dict[int, StandingsLine], q: str) -> list[FoundSide]:
    """The table's teams, the one the search named first; when the search names both (or only the
    table), team A first and neither marked."""
    sides = [
        FoundSide(side, records.get(side.team.pk), side_matches(side, q))
        for side in (row.side_a, row.side_b)
        if side is not None
    ]
    if all(found.yours for found in sides):
        return [dataclasses.replace(found, yours=False) for found in sides]
    return sorted(sides, key=lambda found: not found.yours)


def _standing_of(team: Team, round_number: int) -> str:
    """Why a team the search found is not in the round on show, as its players read it."""
    if team.disqualified:
        return _("disqualified")
    if team.dropped_after_round == 0:
        reason = _(team.drop_reason) if team.drop_reason else ""
        return (
            _("dropped before round 1: %(reason)s") % {"reason": reason}
            if reason
            else _("dropped before round 1")
        )
    if team.dropped_after_round is not None:
        return _("dropped after round %(number)s") % {"number": team.dropped_after_round}
    if team.registered_after_round >= round_number:
        return _("late entry: paired from round %(number)s") % {"number": team.registered_after_round + 1}
    return _("not paired in round %(number)s") % {"number": round_number}


def _not_in_round(tournament: Tournament, round_number: int, rows: list[PairingRow], q: str) -> list[dict]:
    """Teams a search names that are not at a table of the round on show (dropped for not checking
    in, dropped, entered late): their players learn where they stand instead of "no match"."""
    needle = fold(q)
    seated = {row.side_a.team.pk for row in rows} | {row.side_b.team.pk for row in rows if row.side_b}
    found = []
    for team in Team.objects.filter(tournament=tournament).exclude(pk__in=seated).prefetch_related("players"):
        names = [team.name, *(player.name for player in team.players.all())]
        if needle and any(needle in fold(name) for name in names):
            found.append({"team": team, "standing": _standing_of(team, round_number)})
    return found[:FIND_LIMIT]


def _event_frame(tournament_id: int) -> dict:
    """What the event page shows whatever the search: the event, its final once played, the round
    on show, the bracket and the rounds so far (computed once per generation: ``memoized``)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return {
        "tournament": tournament,
        "final": finished_final(tournament),
        "shown_round": _latest_public_round(tournament),
        "bracket": playoff_bracket_rounds(tournament),
        "past_rounds": list(rounds_for(tournament, include_unpublished=False)),
        "team_count": tournament.teams.count(),
    }


@public_page(query=("q",))
def tournament_public(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Find my table: the search form first, the answer for ``?q=``; the whole round under it for a
    small event, links to the pairings by table and by name for a big one. Standings after the last
    complete Swiss round (inline for a small event); once the final's result is in, the winner, the
    final standings and the bracket. Unpublished pairings never appear."""
    frame = memoized(tournament_id, "event-frame", lambda: _event_frame(tournament_id))
    tournament, final, shown_round = frame["tournament"], frame["final"], frame["shown_round"]
    q = " ".join(request.GET.get("q", "").split())
    pairings = None
    if shown_round is not None and final is None:
        rows = _table_rows(shown_round)
        pairings = {
            "round": shown_round,
            "inline": len(rows) <= INLINE_TABLES and not q,
            "rows": rows if len(rows) <= INLINE_TABLES and not q else [],
            "found": _found(tournament, rows, q) if q else [],
            "more": max(0, len(find_rows(rows, q)) - FIND_LIMIT) if q else 0,
            "not_in_round": _not_in_round(tournament, shown_round.number, rows, q) if q else [],
            "table_ranges": _table_ranges(rows),
            "name_ranges": NAME_RANGES,
        }
    standings_round, lines = _standings_lines(tournament, final)
    day_two = _day_two(tournament, standings_round)
    standings = None
    if lines and (final is None or lines):
        standings = {
            "round_number": standings_round,
            **standings_table(tournament, lines if len(lines) <= INLINE_TEAMS else []),
            "count": len(lines),
        }
    final_context = None
    if final is not None:
        final_rows = standings_rows(lines[:2], tournament)
        final_context = {
            "round": final,
            **standings_table(tournament, lines[:INLINE_TEAMS]),
            "count": len(lines),
            "winner": final_rows[0] if final_rows else None,
            "finalist": final_rows[1] if len(final_rows) > 1 else None,
        }
        standings = None
    team_count = frame["team_count"] if shown_round is None else None
    context = {
        "tournament": tournament,
        "q": q,
        "final": final_context,
        "bracket": frame["bracket"],
        "pairings": pairings,
        "standings": standings,
        "day_two": day_two,
        "past_rounds": frame["past_rounds"],
        "team_count": team_count,
        "teams": teams_for(tournament) if team_count is not None and team_count <= INLINE_TEAMS * 4 else None,
    }
    return render(request, "tournaments/public.html", context)


def _parse_range(value: str, *, field: str) -> tuple[str, str]:
    first, _sep, last = value.partition("-")
    first, last = first.strip(), (last or first).strip()
    if not first or not last:
        raise BadParameter(
            field, _("give a range such as 1-50 or A-F, got %(value)r") % {"value": value[:40]}
        )
    return first, last


@public_page(query=("round", "names", "tables", "page"))
def pairings_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A published round's full pairings, one part at a time as the printed sheets: ``?tables=1-50``
    (by table, the default) or ``?names=A-F`` (by last name); ``?round=N`` for an earlier round."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    round_obj = _round_or_404(
        tournament, parse_column_int(request.GET.get("round"), Round, "number", param="round")
    )
    rows = _table_rows(round_obj)
    ranges = _table_ranges(rows)
    names = request.GET.get("names", "").upper()
    context: dict = {
        "tournament": tournament,
        "round": round_obj,
        "table_ranges": ranges,
        "name_ranges": NAME_RANGES,
        "by_name": bool(names),
    }
    if names:
        first, last = _parse_range(names, field="names")
        context["names"] = (first, last)
        by_name = memoized(tournament.pk, f"by-name:{round_obj.pk}", lambda: pairings_by_name(rows))
        in_range = [
            row for row in by_name if first <= row.initial <= last or row.initial == "#" and last == "Z"
        ]
        paginator = Paginator(in_range, NAMES_PER_PAGE)
        number = parse_column_int(request.GET.get("page"), Match, "table", param="page") or 1
        if number > max(1, paginator.num_pages):
            raise Http404(_("These names fill %(count)d pages.") % {"count": paginator.num_pages})
        context["page"] = paginator.page(number)
        context["name_rows"] = list(context["page"].object_list)
    else:
        tables = request.GET.get("tables", "")
        if tables:
            first_text, last_text = _parse_range(tables, field="tables")
            first_table = parse_column_int(first_text, Match, "table", param="tables") or 0
            last_table = parse_column_int(last_text, Match, "table", param="tables") or 0
        else:
            first_table, last_table = ranges[0] if ranges else (1, TABLES_PER_PAGE)
        context["tables"] = (first_table, last_table)
        is_last = not ranges or last_table >= ranges[-1][1]
        context["rows"] = [
            row
            for row in rows
            if (row.table is not None and first_table <= row.table <= last_table)
            or (row.table is None and is_last)
        ]
    return render(request, "tournaments/pairings.html", context)


@public_page(query=("q", "page"))
def standings_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The standings after the last complete Swiss round (the final standings once the final is
    in), 100 a page, with a search by team or player name (``?q=``)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    final = finished_final(tournament)
    round_number, lines = _standings_lines(tournament, final)
    q = " ".join(request.GET.get("q", "").split())
    if q:
        needle = fold(q)
        lines = [line for line in lines if needle in fold(" | ".join((line.team_name, *line.players)))]
    paginator = Paginator(lines, STANDINGS_PER_PAGE)
    number = parse_column_int(request.GET.get("page"), Match, "table", param="page") or 1
    if number > max(1, paginator.num_pages):
        raise Http404(_("The standings have %(count)d pages.") % {"count": paginator.num_pages})
    page = paginator.page(number)
    context = {
        "tournament": tournament,
        "final": final is not None,
        "q": q,
        "page": page,
        "standings": {"round_number": round_number, **standings_table(tournament, list(page.object_list))},
        "day_two": None if final else _day_two(tournament, round_number),
    }
    return render(request, "tournaments/standings.html", context)


@public_page
def pairings_projector(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The latest published round by player name, for a second screen: columns that scroll by
    themselves (static/js/projector_scroll.js), the page reloading its rows when the event changes."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    round_obj = _latest_public_round(tournament)
    rows: list[NameRow] = pairings_by_name(_table_rows(round_obj)) if round_obj else []
    per_column = max(1, math.ceil(len(rows) / max(1, math.ceil(len(rows) / 40))))
    context = {"tournament": tournament, "round": round_obj, "rows": rows, "per_column": per_column}
    return render(request, "tournaments/pairings_projector.html", context)


@answered_early
@require_GET
def event_generation(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """What open pages poll: the event's generation, answered 304 while it has not moved (one cache
    read, no database query, before most of the middleware), so a quiet hall of phones costs next
    to nothing."""
    current = generation(tournament_id)
    etag = f'"{current:x}"' if current is not None else None
    if etag is not None and request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        response = JsonResponse({"generation": str(current) if current is not None else None})
    if etag is not None:
        response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def _standings_context(tournament: Tournament, round_number: int) -> dict:
    return {
        "round_number": round_number,
        **standings_table(tournament, standings_for(tournament, through_round=round_number)),
    }


@public_page
def round_page(request, tournament_id: int, number: int):
    """One round's pairings and results, for everyone once it is published (staff: at once)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    staff = is_event_staff(request.user, tournament)
    round_obj = round_detail(tournament, number, include_unpublished=staff)
    if round_obj is None:
        raise Http404(
            _("Round %(number)s of this event is not published (or does not exist).") % {"number": number}
        )
    rows = pairings_by_table(round_obj)
    context = {
        "tournament": tournament,
        "round": round_obj,
        "round_label": round_label(tournament, round_obj),
        "rows": [(row, match_outcome(row.match)) for row in rows],
        "past_rounds": rounds_for(tournament, include_unpublished=staff),
        "standings": _standings_context(tournament, number)
        if round_obj.kind == RoundKind.SWISS and round_obj.is_finished
        else None,
    }
    return render(request, "tournaments/round.html", context)


@public_page
def team_page(request, tournament_id: int, team_id: int):
    """A team's players, record and every published match: opponents and results."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    team = get_object_or_404(teams_for(tournament), pk=team_id)
    staff = is_event_staff(request.user, tournament)
    matches = (
        Match.objects.filter(round__tournament=tournament)
        .filter(Q(team_a=team) | Q(team_b=team))
        .select_related("round", "team_a", "team_b")
        .order_by("round__number")
    )
    if not staff:
        matches = matches.public()
    rows = []
    for match in matches:
        outcome = match_outcome(match, for_team=team.pk)
        opponent = match.team_b if match.team_a_id == team.pk else match.team_a
        if opponent is None:
            verdict = _("Bye") if outcome.winner_id else _("Loss")
        elif not (match.has_result and match.confirmed):
            verdict = ""
        elif outcome.winner_id is None:
            verdict = _("Draw")
        else:
            verdict = _("Win") if outcome.winner_id == team.pk else _("Loss")
        rows.append({"match": match, "opponent": opponent, "outcome": outcome, "verdict": verdict})
    record = next((row for row in standings_for(tournament) if row.team_id == team.pk), None)
    context = {"tournament": tournament, "team": team, "rows": rows, "record": record, "is_staff": staff}
    return render(request, "tournaments/team.html", context)
