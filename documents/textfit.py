"""Fitting user text (team and player names) into the fixed columns of the printed documents.

The pre-paginated documents print one ``white-space: pre`` line per row in columns of fixed
millimetres (``static/pdf/print.css``); a line longer than its column is cut at the column's
edge, taking with it whatever follows the name (points, the second player, a seat note). So the
builders measure each line with the advance widths of the font the stylesheet uses (DejaVu Sans,
read once from the font file with fontTools) and shorten only the *names* with an ellipsis,
never the points, tables or seats that follow them.

Characters DejaVu lacks (Japanese, Chinese, Korean) Pango prints in the stylesheet's next family,
Noto Sans CJK JP: they are measured with that face's advances (read the first time a name needs
them, so Latin-only documents never load it). Its glyphs are also taller than DejaVu's, and a line
holding them would grow past its fixed line height and push every row below it down the column:
the templates print such runs inside ``<span class="fb">`` (``fallback_runs``, the ``fallback_fonts``
filter), which print.css gives no line height of its own. The spaces between them stay outside,
in DejaVu, as measured here.

The sum of advance widths is what WeasyPrint lays out without kerning; DejaVu's kerning only
narrows pairs, and ``SAFETY`` leaves room for rounding, so a line measured to fit does fit.
"""

from __future__ import annotations

import math
import shutil
import subprocess
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
#: A character in neither face (or every one without the font files, not expected: the image
#: installs them) counts as wide as "W" in DejaVu Sans Bold: names get shorter, never cut.
_FALLBACK_ADVANCE = 0.91
#: Japanese, Chinese and Korean characters are not in DejaVu; Pango takes them from Noto Sans
#: CJK JP (print.css). Where fontconfig cannot say which file that is, Debian's fonts-noto-cjk
#: files (the JP face is the first of each collection); without them, every wide character
#: counts as one em, its width in that face.
_FALLBACK_FAMILY = "Noto Sans CJK JP"
_FALLBACK_FILES = {
    False: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    True: "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
}
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


def _width(char: str, bold: bool) -> float:
    """The advance in em of ``char`` in DejaVu Sans, else in the fallback face."""
    found = _advances(bold).get(ord(char))
    return _fallback_width(char, bold) if found is None else found


def _fallback_width(char: str, bold: bool) -> float:
    """The advance in em of ``char`` in the CJK fallback face."""
    found = _fallback_advances(bold).get(ord(char))
    if found is not None:
        return found
    return _WIDE_ADVANCE if unicodedata.east_asian_width(char) in ("W", "F") else _FALLBACK_ADVANCE


def _char_widths(text: str, bold: bool) -> list[float]:
    """Each character's advance in em, in the face it is printed with (``fallback_runs``)."""
    dejavu = _advances(bold).get
    widths: list[float] = []
    for run, fallback in fallback_runs(text):
        if fallback:
            widths.extend(_fallback_width(char, bold) for char in run)
        else:
            widths.extend(
                _fallback_width(char, bold) if (w := dejavu(ord(char))) is None else w for char in run
            )
    return widths


def _fallback_face(bold: bool) -> tuple[str, int] | None:
    """The file and collection index of Noto Sans CJK JP (Bold): fontconfig's answer, as Pango's."""
    fc_match = shutil.which("fc-match")
    if fc_match is not None:
        pattern = _FALLBACK_FAMILY + (":bold" if bold else "")
        found = subprocess.run(
            [fc_match, "--format=%{family}\n%{file}\n%{index}", pattern], capture_output=True, text=True
        ).stdout.split("\n")
        if len(found) == 3 and _FALLBACK_FAMILY in found[0].split(",") and Path(found[1]).is_file():
            return found[1], int(found[2])
    path = Path(_FALLBACK_FILES[bold])
    return (str(path), 0) if path.is_file() else None


@cache
def _fallback_advances(bold: bool) -> dict[int, float]:
    """Advance width in em per code point of the CJK fallback face; empty without it."""
    face = _fallback_face(bold)
    if face is None:
        return {}
    from fontTools.ttLib import TTFont

    font = TTFont(face[0], fontNumber=face[1], lazy=True)
    units = font["head"].unitsPerEm
    metrics = font["hmtx"].metrics
    widths = {code: metrics[glyph][0] / units for code, glyph in font.getBestCmap().items()}
    font.close()
    return widths


@cache
def _advances(bold: bool) -> dict[int, float]:
    """DejaVu Sans (Bold)'s advance width per code point in em; empty without the font."""
    for folder in _FONT_DIRS:
        path = Path(folder) / _FONT_FILES[bold]
        if path.is_file():
            from fontTools.ttLib import TTFont

            font = TTFont(path, lazy=True)
            units = font["head"].unitsPerEm
            metrics = font["hmtx"].metrics
            widths = {code: metrics[glyph][0] / units for code, glyph in font.getBestCmap().items()}
            font.close()
            return {**widths, **_ISOLATES}
    return dict(_ISOLATES)


#: Code points below this are looked up in a list (Latin, Greek, Cyrillic, punctuation, arrows,
#: the box ☐): a builder measures every row of a 4,096-player document, so this is the hot path.
_TABLE_SIZE = 0x2800


@cache
def _table(bold: bool) -> list[float]:
    """DejaVu's advances below ``_TABLE_SIZE``, NaN where it has no glyph (a fallback face's)."""
    widths = _advances(bold)
    return [widths.get(code, math.nan) for code in range(_TABLE_SIZE)]


def _ems(text: str, bold: bool) -> float:
    try:
        total = sum(map(_table(bold).__getitem__, map(ord, text)))
    except IndexError:
        total = math.nan
    if total == total:  # not NaN: every character in the table and in DejaVu
        return total
    return sum(_char_widths(text, bold))


def fallback_runs(text: str) -> list[tuple[str, bool]]:
    """``text`` in runs, each with whether Pango prints it in a fallback face: from a character
    DejaVu Sans lacks to the last one with only spaces between (Pango keeps a face for the
    spaces inside such a run, in the face's own width, and pdftotext keeps them in the text)."""
    if text.isascii():
        return [(text, False)]
    widths = _advances(False)
    runs: list[tuple[str, bool]] = []
    start = 0  # where the text not yet in a run starts
    fallback_start: int | None = None
    fallback_end = 0
    for index, char in enumerate(text):
        if char.isspace() and char != "\n":
            continue
        if char != "\n" and ord(char) not in widths:
            if fallback_start is None:
                if index > start:
                    runs.append((text[start:index], False))
                fallback_start = index
            fallback_end = index + 1
        elif fallback_start is not None:
            runs.append((text[fallback_start:fallback_end], True))
            start, fallback_start = fallback_end, None
    if fallback_start is not None:
        runs.append((text[fallback_start:fallback_end], True))
        start = fallback_end
    if start < len(text):
        runs.append((text[start:], False))
    return runs


def width_mm(text: str, size_pt: float, *, bold: bool = False) -> float:
    """The width of ``text`` on one line at ``size_pt`` in DejaVu Sans (Bold), in millimetres."""
    return _ems(text, bold) * size_pt / _PT_PER_MM


def fits(text: str, column_mm: float, size_pt: float, *, bold: bool = False) -> bool:
    return width_mm(text, size_pt, bold=bold) <= column_mm * SAFETY


def ellipsize(name: str, room_mm: float, size_pt: float, *, bold: bool = False) -> str:
    """``name`` as is if it fits ``room_mm``, else its longest prefix that fits with "…" added."""
    if fits(name, room_mm, size_pt, bold=bold):
        return name
    budget = room_mm * SAFETY * _PT_PER_MM / size_pt - _width(ELLIPSIS, bold)
    used = 0.0
    for index, advance in enumerate(_char_widths(name, bold)):
        used += advance
        if used > budget:
            return name[:index].rstrip() + ELLIPSIS
    return name


def _prefix_widths(name: str, bold: bool) -> list[float]:
    """``result[k]`` is the width in em of ``name[:k]``."""
    total = [0.0]
    for advance in _char_widths(name, bold):
        total.append(total[-1] + advance)
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
    dots = _width(ELLIPSIS, bold)
    room = (
        column_mm * SAFETY * _PT_PER_MM / size_pt
        - width_mm(template.format(*([""] * len(names))), size_pt, bold=bold) * _PT_PER_MM / size_pt
    )
    prefixes = [_prefix_widths(name, bold) for name in names]
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
