"""Context builders: the data of each printed document as plain, JSON-serialisable dicts.

Each builder reads through the selectors in a fixed number of queries, whatever the event's
size, and returns everything the template shows except the generation time, so that the
canonical JSON of the result identifies the content (``services.content_hash``).

The big documents are **pre-paginated** here: their templates print fixed-height pages, and the
number of rows per page is computed from the paper size and the row heights of
``static/pdf/print.css``, read by ``documents.geometry``, as are the columns names are fitted to. That keeps WeasyPrint's layout cheap (no table breaking across
pages, no column balancing) and lets ``common.pdf.render_pdf_chunks`` render page ranges in
parallel with each page already knowing its "Page X of Y".
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Callable, Sequence
from itertools import zip_longest

import segno
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clock.domain.end_of_round import additional_turns_for
from documents.enums import DocumentKind
from documents.geometry import layout
from documents.textfit import ellipsize, fit_names, fits, wrap_two
from tournaments import read_models
from tournaments.domain.text import last_first
from tournaments.enums import ResultKind, RoundKind
from tournaments.models import Match, Player, Round, Team, Tournament
from tournaments.read_models import PairingRow, Side, final_standings, is_final
from tournaments.slips import slip_code, slip_url
from tournaments.standings import standings_for

_PT_PER_MM = 72 / 25.4
_NAME_COLUMNS = 2
#: Pads table numbers to a common width; DejaVu's digits are as wide as this space.
FIGURE_SPACE = "\u2007"


def _when(moment: datetime.datetime) -> str:
    """A stored time as people at the event read it: ``21 Nov 2026 10:01`` in the event's zone
    and language (documents render in both)."""
    return date_format(timezone.localtime(moment), "j M Y H:i")


def _pts(points: int) -> str:
    return _("%(points)s pts") % {"points": points}


def _team_line(team: dict, side: str) -> str:
    box = layout().table_team[side]
    return fit_names("{}  (" + _pts(team["points"]) + ")", [team["name"]], box.mm, box.pt, bold=True)


def _players_line(team: dict, side: str) -> str:
    """Both players on one line, the primary marked; only the names are shortened."""
    marks = [("► " if p["primary"] else "").replace("{", "{{") for p in team["players"]]
    template = "  ·  ".join(f"{mark}{{}}" for mark in marks)
    names = [p["name"] for p in team["players"]]
    box = layout().table_players[side]
    return fit_names(template, names, box.mm, box.pt)


def _paginate(items: Sequence, per_page: int) -> list[list]:
    return [list(items[i : i + per_page]) for i in range(0, len(items), per_page)] or [[]]


def _numbered(pages: list[dict]) -> list[dict]:
    total = len(pages)
    for number, page in enumerate(pages, start=1):
        page["label"] = _("Page %(number)s of %(total)s") % {"number": number, "total": total}
    return pages


def _event(tournament: Tournament) -> dict:
    return {
        "id": tournament.id,
        "name": tournament.name,
        "date": tournament.date.isoformat() if tournament.date else "",
        "venue": tournament.venue,
        "format": _(tournament.get_format_display()),
        "rel": _(tournament.get_rel_display()),
        # The document's language and zone (documents.services renders in them): part of the
        # content hash, so a language change never reuses a file in the old one.
        "language": tournament.language,
        "time_zone": tournament.time_zone,
    }


def _round(round_obj: Round | None) -> dict | None:
    if round_obj is None:
        return None
    if round_obj.kind == RoundKind.PLAYOFF:
        label = _("Round %(number)s (playoff)") % {"number": round_obj.number}
    else:
        label = _("Round %(number)s") % {"number": round_obj.number}
    return {"number": round_obj.number, "kind": round_obj.kind, "label": label}


def _team_side(side: Side) -> dict:
    """A side of a pairing row (``read_models.pairings_by_table``) as the templates print it."""
    return {
        "id": side.team.id,
        "name": side.team.name,
        "points": side.match_points,
        "players": [
            {
                "id": seat.player.id,
                "name": seat.player.name,
                "wizards_id": seat.player.wizards_id,
                "primary": seat.primary,
            }
            for seat in side.seats
        ],
    }


def _is_bye(row: PairingRow) -> bool:
    return row.match is not None and row.match.result_kind == ResultKind.BYE


def _header(tournament: Tournament, round_obj: Round | None, kind: str, paper: str) -> dict:
    round_info = _round(round_obj)
    round_part = f" · {round_info['label']}" if round_info else ""
    return {
        "kind": kind,
        "title": str(DocumentKind(kind).label),
        "paper": paper,
        "event": _event(tournament),
        "round": round_info,
        # The footer's left box is fixed-width: the event name gives way, the round stays.
        "foot": fit_names(
            "{}" + round_part, [tournament.name], layout().foot_event.mm, layout().foot_event.pt
        ),
    }


def pairings_by_table(tournament: Tournament, round_obj: Round, paper: str) -> dict:
    """Table → team A (players, primary marked, points) vs team B; the bye last as "BYE (3 pts)".
    The rows are the public pairings page's (``read_models.pairings_by_table``)."""
    rows = []
    for row in read_models.pairings_by_table(round_obj):
        team_a = _team_side(row.side_a)
        if row.side_b is None:
            label = _("BYE (3 pts)") if _is_bye(row) else _("No match (missed round)")
            rows.append({"table": _("BYE"), "a": team_a, "b": None, "bye_label": label})
        else:
            rows.append({"table": str(row.table), "a": team_a, "b": _team_side(row.side_b), "bye_label": ""})
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
        **_header(tournament, round_obj, DocumentKind.PAIRINGS_BY_TABLE, paper),
        "pages": _numbered(pages),
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
            pts = " · " + _pts(team.match_points) + " · "
            if opponent is None:
                bye = name_row.match is not None and name_row.match.result_kind == ResultKind.BYE
                against = _("BYE (3 pts)") if bye else _("No match (missed round)")
                details[key] = fit_names("{}" + pts + against, [team.team.name], detail_box.mm, detail_box.pt)
            else:
                registered = sorted(opponent.seats, key=lambda seat: (seat.player.position, seat.player.id))
                surnames = [last_first(seat.player.name).split(",")[0] for seat in registered]
                template = "{}" + pts + _("vs") + " {} (" + ", ".join("{}" for _surname in surnames) + ")"
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
    text = _("Team %(side)s: %(name)s") % {"side": label, "name": team["name"]}
    tail = " (" + _pts(team["points"]) + ")"
    geometry = layout()
    if fits(text + tail, geometry.slip_team.mm, geometry.slip_team.pt, bold=True):
        return text + tail, 1
    lines = wrap_two(text, geometry.slip_team.mm, geometry.slip_team_small_pt, bold=True, tail=tail)
    return "\n".join(lines), len(lines)


def _slip_roster(team: dict) -> tuple[str, float]:
    """The players with their seats, at the largest size where every line fits whole; at the
    smallest, long names are shortened so the seat note always shows."""
    templates = [
        "► {} " + _("(primary, right)") if p["primary"] else "   {} " + _("(secondary, left)")
        for p in team["players"]
    ]
    names = [p["name"] for p in team["players"]]
    column, sizes = layout().slip_roster_mm, layout().slip_roster_pts
    for size in sizes:
        lines = [t.format(n) for t, n in zip(templates, names, strict=True)]
        if all(fits(line, column, size) for line in lines):
            return "\n".join(lines), size
    size = sizes[-1]
    lines = [fit_names(t, [n], column, size) for t, n in zip(templates, names, strict=True)]
    return "\n".join(lines), size


def _side_by_side(a: tuple[str, float], b: tuple[str, float], *, together: bool) -> list[dict]:
    """Team A's and team B's text of one kind (title or roster), each with its size (lines of the
    title, points of the roster), as the blocks a slip lays out: ``together``, one block ``ab``
    whose lines hold A's line, a tab, B's line (print.css's ``.slip-ab`` tab stop is team B's
    box); else a block each. WeasyPrint's cost is per box and line, and nearly every slip prints
    both teams alike: two of its eight boxes and three of its nine lines fewer."""
    (a_text, a_size), (b_text, b_size) = a, b
    if not together:
        return [{"side": "a", "text": a_text, "size": a_size}, {"side": "b", "text": b_text, "size": b_size}]
    lines = zip_longest(a_text.split("\n"), b_text.split("\n"), fillvalue="")
    return [{"side": "ab", "text": "\n".join(f"{x}\t{y}" for x, y in lines), "size": a_size}]


def end_of_round_turn_boxes(team_size: int) -> str:
    """The slip's end-of-round tracker: turn 0 for the active side, then the event's additional
    turns alternating (five one-versus-one, three in 2HG: MTR 2.4)."""
    turns = ["0 ☐ " + (_("active player") if team_size == 1 else _("active team"))]
    turns += [
        f"{n} ☐ " + (_("other") if n % 2 else _("active"))
        for n in range(1, additional_turns_for(team_size) + 1)
    ]
    return "   ".join(turns)


#: The quiet zone around the code, in modules (ISO/IEC 18004 asks for 4).
_QR_BORDER = 4
#: Any of the eight masks is a valid code; choosing the best-scoring one costs segno five times
#: the rest of the work (3 s for a 512-slip round), so the slips use one fixed mask.
_QR_MASK = 0


def _slip_qr(match: Match, round_obj: Round) -> dict:
    """The slip's report page address (its QR code holds the match's slip secret) and the short
    code printed under the code for the entry-by-slip page."""
    match.round = round_obj
    return {"url": slip_url(match), "code": slip_code(match)}


def qr_drawing(url: str, paper: str, slot: int) -> str:
    """PDF operators drawing the QR code of ``url`` on the ``slot``-th slip of a page (0 top, 1
    bottom), in default user space: the modules as one 1-bit image mask (an inline image, one
    bit per module, painted in black where a module is dark), scaled onto the code's square.
    Drawn by pypdf on top of the page (``common.pdf.Underlay.drawings``): WeasyPrint laying out
    an SVG per slip doubled the time of a long slips document, and a filled rectangle per run of
    dark modules made each code 9 kB of operators to write, compress and store (bench/README.md).
    """
    geometry = layout()
    page_w, page_h = geometry.page_mm[paper]
    page_top, page_right = geometry.margins_mm[:2]
    size, top_in_slip, right_in_slip = geometry.slip_qr[paper]
    matrix = segno.make(url, error="m", micro=False, mask=_QR_MASK).matrix
    modules = len(matrix)
    module = size / (modules + 2 * _QR_BORDER) * _PT_PER_MM
    left = (page_w - page_right - right_in_slip - size) * _PT_PER_MM + _QR_BORDER * module
    top = page_h - page_top - slot * geometry.slip_mm[paper] - top_in_slip
    lower = top * _PT_PER_MM - _QR_BORDER * module - modules * module
    side = modules * module
    return (
        f"0 g q {side:.3f} 0 0 {side:.3f} {left:.3f} {lower:.3f} cm "
        f"BI /IM true /W {modules} /H {modules} /BPC 1 /D [1 0] /F /AHx ID {_mask_hex(matrix)}> EI Q"
    )


#: A module's value (0 light, 1 dark) as the digit of its bit.
_BIT_DIGITS = bytes.maketrans(b"\x00\x01", b"01")


def _mask_hex(matrix) -> str:
    """The modules as image-mask rows, most significant bit first, each row padded to whole
    bytes (PDF 32000 8.9.3), in hex."""
    width = len(matrix[0])
    pad = -width % 8
    return b"".join(
        (int(bytes(row).translate(_BIT_DIGITS), 2) << pad).to_bytes((width + pad) // 8, "big")
        for row in matrix
    ).hex()


def slip_qr_drawings(context: dict) -> list[str]:
    """The QR codes of each page's slips of a result slips context (or of one chunk of it), as
    PDF operators (``common.pdf.Underlay.draw``: worked out by each chunk's renderer)."""
    return [
        " ".join(
            qr_drawing(slip["url"], context["paper"], slot)
            for slot, slip in enumerate(page["slips"])
            if "url" in slip
        )
        for page in context["pages"]
    ]


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
    Each slip carries a QR code for its table's report page and the slip's short code (``_slip_qr``).
    """
    geometry = layout()
    slips = []
    for row in read_models.pairings_by_table(round_obj):
        if row.side_b is None:
            continue
        a, b = _team_side(row.side_a), _team_side(row.side_b)
        titles = _slip_team_title("A", a), _slip_team_title("B", b)
        rosters = _slip_roster(a), _slip_roster(b)
        sign = geometry.slip_sign
        names = [ellipsize(p["name"], sign.mm, sign.pt) for p in a["players"] + b["players"]]
        slip = {
            "table": row.table,
            "a": a,
            "b": b,
            # A title wrapped on two lines keeps its own block: its name reads whole in the text layer.
            "titles": _side_by_side(titles[0], titles[1], together=titles[0][1] == titles[1][1] == 1),
            "rosters": _side_by_side(rosters[0], rosters[1], together=rosters[0][1] == rosters[1][1]),
            "sign_names": "\t".join(names),
            **(_slip_qr(row.match, round_obj) if row.match else {}),
        }
        if row.chooser is not None:  # playoff slips only: Swiss slips keep their content (and hash)
            chooser = geometry.slip_chooser
            slip["chooser"] = fit_names(
                _("Chooses play or draw:") + " {}", [row.chooser.name], chooser.mm, chooser.pt
            )
        slips.append(slip)
    shapes: dict[tuple[int, int], int] = {}
    for slip in slips:
        shapes.setdefault((len(slip["a"]["players"]), len(slip["b"]["players"])), len(shapes) + 1)
    slip_pt = geometry.slip_mm[paper] * _PT_PER_MM
    pages = [{"slips": page} for page in slip_order(slips)]
    underlay = [
        [[0, 0]]
        + [
            [shapes[len(slip["a"]["players"]), len(slip["b"]["players"])], round(-k * slip_pt, 3)]
            for k, slip in enumerate(page["slips"])
        ]
        for page in pages
    ]
    drop = "☐ " + _("Drop") + "\n"
    return {
        **_header(tournament, round_obj, DocumentKind.RESULT_SLIPS, paper),
        "allow_draw": round_obj.kind == RoundKind.SWISS,
        "turn_boxes": end_of_round_turn_boxes(tournament.team_size),
        "forms": [{"drops_a": drop * a, "drops_b": drop * b, "signs": [""] * (a + b)} for a, b in shapes],
        "underlay": underlay,
        "pages": _numbered(pages),
    }


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
        **_header(tournament, round_obj, DocumentKind.STANDINGS, paper),
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
#: What each chunk's renderer draws on its pages besides the layout (``common.pdf.Underlay.draw``).
PAGE_DRAWINGS = {DocumentKind.RESULT_SLIPS: slip_qr_drawings}
