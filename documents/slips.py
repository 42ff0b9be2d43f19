"""The result slips: one per table, two a page in cut-stack order, the parts every slip prints
alike laid out once as forms drawn under each page, and each slip's QR code drawn on the rendered
page as PDF operators (``PAGE_DRAWINGS`` in ``documents.builders``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import zip_longest

import segno
from django.utils.translation import gettext as _

from clock.domain.end_of_round import additional_turns_for
from documents.enums import DocumentKind
from documents.geometry import layout
from documents.parts import header, numbered, pts, team_side
from documents.textfit import ellipsize, fit_names, fits, wrap_two
from tournaments import read_models
from tournaments.enums import RoundKind
from tournaments.models import Match, Round, Tournament
from tournaments.slips import slip_code, slip_url

_PT_PER_MM = 72 / 25.4


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
    tail = " (" + pts(team["points"]) + ")"
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
        a, b = team_side(row.side_a), team_side(row.side_b)
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
        **header(tournament, round_obj, DocumentKind.RESULT_SLIPS, paper),
        "allow_draw": round_obj.kind == RoundKind.SWISS,
        "turn_boxes": end_of_round_turn_boxes(tournament.team_size),
        "forms": [{"drops_a": drop * a, "drops_b": drop * b, "signs": [""] * (a + b)} for a, b in shapes],
        "underlay": underlay,
        "pages": numbered(pages),
    }
