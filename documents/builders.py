"""Context builders: the data of each printed document as plain, JSON-serialisable dicts.

Each builder reads through the selectors in a fixed number of queries, whatever the event's
size, and returns everything the template shows except the generation time, so that the
canonical JSON of the result identifies the content (``services.content_hash``).

The big documents are **pre-paginated** here: their templates print fixed-height pages, and the
number of rows per page is computed from the paper size and the row heights of
``static/pdf/print.css``, read by ``documents.geometry``, as are the columns names are fitted to. That keeps WeasyPrint's layout cheap (no table breaking across
pages, no column balancing) and lets ``common.pdf.render_pdf_chunks`` render page ranges in
parallel with each page already knowing its "Page X of Y".

The result slips' builder and their QR codes live in ``documents.slips``, the header and the
parts every document shares in ``documents.parts``; the registry of every kind's builder, template,
forms and page drawings is here.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence

from django.db.models import Prefetch
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from documents.enums import DocumentKind
from documents.geometry import layout
from documents.parts import header, numbered, pts, team_side
from documents.slips import result_slips, slip_qr_drawings
from documents.textfit import fit_names
from tournaments import read_models
from tournaments.domain.text import last_first
from tournaments.enums import ResultKind
from tournaments.models import Player, Round, Team, Tournament
from tournaments.read_models import PairingRow, final_standings, is_final
from tournaments.standings import standings_for

_NAME_COLUMNS = 2
#: Pads table numbers to a common width; DejaVu's digits are as wide as this space.
FIGURE_SPACE = "\u2007"


def _when(moment: datetime.datetime) -> str:
    """A stored time as people at the event read it: ``21 Nov 2026 10:01`` in the event's zone
    and language (documents render in both)."""
    return date_format(timezone.localtime(moment), "j M Y H:i")


def _team_line(team: dict, side: str) -> str:
    box = layout().table_team[side]
    return fit_names("{}  (" + pts(team["points"]) + ")", [team["name"]], box.mm, box.pt, bold=True)


def _players_line(team: dict, side: str) -> str:
    """Both players on one line, the primary marked; only the names are shortened."""
    marks = [("► " if p["primary"] else "").replace("{", "{{") for p in team["players"]]
    template = "  ·  ".join(f"{mark}{{}}" for mark in marks)
    names = [p["name"] for p in team["players"]]
    box = layout().table_players[side]
    return fit_names(template, names, box.mm, box.pt)


def _paginate(items: Sequence, per_page: int) -> list[list]:
    return [list(items[i : i + per_page]) for i in range(0, len(items), per_page)] or [[]]


def _is_bye(row: PairingRow) -> bool:
    return row.match is not None and row.match.result_kind == ResultKind.BYE


def pairings_by_table(tournament: Tournament, round_obj: Round, paper: str) -> dict:
    """Table → team A (players, primary marked, points) vs team B; the bye last as "BYE (3 pts)".
    The rows are the public pairings page's (``read_models.pairings_by_table``)."""
    rows = []
    for row in read_models.pairings_by_table(round_obj):
        team_a = team_side(row.side_a)
        if row.side_b is None:
            label = _("BYE (3 pts)") if _is_bye(row) else _("No match (missed round)")
            rows.append({"table": _("BYE"), "a": team_a, "b": None, "bye_label": label})
        else:
            rows.append({"table": str(row.table), "a": team_a, "b": team_side(row.side_b), "bye_label": ""})
    per_page = layout().table_rows[paper]
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
        **header(tournament, round_obj, DocumentKind.PAIRINGS_BY_TABLE, paper),
        "pages": numbered(pages),
    }


def pairings_by_name(tournament: Tournament, round_obj: Round, paper: str) -> dict:
    """Every player of the round by last name: table, name, team, opponents and points before it.

    Posted on a wall, so names and tables are large; each page holds two columns filled top
    to bottom, left to right, as players scan them.
    """
    detail_box = layout().byname_detail
    entries = []
    details: dict[tuple[int, int | None], str] = {}
    for name_row in read_models.pairings_by_name(read_models.pairings_by_table(round_obj)):
        team, opponent = name_row.side, name_row.opponent
        key = (team.team.id, opponent.team.id if opponent else None)
        if key not in details:
            points = " · " + pts(team.match_points) + " · "
            if opponent is None:
                bye = name_row.match is not None and name_row.match.result_kind == ResultKind.BYE
                against = _("BYE (3 pts)") if bye else _("No match (missed round)")
                details[key] = fit_names(
                    "{}" + points + against, [team.team.name], detail_box.mm, detail_box.pt
                )
            else:
                registered = sorted(opponent.seats, key=lambda seat: (seat.player.position, seat.player.id))
                surnames = [last_first(seat.player.name).split(",")[0] for seat in registered]
                template = "{}" + points + _("vs") + " {} (" + ", ".join("{}" for _surname in surnames) + ")"
                # The opponents matter most to a player at the wall: their own team's name gives
                # way first, then the opponent team's, the surnames last.
                details[key] = fit_names(
                    template,
                    [team.team.name, opponent.team.name, *surnames],
                    detail_box.mm,
                    detail_box.pt,
                    floors=[4, 6, *(len(surname) for surname in surnames)],
                )
        entries.append(
            {
                "table": str(name_row.table) if name_row.table is not None else _("BYE"),
                "name": name_row.posted_name,
                "detail": details[key],
            }
        )
    rows, head_box = layout().name_rows[paper], layout().byname_head
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
                            head_box.mm,
                            head_box.pt,
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
    return {**header(tournament, round_obj, DocumentKind.PAIRINGS_BY_NAME, paper), "pages": numbered(pages)}


def standings(tournament: Tournament, round_obj: Round, paper: str) -> dict:
    """Standings through ``round_obj`` with the event's tiebreakers, the same rows and columns as
    the standings pages (``read_models.standings_rows``).

    For the final (``is_final``) these are the event's final standings: places from the playoff
    (``playoff_order``), then everyone else in Swiss order; the other columns stay the Swiss ones.
    A day-2 round's standings list the day-2 teams only (the others did not advance).
    """
    final = is_final(round_obj)
    if final:
        lines = final_standings(tournament, round_obj)
    else:
        lines = standings_for(tournament, through_round=round_obj.number)
        cut = tournament.cut_to_day_two
        if cut is not None and cut.applies_to(round_obj.number):
            lines = [line for line in lines if not line.eliminated]
    rows = read_models.standings_rows(lines, tournament)
    last_swiss = tournament.swiss_rounds and round_obj.number >= tournament.swiss_rounds
    if final:
        heading = _("Final standings: playoff places, then Swiss order")
    elif last_swiss and round_obj.is_finished:
        heading = _("Final standings after round %(number)s") % {"number": round_obj.number}
    else:
        heading = _("Standings after round %(number)s") % {"number": round_obj.number}
    geometry = layout()
    per_page = geometry.standings_rows[paper]
    dropped = " (" + _("dropped") + ")"
    pages = []
    for chunk in _paginate(rows, per_page):
        pages.append(
            {
                "rank": "\n".join(str(row["rank"]) for row in chunk),
                "team": "\n".join(
                    fit_names(
                        "{}" + (dropped if row["dropped"] else ""),
                        [row["team_name"]],
                        geometry.standings_team.mm,
                        geometry.standings_team.pt,
                        bold=True,
                    )
                    for row in chunk
                ),
                "players": "\n".join(
                    fit_names(
                        " · ".join("{}" for _player in row["players"]),
                        list(row["players"]),
                        geometry.standings_players.mm,
                        geometry.standings_players.pt,
                    )
                    for row in chunk
                ),
                "record": "\n".join(f"{row['wins']}-{row['losses']}-{row['draws']}" for row in chunk),
                "points": "\n".join(str(row["match_points"]) for row in chunk),
                "penalty": "\n".join(str(row["penalty_points"] or "") for row in chunk),
                "tiebreakers": [
                    {
                        "name": name,
                        "label": label,
                        "values": "\n".join(row["tiebreakers"][index].percent for row in chunk),
                    }
                    for index, (name, label) in enumerate(read_models.tiebreaker_columns(tournament))
                ],
                "rows": len(chunk),
            }
        )
    return {
        **header(tournament, round_obj, DocumentKind.STANDINGS, paper),
        # One line across the page: the event name and venue give way, the heading stays whole.
        "event_line": fit_names(
            "{}"
            + (f" · {tournament.date.isoformat()}" if tournament.date else "")
            + (" · {}" if tournament.venue else "")
            + f" · {heading}",
            [tournament.name, *([tournament.venue] if tournament.venue else [])],
            geometry.head_event[paper].mm,
            geometry.head_event[paper].pt,
        ),
        "final": final,
        "heading": heading,
        "pages": numbered(pages),
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
    return {**header(tournament, round_obj, DocumentKind.DECKLISTS, paper), "teams": teams}


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
    return {**header(tournament, round_obj, DocumentKind.PENALTIES, paper), "penalties": rows}


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
    return {**header(tournament, round_obj, DocumentKind.POD_SEATINGS, paper), "draft": draft, "pods": rows}


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
#: What each chunk's renderer draws on its pages besides the layout (``common.pdf.Underlay.draw``).
PAGE_DRAWINGS = {DocumentKind.RESULT_SLIPS: slip_qr_drawings}
