"""Context builders: the data of each printed document as plain, JSON-serialisable dicts.

Each builder reads through the selectors in a fixed number of queries, whatever the event's
size, and returns everything the template shows except the generation time, so that the
canonical JSON of the result identifies the content (``services.content_hash``).

The big documents are **pre-paginated** here: their templates print fixed-height pages, and the
number of rows per page is computed from the paper size (the same millimetres as
``static/pdf/print.css``). That keeps WeasyPrint's layout cheap (no table breaking across
pages, no column balancing) and lets ``common.pdf.render_pdf_chunks`` render page ranges in
parallel with each page already knowing its "Page X of Y".
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Callable, Sequence

from django.db.models import Prefetch
from django.utils import timezone

from clock.domain.end_of_round import additional_turns_for
from documents.enums import DocumentKind, Paper
from documents.textfit import ellipsize, fit_names, fits, wrap_two
from tournaments.domain.seating import seat_order
from tournaments.enums import MatchResultKind, RoundKind
from tournaments.models import Match, Player, Round, Team, Tournament
from tournaments.read_models import final_standings, is_final
from tournaments.selectors import matches_for_round, play_draw_choosers, standings_for

#: Usable page height in mm below the page header (paper height - margins - header), as in print.css.
_BODY_MM = {Paper.A4: 297 - 10 - 16 - 17, Paper.LETTER: 279.4 - 10 - 16 - 17}
#: Row heights in mm, as in print.css.
_NAME_ROW_MM = 8
_TABLE_ROW_MM = 12
_STANDINGS_ROW_MM = 6.5
#: Result slip height in mm, as in print.css: the offset of the second slip's form on a page.
_SLIP_MM = {Paper.A4: 135.5, Paper.LETTER: 126.7}
_PT_PER_MM = 72 / 25.4
_NAME_COLUMNS = 2
#: Column widths in mm and font sizes in pt of the lines that carry names, as in print.css: the
#: names are shortened to fit them (``documents.textfit``), never the points or seats after them.
_TABLE_TEAM = {"A": 82, "B": 84}
_TABLE_TEAM_PT = 10.5
_TABLE_PLAYERS_PT = 8.5
_BYNAME_HEAD_MM, _BYNAME_HEAD_PT = 95, 12
_BYNAME_DETAIL_MM, _BYNAME_DETAIL_PT = 79, 7.5
_STANDINGS_TEAM_MM, _STANDINGS_PLAYERS_MM, _STANDINGS_PT = 48, 58, 8.5
#: Slip team line: one line at 10 pt, else two at 8 pt (``.slip-team-name.two``).
_SLIP_TEAM_MM, _SLIP_TEAM_PT, _SLIP_TEAM_SMALL_PT = 88, 10, 8
#: Slip roster lines: the largest size at which the longest line fits, smallest last.
_SLIP_ROSTER_MM, _SLIP_ROSTER_PTS = 70, (9, 8, 7)
_SLIP_SIGN_MM, _SLIP_SIGN_PT = 44, 7
#: Playoff slips: who chooses to play or draw, one 9 pt line across the slip (result_slips.html).
_SLIP_CHOOSER_MM, _SLIP_CHOOSER_PT = 188, 9
#: The header's event line (``.doc-event`` in print.css, 9 pt): the page width inside the margins.
_HEAD_EVENT_MM, _HEAD_EVENT_PT = {Paper.A4: 210 - 16, Paper.LETTER: 215.9 - 16}, 9
#: The footer's left box (``@bottom-left`` in print.css) at 7.5 pt.
_FOOT_EVENT_MM, _FOOT_PT = 71, 7.5
#: Pads table numbers to a common width; DejaVu's digits are as wide as this space.
FIGURE_SPACE = "\u2007"


def _when(moment: datetime.datetime) -> str:
    """A stored time as people at the event read it: ``21 Nov 2026 10:01`` in ``TIME_ZONE``."""
    local = timezone.localtime(moment)
    return f"{local.day} {local:%b %Y %H:%M}"


def _rows_per_page(paper: str, row_mm: float, header_mm: float = 0) -> int:
    return math.floor((_BODY_MM[Paper(paper)] - header_mm) / row_mm)


def _team_line(team: dict, side: str) -> str:
    return fit_names(
        f"{{}}  ({team['points']} pts)", [team["name"]], _TABLE_TEAM[side], _TABLE_TEAM_PT, bold=True
    )


def _players_line(team: dict, side: str) -> str:
    """Both players on one line, the primary marked; only the names are shortened."""
    marks = [("► " if p["primary"] else "").replace("{", "{{") for p in team["players"]]
    template = "  ·  ".join(f"{mark}{{}}" for mark in marks)
    names = [p["name"] for p in team["players"]]
    return fit_names(template, names, _TABLE_TEAM[side], _TABLE_PLAYERS_PT)


def last_first(name: str) -> str:
    """``"Ann Marie Lee"`` → ``"Lee, Ann Marie"``: how pairings by name are posted."""
    parts = name.split()
    return f"{parts[-1]}, {' '.join(parts[:-1])}" if len(parts) > 1 else name


def _paginate(items: Sequence, per_page: int) -> list[list]:
    return [list(items[i : i + per_page]) for i in range(0, len(items), per_page)] or [[]]


def _numbered(pages: list[dict]) -> list[dict]:
    total = len(pages)
    for number, page in enumerate(pages, start=1):
        page["label"] = f"Page {number} of {total}"
    return pages


def _event(tournament: Tournament) -> dict:
    return {
        "id": tournament.id,
        "name": tournament.name,
        "date": tournament.date.isoformat() if tournament.date else "",
        "venue": tournament.venue,
        "format": tournament.get_format_display(),
        "rel": tournament.get_rel_display(),
    }


def _round(round_obj: Round | None) -> dict | None:
    if round_obj is None:
        return None
    label = f"Round {round_obj.number}"
    if round_obj.kind == RoundKind.PLAYOFF:
        label += " (playoff)"
    return {"number": round_obj.number, "kind": round_obj.kind, "label": label}


def _points_before(tournament: Tournament, round_obj: Round) -> dict[int, int]:
    """Team match points before the round (all zero in round 1, no query)."""
    if round_obj.number == 1:
        return {}
    return {
        line.team_id: line.match_points
        for line in standings_for(tournament, through_round=round_obj.number - 1)
    }


def _seated(match: Match, side: str, team_players: list[Player]) -> list[Player]:
    """The team's players in seat order, primary first: the match's seats if recorded, else
    registration order (the team may still swap before play, MTR 9.4)."""
    recorded = match.seats.get(side) if isinstance(match.seats, dict) else None
    return seat_order(team_players, recorded, member_id=lambda p: p.id, position=lambda p: p.position)


def _round_matches(tournament: Tournament, round_obj: Round) -> tuple[list[Match], dict[int, list[Player]]]:
    """The round's matches (by table, byes last) and every team's players: two queries."""
    matches = list(matches_for_round(round_obj))
    players: dict[int, list[Player]] = {}
    for player in Player.objects.filter(tournament=tournament).order_by("team_id", "position", "id"):
        players.setdefault(player.team_id, []).append(player)
    return matches, players


def _team_side(match: Match, side: str, team: Team, players: dict, points: dict) -> dict:
    seated = _seated(match, side, players.get(team.id, []))
    return {
        "id": team.id,
        "name": team.name,
        "points": points.get(team.id, 0),
        "players": [
            {"id": p.id, "name": p.name, "wizards_id": p.wizards_id, "primary": i == 0}
            for i, p in enumerate(seated)
        ],
    }


def _header(tournament: Tournament, round_obj: Round | None, kind: str, paper: str) -> dict:
    round_info = _round(round_obj)
    round_part = f" · {round_info['label']}" if round_info else ""
    return {
        "kind": kind,
        "title": DocumentKind(kind).label,
        "paper": paper,
        "event": _event(tournament),
        "round": round_info,
        # The footer's left box is fixed-width: the event name gives way, the round stays.
        "foot": fit_names("{}" + round_part, [tournament.name], _FOOT_EVENT_MM, _FOOT_PT),
    }


def pairings_by_table(tournament: Tournament, round_obj: Round, paper: str) -> dict:
    """Table → team A (players, primary marked, points) vs team B; the bye last as "BYE (3 pts)"."""
    matches, players = _round_matches(tournament, round_obj)
    points = _points_before(tournament, round_obj)
    rows = []
    for match in matches:
        team_a = _team_side(match, "A", match.team_a, players, points)
        if match.team_b is None:
            label = "BYE (3 pts)" if match.result_kind == MatchResultKind.BYE else "No match (missed round)"
            rows.append({"table": "BYE", "a": team_a, "b": None, "bye_label": label})
        else:
            team_b = _team_side(match, "B", match.team_b, players, points)
            rows.append({"table": str(match.table), "a": team_a, "b": team_b, "bye_label": ""})
    per_page = _rows_per_page(paper, _TABLE_ROW_MM, header_mm=6)
    pages = []
    for chunk in _paginate(rows, per_page):
        pages.append(
            {
                "tables": "\n".join(row["table"] for row in chunk),
                "a_names": "\n".join(_team_line(r["a"], "A") for r in chunk),
                "a_players": "\n".join(_players_line(r["a"], "A") for r in chunk),
                "b_names": "\n".join(_team_line(r["b"], "B") if r["b"] else r["bye_label"] for r in chunk),
                "b_players": "\n".join(_players_line(r["b"], "B") if r["b"] else "" for r in chunk),
                "rows": len(chunk),
            }
        )
    return {
        **_header(tournament, round_obj, DocumentKind.PAIRINGS_BY_TABLE, paper),
        "pages": _numbered(pages),
    }


def pairings_by_name(tournament: Tournament, round_obj: Round, paper: str) -> dict:
    """Every player of the round by last name: table, name, team, opponents and points before it.

    Posted on a wall, so names and tables are large; each page holds two columns filled top
    to bottom, left to right, as players scan them.
    """
    matches, players = _round_matches(tournament, round_obj)
    points = _points_before(tournament, round_obj)
    entries = []
    for match in matches:
        sides = (
            [(match.team_a, match.team_b), (match.team_b, match.team_a)]
            if match.team_b
            else [(match.team_a, None)]
        )
        for team, opponent in sides:
            pts = f" · {points.get(team.id, 0)} pts · "
            if opponent is None:
                against = (
                    "BYE (3 pts)" if match.result_kind == MatchResultKind.BYE else "no match (missed round)"
                )
                detail = fit_names("{}" + pts + against, [team.name], _BYNAME_DETAIL_MM, _BYNAME_DETAIL_PT)
            else:
                surnames = [last_first(p.name).split(",")[0] for p in players.get(opponent.id, [])]
                template = "{}" + pts + "vs {} (" + ", ".join("{}" for _ in surnames) + ")"
                # The opponents matter most to a player at the wall: their own team's name gives
                # way first, then the opponent team's, the surnames last.
                detail = fit_names(
                    template,
                    [team.name, opponent.name, *surnames],
                    _BYNAME_DETAIL_MM,
                    _BYNAME_DETAIL_PT,
                    floors=[4, 6, *(len(surname) for surname in surnames)],
                )
            for player in players.get(team.id, []):
                entries.append(
                    {
                        "key": [player.last_name_key, player.name.casefold(), player.id],
                        "table": str(match.table) if match.table is not None else "BYE",
                        "name": last_first(player.name),
                        "detail": detail,
                    }
                )
    entries.sort(key=lambda e: e["key"])
    rows = _rows_per_page(paper, _NAME_ROW_MM)
    pages = []
    for chunk in _paginate(entries, rows * _NAME_COLUMNS):
        columns = []
        for c in range(_NAME_COLUMNS):
            column = chunk[c * rows : (c + 1) * rows]
            if not column:
                break
            columns.append(
                {
                    "heads": "\n".join(
                        fit_names(
                            e["table"].rjust(4, FIGURE_SPACE) + "  {}",
                            [e["name"]],
                            _BYNAME_HEAD_MM,
                            _BYNAME_HEAD_PT,
                            bold=True,
                        )
                        for e in column
                    ),
                    "details": "\n".join(e["detail"] for e in column),
                    "first": column[0]["name"][:3],
                    "last": column[-1]["name"][:3],
                    "rows": len(column),
                }
            )
        pages.append(
            {"columns": columns, "range": f"{columns[0]['first']} – {columns[-1]['last']}" if columns else ""}
        )
    return {**_header(tournament, round_obj, DocumentKind.PAIRINGS_BY_NAME, paper), "pages": _numbered(pages)}


def slip_order(items: Sequence, per_page: int = 2) -> list[list]:
    """Pages of ``per_page`` slips such that cutting the stack and stacking the cuts keeps order.

    With N slips on P = ceil(N / per_page) pages, page i holds slips i, i + P, i + 2P, ...: the
    top halves of the stack are slips 1..P in order, the bottom halves P+1..N.
    """
    pages_count = max(1, math.ceil(len(items) / per_page))
    return [
        [items[i + k * pages_count] for k in range(per_page) if i + k * pages_count < len(items)]
        for i in range(pages_count)
    ]


def _slip_team_title(label: str, team: dict) -> tuple[str, int]:
    """``Team A: name (N pts)`` on one line at 10 pt, else wrapped on two smaller lines."""
    text, tail = f"Team {label}: {team['name']}", f" ({team['points']} pts)"
    if fits(text + tail, _SLIP_TEAM_MM, _SLIP_TEAM_PT, bold=True):
        return text + tail, 1
    lines = wrap_two(text, _SLIP_TEAM_MM, _SLIP_TEAM_SMALL_PT, bold=True, tail=tail)
    return "\n".join(lines), len(lines)


def _slip_roster(team: dict) -> tuple[str, int]:
    """The players with their seats, at the largest size where every line fits whole; at the
    smallest, long names are shortened so the seat note always shows."""
    templates = [
        "► {} (primary, right)" if p["primary"] else "   {} (secondary, left)" for p in team["players"]
    ]
    names = [p["name"] for p in team["players"]]
    for size in _SLIP_ROSTER_PTS:
        lines = [t.format(n) for t, n in zip(templates, names, strict=True)]
        if all(fits(line, _SLIP_ROSTER_MM, size) for line in lines):
            return "\n".join(lines), size
    size = _SLIP_ROSTER_PTS[-1]
    lines = [fit_names(t, [n], _SLIP_ROSTER_MM, size) for t, n in zip(templates, names, strict=True)]
    return "\n".join(lines), size


def end_of_round_turn_boxes(team_size: int) -> str:
    """The slip's end-of-round tracker: turn 0 for the active side, then the event's additional
    turns alternating (five one-versus-one, three in 2HG: MTR 2.4)."""
    side = "player" if team_size == 1 else "team"
    turns = [f"0 ☐ active {side}"]
    turns += [
        f"{n} ☐ {'other' if n % 2 else 'active'}" for n in range(1, additional_turns_for(team_size) + 1)
    ]
    return "   ".join(turns)


def result_slips(tournament: Tournament, round_obj: Round, paper: str) -> dict:
    """One slip per table (byes have none), two per page in cut-stack order (``slip_order``).

    What every slip prints alike (labels, boxes, lines, the footer) is laid out once as
    ``forms`` and drawn under each page (``common.pdf.Underlay``); the pages lay out only the
    text that differs, a third of a full slip's line boxes. A form depends on how many players
    each team has (a drop box and a signature line each), so each page names the form under each
    of its slips, and ``underlay`` says where: form page 0 is the footer, the rest one per shape.
    The names under the signature lines are one line per slip, tab-separated (the stylesheet's
    tab stops are the lines' spacing): four floats per slip took 30% of a page's layout.
    A playoff slip also names the team that chooses to play or draw (``play_draw_choosers``).
    """
    matches, players = _round_matches(tournament, round_obj)
    points = _points_before(tournament, round_obj)
    choosers = play_draw_choosers(round_obj)
    slips = []
    for match in matches:
        if match.team_b is None:
            continue
        a = _team_side(match, "A", match.team_a, players, points)
        b = _team_side(match, "B", match.team_b, players, points)
        for label, team in (("A", a), ("B", b)):
            team["title"], team["title_lines"] = _slip_team_title(label, team)
            team["roster"], team["roster_pt"] = _slip_roster(team)
        names = [ellipsize(p["name"], _SLIP_SIGN_MM, _SLIP_SIGN_PT) for p in a["players"] + b["players"]]
        slip = {"table": match.table, "a": a, "b": b, "sign_names": "\t".join(names)}
        chooser = next((team["name"] for team in (a, b) if team["id"] == choosers.get(match.id)), None)
        if chooser is not None:  # playoff slips only: Swiss slips keep their content (and hash)
            slip["chooser"] = fit_names(
                "Chooses play or draw: {}", [chooser], _SLIP_CHOOSER_MM, _SLIP_CHOOSER_PT
            )
        slips.append(slip)
    shapes: dict[tuple[int, int], int] = {}
    for slip in slips:
        shapes.setdefault((len(slip["a"]["players"]), len(slip["b"]["players"])), len(shapes) + 1)
    slip_pt = _SLIP_MM[Paper(paper)] * _PT_PER_MM
    pages = [{"slips": page} for page in slip_order(slips)]
    underlay = [
        [[0, 0]]
        + [
            [shapes[len(slip["a"]["players"]), len(slip["b"]["players"])], round(-k * slip_pt, 3)]
            for k, slip in enumerate(page["slips"])
        ]
        for page in pages
    ]
    return {
        **_header(tournament, round_obj, DocumentKind.RESULT_SLIPS, paper),
        "allow_draw": round_obj.kind == RoundKind.SWISS,
        "turn_boxes": end_of_round_turn_boxes(tournament.team_size),
        "forms": [
            {"drops_a": "☐ Drop\n" * a, "drops_b": "☐ Drop\n" * b, "signs": [""] * (a + b)} for a, b in shapes
        ],
        "underlay": underlay,
        "pages": _numbered(pages),
    }


def standings(tournament: Tournament, round_obj: Round, paper: str) -> dict:
    """Standings through ``round_obj`` with the event's tiebreakers (MP, OMW% for 2HG).

    For the final (``is_final``) these are the event's final standings: places from the playoff
    (``playoff_order``), then everyone else in Swiss order; the other columns stay the Swiss ones.
    """
    final = is_final(round_obj)
    if final:
        lines = final_standings(tournament, round_obj)
    else:
        lines = standings_for(tournament, through_round=round_obj.number)
    tiebreakers = [
        name for name in (tournament.tiebreakers or ["match_points", "omw"]) if name != "match_points"
    ]
    last_swiss = tournament.swiss_rounds and round_obj.number >= tournament.swiss_rounds
    if final:
        heading = "Final standings: playoff places, then Swiss order"
    elif last_swiss and round_obj.is_finished:
        heading = f"Final standings after round {round_obj.number}"
    else:
        heading = f"Standings after round {round_obj.number}"
    per_page = _rows_per_page(paper, _STANDINGS_ROW_MM, header_mm=7)
    pages = []
    for chunk in _paginate(lines, per_page):
        pages.append(
            {
                "rank": "\n".join(str(line.rank) for line in chunk),
                "team": "\n".join(
                    fit_names(
                        "{}" + (" (dropped)" if line.dropped else ""),
                        [line.team_name],
                        _STANDINGS_TEAM_MM,
                        _STANDINGS_PT,
                        bold=True,
                    )
                    for line in chunk
                ),
                "players": "\n".join(
                    fit_names(
                        " · ".join("{}" for _ in line.players),
                        list(line.players),
                        _STANDINGS_PLAYERS_MM,
                        _STANDINGS_PT,
                    )
                    for line in chunk
                ),
                "record": "\n".join(f"{line.wins}-{line.losses}-{line.draws}" for line in chunk),
                "points": "\n".join(str(line.match_points) for line in chunk),
                "penalty": "\n".join(
                    str(line.penalty_points) if line.penalty_points else "" for line in chunk
                ),
                "tiebreakers": [
                    {"name": name, "values": "\n".join(f"{getattr(line, name) * 100:.2f}" for line in chunk)}
                    for name in tiebreakers
                ],
                "rows": len(chunk),
            }
        )
    return {
        **_header(tournament, round_obj, DocumentKind.STANDINGS, paper),
        # One line across the page: the event name and venue give way, the heading stays whole.
        "event_line": fit_names(
            "{}"
            + (f" · {tournament.date.isoformat()}" if tournament.date else "")
            + (" · {}" if tournament.venue else "")
            + f" · {heading}",
            [tournament.name, *([tournament.venue] if tournament.venue else [])],
            _HEAD_EVENT_MM[paper],
            _HEAD_EVENT_PT,
        ),
        "final": final,
        "heading": heading,
        "tiebreaker_labels": {"omw": "OMW%", "gw": "GW%", "ogw": "OGW%"},
        "pages": _numbered(pages),
    }


def decklists(tournament: Tournament, round_obj: Round | None, paper: str) -> dict:
    """Per team: the team sheet and each player's registered list (current version), as judges
    file them, one team per page in team-name order. Three queries."""
    from decklists.models import Decklist

    lists = {d.player_id: d for d in Decklist.objects.filter(tournament=tournament).select_related("current")}
    teams = []
    for team in (
        Team.objects.filter(tournament=tournament)
        .order_by("name")
        .prefetch_related(Prefetch("players", queryset=Player.objects.order_by("position", "id")))
    ):
        members = []
        for index, player in enumerate(team.players.all()):
            decklist = lists.get(player.id)
            version = decklist.current if decklist else None
            cards = version.cards if version else []
            main = [c for c in cards if c.get("section", "main") != "sideboard"]
            members.append(
                {
                    "seat": chr(ord("A") + index),
                    "name": player.name,
                    "wizards_id": player.wizards_id,
                    "legacy_dci": player.legacy_dci,
                    "version": version.number if version else None,
                    "submitted_at": _when(version.created_at) if version else "",
                    "valid": version.valid if version else None,
                    "cards": [{"count": c.get("count", 0), "name": c.get("name") or "?"} for c in main],
                    "total": sum(int(c.get("count", 0)) for c in main),
                }
            )
        teams.append({"name": team.name, "players": members})
    return {**_header(tournament, round_obj, DocumentKind.DECKLISTS, paper), "teams": teams}


def penalties(tournament: Tournament, round_obj: Round | None, paper: str) -> dict:
    """Every penalty of the event for the judge program, oldest first, overturned ones marked
    (an appeal upheld), deviations with the head judge's reason. One query."""
    from penalties.models import Penalty

    rows = []
    for penalty in (
        Penalty.objects.filter(tournament=tournament)
        .select_related("round", "match", "player", "team", "judge", "overturned_by")
        .order_by("created_at", "id")
    ):
        rows.append(
            {
                "round": penalty.round.number,
                "table": penalty.match.table if penalty.match and penalty.match.table else "",
                "player": last_first(penalty.player.name),
                "wizards_id": penalty.player.wizards_id,
                "team": penalty.team.name,
                "infraction": penalty.get_infraction_display(),
                "penalty": penalty.get_penalty_display(),
                "upgraded": penalty.upgraded,
                "judge": penalty.judge.get_full_name() or penalty.judge.get_username(),
                "time": _when(penalty.created_at),
                "description": penalty.description,
                "deviated": penalty.deviated,
                "deviation_reason": penalty.deviation_reason,
                "overturned": penalty.overturned,
                "overturn_reason": penalty.overturn_reason,
                "overturned_by": (
                    penalty.overturned_by.get_full_name() or penalty.overturned_by.get_username()
                    if penalty.overturned_by
                    else ""
                ),
            }
        )
    return {**_header(tournament, round_obj, DocumentKind.PENALTIES, paper), "penalties": rows}


def pod_seatings(tournament: Tournament, round_obj: Round | None, paper: str) -> dict:
    """The latest Booster Draft's pods: every player's seat, teammates side by side (a team's
    players take neighbouring seats, in registration order). Two queries."""
    from tournaments.models import DraftPod

    pods = list(DraftPod.objects.filter(tournament=tournament).order_by("-draft", "number"))
    draft = pods[0].draft if pods else None
    pods = sorted((pod for pod in pods if pod.draft == draft), key=lambda pod: pod.number)
    teams = {team.id: team for team in Team.objects.filter(tournament=tournament).prefetch_related("players")}
    rows = []
    for pod in pods:
        seats = []
        for team_id in pod.team_ids:
            team = teams.get(team_id)
            members = sorted(team.players.all(), key=lambda p: (p.position, p.id)) if team else []
            for player in members:
                seats.append({"seat": len(seats) + 1, "team": team.name, "player": player.name})
        rows.append({"number": pod.number, "seats": seats})
    return {**_header(tournament, round_obj, DocumentKind.POD_SEATINGS, paper), "draft": draft, "pods": rows}


BUILDERS: dict[str, Callable[[Tournament, Round | None, str], dict]] = {
    DocumentKind.PAIRINGS_BY_TABLE: pairings_by_table,
    DocumentKind.PAIRINGS_BY_NAME: pairings_by_name,
    DocumentKind.RESULT_SLIPS: result_slips,
    DocumentKind.STANDINGS: standings,
    DocumentKind.DECKLISTS: decklists,
    DocumentKind.PENALTIES: penalties,
    DocumentKind.POD_SEATINGS: pod_seatings,
}

TEMPLATES = {kind: f"pdf/{kind}.html" for kind in BUILDERS}
#: Documents whose repeated parts are laid out once and drawn under every page (``common.pdf.Underlay``):
#: the template renders the form pages, the context's ``underlay`` places them.
FORM_TEMPLATES = {DocumentKind.RESULT_SLIPS: "pdf/result_slip_forms.html"}
