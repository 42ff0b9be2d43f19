"""The printed documents' geometry, read from ``static/pdf/print.css``: the one place it is written.

The pre-paginated documents (``documents.builders``) count rows per page and fit names to their
columns in Python, so they need the stylesheet's millimetres and points. Rather than copies that
drift when the stylesheet changes, they ask the stylesheet itself: ``Stylesheet`` parses it once
(with tinycss2, the parser WeasyPrint uses) and answers lookups by selector and property, such as
``css.mm(".rules div", "height")`` or ``css.pt(".tbl-team", "font-size")``. A selector or property
that is not there raises ``GeometryError`` naming it, so an edit to the stylesheet fails the
documents loudly instead of silently misplacing their rows.

``Layout`` gathers what the builders use; ``layout()`` is the one read from the shipped stylesheet.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import tinycss2
from tinycss2.ast import DimensionToken, FunctionBlock, LiteralToken, NumberToken, WhitespaceToken

from documents.enums import Paper

STYLESHEET = Path(__file__).resolve().parent.parent / "static" / "pdf" / "print.css"
#: Each unit's length in inches.
_INCHES = {"in": 1.0, "cm": 1 / 2.54, "mm": 1 / 25.4, "pt": 1 / 72, "pc": 1 / 6, "px": 1 / 96}
#: The page sizes the templates ask for (``size: A4`` or ``size: letter`` in ``templates/pdf/base.html``),
#: as CSS Paged Media defines those keywords: width and height in mm.
PAGE_SIZES_MM = {Paper.A4: (210.0, 297.0), Paper.LETTER: (215.9, 279.4)}


#: Room kept free below a page's last row. Rows ending exactly on the page's bottom edge (38
#: standings rows on A4) reach past it by a rounding error; WeasyPrint then moves the last line,
#: and with it the one before (``widows: 2``), to a next page that ``.sheet`` hides: two teams
#: were missing from every full standings page.
_BOTTOM_GAP_MM = 0.1


class GeometryError(LookupError):
    """The stylesheet lacks a rule or property the documents are laid out with, or has a value
    they cannot read."""


def _selector(text: str) -> str:
    return " ".join(text.split())


class Stylesheet:
    """The declarations of a stylesheet by selector, the last one of a property winning.

    Rules with several selectors count for each; ``@page`` is ``"@page"`` (a named page
    ``"@page slips"``) and its margin boxes ``"@page @bottom-left"``.
    """

    def __init__(self, text: str) -> None:
        self._rules: dict[str, dict[str, list]] = {}
        for rule in tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True):
            if rule.type == "qualified-rule":
                selectors = tinycss2.serialize(rule.prelude).split(",")
                self._declare([_selector(s) for s in selectors], rule.content)
            elif rule.type == "at-rule" and rule.lower_at_keyword == "page" and rule.content is not None:
                page = _selector("@page " + tinycss2.serialize(rule.prelude))
                self._declare([page], rule.content)

    def _declare(self, selectors: list[str], content: list) -> None:
        for item in tinycss2.parse_blocks_contents(content, skip_comments=True, skip_whitespace=True):
            if item.type == "declaration":
                for selector in selectors:
                    self._rules.setdefault(selector, {})[item.lower_name] = item.value
            elif item.type == "at-rule" and item.content is not None:  # @page's margin boxes
                self._declare([f"{s} @{item.lower_at_keyword}" for s in selectors], item.content)

    def _value(self, selector: str, prop: str) -> list:
        declarations = self._rules.get(_selector(selector))
        if declarations is None:
            raise GeometryError(f"print.css has no rule for {selector!r}")
        if prop not in declarations:
            raise GeometryError(f"print.css's rule {selector!r} sets no {prop!r}")
        return [token for token in declarations[prop] if token.type not in ("whitespace", "comment")]

    def lengths(self, selector: str, prop: str, unit: str = "mm") -> list[float]:
        """Every length of a property (``margin: 10mm 8mm 16mm 8mm`` has four) in ``unit``; a
        length written in that unit comes back exactly as written."""
        return [_length(token, unit, selector, prop) for token in self._value(selector, prop)]

    def length(self, selector: str, prop: str, unit: str, *, paper: str = Paper.A4) -> float:
        """One length in ``unit``. For Letter, a ``.paper-letter <selector>`` rule setting the
        property overrides the plain one (the templates put the paper's class on ``<body>``)."""
        values = self.lengths(self._for_paper(selector, prop, paper), prop, unit)
        if len(values) != 1:
            raise GeometryError(f"print.css's {selector!r} {prop!r} is not one length")
        return values[0]

    def mm(self, selector: str, prop: str, *, paper: str = Paper.A4) -> float:
        return self.length(selector, prop, "mm", paper=paper)

    def pt(self, selector: str, prop: str, *, paper: str = Paper.A4) -> float:
        """Font sizes."""
        return self.length(selector, prop, "pt", paper=paper)

    def _for_paper(self, selector: str, prop: str, paper: str) -> str:
        variant = _selector(f".paper-{Paper(paper).value} {selector}")
        if paper != Paper.A4 and prop in self._rules.get(variant, {}):
            return variant
        return selector


def _length(token, unit: str, selector: str, prop: str) -> float:
    if isinstance(token, DimensionToken) and token.lower_unit == unit:
        return float(token.value)
    if isinstance(token, DimensionToken) and token.lower_unit in _INCHES:
        return float(token.value) * _INCHES[token.lower_unit] / _INCHES[unit]
    if isinstance(token, NumberToken) and token.value == 0:
        return 0.0
    if isinstance(token, FunctionBlock) and token.lower_name == "calc":
        return _calc(token.arguments, unit, selector, prop)
    raise GeometryError(f"print.css's {selector!r} {prop!r}: {tinycss2.serialize([token])!r} is not a length")


def _calc(arguments: list, unit: str, selector: str, prop: str) -> float:
    """A ``calc()`` of lengths added and subtracted (all the stylesheet uses)."""
    total, sign, expecting = 0.0, 1.0, "length"
    for token in arguments:
        if isinstance(token, WhitespaceToken):
            continue
        if expecting == "operator" and isinstance(token, LiteralToken) and token.value in "+-":
            sign, expecting = (1.0 if token.value == "+" else -1.0), "length"
        elif expecting == "length":
            total, expecting = total + sign * _length(token, unit, selector, prop), "operator"
        else:
            raise GeometryError(f"print.css's {selector!r} {prop!r}: only + and - are read in calc()")
    return total


@dataclass(frozen=True)
class Box:
    """A fixed-width line of text: its column in mm and font size in pt."""

    mm: float
    pt: float


@dataclass(frozen=True)
class Layout:
    """What the builders lay out with, all derived from the stylesheet (``from_css``)."""

    #: Per paper: the page (width, height) and margins (top, right, bottom, left) in mm.
    page_mm: dict[str, tuple[float, float]]
    margins_mm: tuple[float, float, float, float]
    #: Per paper: a fixed page's height below its header (``.sheet`` less ``.doc-head``).
    body_mm: dict[str, float]
    #: Per paper: rows on a page of each pre-paginated document.
    table_rows: dict[str, int]
    name_rows: dict[str, int]
    standings_rows: dict[str, int]
    table_team: dict[str, Box]  # team line per side ("A", "B")
    table_players: dict[str, Box]
    byname_head: Box
    byname_detail: Box
    standings_team: Box
    standings_players: Box
    head_event: dict[str, Box]  # the header's event line, across the page
    foot_event: Box  # the footer's left box
    slip_mm: dict[str, float]  # a result slip's height: the second slip's offset on its page
    slip_team: Box  # one line; a name too long wraps on two lines at ``slip_team_small_pt``
    slip_team_small_pt: float
    slip_roster_mm: float
    slip_roster_pts: tuple[float, ...]  # largest first: the roster prints at the first that fits
    slip_sign: Box
    slip_chooser: Box
    #: Per paper: where the slip's QR code sits, in mm: (size, top in the slip, right from the slip's edge).
    slip_qr: dict[str, tuple[float, float, float]]

    @classmethod
    def from_css(cls, css: Stylesheet) -> Layout:
        papers = list(Paper)
        top, right, bottom, left = _box_sides(css.lengths("@page", "margin"))
        body: dict[str, float] = {
            p: css.mm(".sheet", "height", paper=p) - css.mm(".doc-head", "height") for p in papers
        }

        def rows(header_mm: float, row_mm: float) -> dict[str, int]:
            return {p: math.floor((body[p] - header_mm - _BOTTOM_GAP_MM) / row_mm) for p in papers}

        def box(selector: str, size_selector: str | None = None) -> Box:
            return Box(css.mm(selector, "width"), css.pt(size_selector or selector, "font-size"))

        return cls(
            page_mm={p: PAGE_SIZES_MM[p] for p in papers},
            margins_mm=(top, right, bottom, left),
            body_mm=body,
            table_rows=rows(css.mm(".tbl-cols", "height"), css.mm(".rules div", "height")),
            name_rows=rows(0, css.mm(".byname-head", "line-height")),
            standings_rows=rows(css.mm(".st-cols", "height"), css.mm(".st-rules div", "height")),
            table_team={"A": box(".tbl-a", ".tbl-team"), "B": box(".tbl-b", ".tbl-team")},
            table_players={"A": box(".tbl-a", ".tbl-players"), "B": box(".tbl-b", ".tbl-players")},
            byname_head=box(".byname-head"),
            byname_detail=box(".byname-detail"),
            standings_team=box(".s-team", ".st-body"),
            standings_players=box(".s-players", ".st-body"),
            head_event={
                p: Box(PAGE_SIZES_MM[p][0] - left - right, css.pt(".doc-event", "font-size")) for p in papers
            },
            foot_event=box("@page @bottom-left"),
            slip_mm={p: css.mm(".slip", "height", paper=p) for p in papers},
            slip_team=box(".slip > .slip-team-name"),
            slip_team_small_pt=css.pt(".slip > .slip-team-name.two", "font-size"),
            slip_roster_mm=css.mm(".slip > .slip-players", "width"),
            # The slip template names the smaller sizes' classes after them (pt8, pt7).
            slip_roster_pts=tuple(
                _whole(css.pt(selector, "font-size"))
                for selector in (
                    ".slip > .slip-players",
                    ".slip > .slip-players.pt8",
                    ".slip > .slip-players.pt7",
                )
            ),
            slip_sign=box(".sign"),
            slip_chooser=box(".slip > .slip-chooser", ".slip-line"),
            slip_qr={
                p: (
                    css.mm(".slip-qr", "width", paper=p),
                    css.mm(".slip-qr", "top", paper=p),
                    css.mm(".slip-qr", "right", paper=p),
                )
                for p in papers
            },
        )


def _box_sides(values: list[float]) -> tuple[float, float, float, float]:
    """CSS's one-to-four value shorthand (``margin: 10mm 8mm 16mm 8mm``) as (top, right, bottom, left)."""
    if not 1 <= len(values) <= 4:
        raise GeometryError("print.css's @page margin is not one to four lengths")
    top = values[0]
    right = values[1] if len(values) > 1 else top
    bottom = values[2] if len(values) > 2 else top
    left = values[3] if len(values) > 3 else right
    return top, right, bottom, left


def _whole(size: float) -> float:
    return int(size) if size.is_integer() else size


@cache
def layout() -> Layout:
    """The layout of the shipped stylesheet, read once per process."""
    return Layout.from_css(Stylesheet(STYLESHEET.read_text(encoding="utf-8")))
