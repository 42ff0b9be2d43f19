"""Fitting user text (team and player names) into the fixed columns of the printed documents.

The pre-paginated documents print one ``white-space: pre`` line per row in columns of fixed
millimetres (``static/pdf/print.css``); a line longer than its column is cut at the column's
edge, taking with it whatever follows the name (points, the second player, a seat note). So the
builders measure each line with the advance widths of the font the stylesheet uses (DejaVu Sans,
read once from the font file with fontTools) and shorten only the *names* with an ellipsis,
never the points, tables or seats that follow them.

The sum of advance widths is what WeasyPrint lays out without kerning; DejaVu's kerning only
narrows pairs, and ``SAFETY`` leaves room for rounding, so a line measured to fit does fit.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache
from pathlib import Path

ELLIPSIS = "…"
#: Share of the column kept free: kerning and rounding differences between this and Pango.
SAFETY = 0.97
_PT_PER_MM = 72 / 25.4
_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/local/share/fonts")
_FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
#: Without the font file (not expected: the image installs it), every glyph counts as wide as "W"
#: in DejaVu Sans Bold (in font units of 2048 per em): names get shorter, never cut.
_FALLBACK_ADVANCE = 0.91
#: Japanese, Chinese and Korean characters are not in DejaVu; Pango takes them from Noto Sans
#: CJK, where every wide character is one em.
_WIDE_ADVANCE = 1.0
#: First strong isolate and pop directional isolate: around a right-to-left name (Arabic, Hebrew)
#: they keep its letters and the brackets and commas after it in their places (Unicode UAX #9);
#: they print nothing.
FSI, PDI = "\u2068", "\u2069"
_ISOLATES = {ord(FSI): 0.0, ord(PDI): 0.0}
_RTL = {"R", "AL"}


def isolate(name: str) -> str:
    """``name`` inside bidi isolates if it holds right-to-left letters; other names as they are."""
    return f"{FSI}{name}{PDI}" if any(unicodedata.bidirectional(c) in _RTL for c in name) else name


def _width(char: str, widths: dict[int, float], missing: float) -> float:
    found = widths.get(ord(char))
    if found is not None:
        return found
    return _WIDE_ADVANCE if unicodedata.east_asian_width(char) in ("W", "F") else missing


@cache
def _advances(bold: bool) -> tuple[dict[int, float], float]:
    """Advance width per code point in em, and the width of a glyph missing from the font."""
    for folder in _FONT_DIRS:
        path = Path(folder) / _FONT_FILES[bold]
        if path.is_file():
            from fontTools.ttLib import TTFont

            font = TTFont(path, lazy=True)
            units = font["head"].unitsPerEm
            metrics = font["hmtx"].metrics
            widths = {code: metrics[glyph][0] / units for code, glyph in font.getBestCmap().items()}
            font.close()
            return {**widths, **_ISOLATES}, _FALLBACK_ADVANCE
    return dict(_ISOLATES), _FALLBACK_ADVANCE


#: Code points below this are looked up in a list (Latin, Greek, Cyrillic, punctuation, arrows,
#: the box ☐): a builder measures every row of a 4,096-player document, so this is the hot path.
_TABLE_SIZE = 0x2800


@cache
def _table(bold: bool) -> list[float]:
    widths, missing = _advances(bold)
    return [widths.get(code, missing) for code in range(_TABLE_SIZE)]


def _ems(text: str, bold: bool) -> float:
    try:
        return sum(map(_table(bold).__getitem__, map(ord, text)))
    except IndexError:
        widths, missing = _advances(bold)
        return sum(_width(char, widths, missing) for char in text)


def width_mm(text: str, size_pt: float, *, bold: bool = False) -> float:
    """The width of ``text`` on one line at ``size_pt`` in DejaVu Sans (Bold), in millimetres."""
    return _ems(text, bold) * size_pt / _PT_PER_MM


def fits(text: str, column_mm: float, size_pt: float, *, bold: bool = False) -> bool:
    return width_mm(text, size_pt, bold=bold) <= column_mm * SAFETY


def ellipsize(name: str, room_mm: float, size_pt: float, *, bold: bool = False) -> str:
    """``name`` as is if it fits ``room_mm``, else its longest prefix that fits with "…" added."""
    if fits(name, room_mm, size_pt, bold=bold):
        return name
    widths, missing = _advances(bold)
    budget = room_mm * SAFETY * _PT_PER_MM / size_pt - widths.get(ord(ELLIPSIS), missing)
    used = 0.0
    for index, char in enumerate(name):
        used += _width(char, widths, missing)
        if used > budget:
            return name[:index].rstrip() + ELLIPSIS
    return name


def _prefix_widths(name: str, widths: dict[int, float], missing: float) -> list[float]:
    """``result[k]`` is the width in em of ``name[:k]``."""
    total = [0.0]
    for char in name:
        total.append(total[-1] + _width(char, widths, missing))
    return total


def fit_names(
    template: str,
    names: Sequence[str],
    column_mm: float,
    size_pt: float,
    *,
    bold: bool = False,
    floors: Sequence[int] | None = None,
) -> str:
    """``template.format(*names)`` on one line of ``column_mm``, shortening only the names.

    The widest name is shortened first, a character at a time, so two long names end up about
    equally wide; everything else in the template (points, separators, seat notes) stays whole.
    ``floors`` (characters per name) protects what matters more: names are shortened no
    further than their floor while another name can still give way, and only then below it.
    A right-to-left name is printed inside bidi isolates (``isolate``).
    """
    text = template.format(*names)
    if fits(text, column_mm, size_pt, bold=bold):
        return template.format(*map(isolate, names))
    widths, missing = _advances(bold)
    dots = widths.get(ord(ELLIPSIS), missing)
    room = (
        column_mm * SAFETY * _PT_PER_MM / size_pt
        - width_mm(template.format(*([""] * len(names))), size_pt, bold=bold) * _PT_PER_MM / size_pt
    )
    prefixes = [_prefix_widths(name, widths, missing) for name in names]
    lengths = [len(name) for name in names]

    def shown(i: int) -> float:
        return prefixes[i][lengths[i]] + (dots if lengths[i] < len(names[i]) else 0.0)

    floor = list(floors) if floors is not None else [0] * len(names)
    while sum(shown(i) for i in range(len(names))) > room and max(lengths) > 0:
        above = [i for i in range(len(names)) if lengths[i] > floor[i]]
        widest = max(above or range(len(names)), key=shown)
        lengths[widest] -= 1
    return template.format(
        *(
            isolate(name if length == len(name) else name[:length].rstrip() + ELLIPSIS)
            for name, length in zip(names, lengths, strict=True)
        )
    )


def wrap_two(text: str, column_mm: float, size_pt: float, *, bold: bool = False, tail: str = "") -> list[str]:
    """``text`` + ``tail`` on one line of ``column_mm``, else on two: broken at the last space
    that lets the first line fit, the second line's words ellipsized if still too long, and
    ``tail`` (the points) always whole at the end of the last line."""
    if fits(text + tail, column_mm, size_pt, bold=bold):
        return [text + tail]
    words = text.split(" ")
    for count in range(len(words) - 1, 0, -1):
        first = " ".join(words[:count])
        if fits(first, column_mm, size_pt, bold=bold):
            rest = " ".join(words[count:])
            break
    else:
        first = ellipsize(text, column_mm, size_pt, bold=bold)[:-1]
        rest = text[len(first) :]
    escaped = tail.replace("{", "{{").replace("}", "}}")
    return [first, fit_names("{}" + escaped, [rest], column_mm, size_pt, bold=bold)]
