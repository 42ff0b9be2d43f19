"""Decklist text as players paste it, turned into line-numbered entries.

Accepted, mixed freely: MTGO ``.txt`` (``4 Lightning Bolt``, a blank line or
``Sideboard`` before the sideboard), Arena exports (``Deck``/``Sideboard``/``Commander``/
``Companion``/``About`` sections, ``4 Lightning Bolt (M10) 146``), ``4x Lightning Bolt``,
``SB: 2 Pyroblast`` and CSV ``count,name`` rows (header row optional, quoted names with
commas). Parsing knows nothing about cards: names are resolved later (decks.py), so every
problem here is about the *text*, reported with its line number and the line itself.

Limits keep a pasted novel or a binary file from reaching the card index: the whole
text, the number of lines and the copies on one line are bounded.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from enum import StrEnum

from common.translatable import N_
from decklists.domain.errors import DeckError, ErrorCode

MAX_CHARS = 20_000
MAX_LINES = 500
MAX_COPIES_PER_LINE = 250
LINE_TEXT_LIMIT = 200
"""Longest piece of the submitted text an error echoes (``line_text``, names and counts in
messages); a 5,000-character line must not come back whole in every error about it."""


class Section(StrEnum):
    MAIN = "main"
    SIDEBOARD = "sideboard"
    COMMANDER = "commander"
    COMPANION = "companion"


_HEADERS: dict[str, Section | None] = {
    "deck": Section.MAIN,
    "main": Section.MAIN,
    "maindeck": Section.MAIN,
    "main deck": Section.MAIN,
    "mainboard": Section.MAIN,
    "sideboard": Section.SIDEBOARD,
    "side": Section.SIDEBOARD,
    "side board": Section.SIDEBOARD,
    "sb": Section.SIDEBOARD,
    "commander": Section.COMMANDER,
    "commanders": Section.COMMANDER,
    "companion": Section.COMPANION,
    "about": None,
}
_HEADER = re.compile(r"^(?://+|#+)?\s*([a-z ]+?)\s*:?\s*(?:\(\s*\d+\s*\))?\s*:?$", re.IGNORECASE)
_CARD_LINE = re.compile(r"^(?P<count>[+-]?\d+(?:[.,]\d+)?)(?:\s*[x×])?(?:\s+(?P<name>.*))?$", re.IGNORECASE)
_CSV_LINE = re.compile(r'^(?:"[^"]*"|[^\s,"]+)\s*,')
_CSV_HEADER = re.compile(
    r'^"?\s*(count|qty|quantity|amount|copies|number|#)\s*"?\s*,\s*"?\s*(name|card|card name|cardname)\s*"?\s*$',
    re.IGNORECASE,
)
_SIDEBOARD_PREFIX = re.compile(r"^sb:\s*", re.IGNORECASE)
_ARENA_PRINTING = re.compile(r"\s+(\([A-Za-z0-9]{2,6}\)(?:\s+[A-Za-z0-9-]+)?(?:\s+\*[A-Za-z]+\*)?)$")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


@dataclass(frozen=True, slots=True)
class Entry:
    """One card line: ``count`` copies of ``name`` in ``section``, from line ``line``.

    ``printing`` keeps an Arena set/collector suffix (``(M10) 146``) that was split off
    the name, so resolution can retry with it for the odd card whose name ends in
    parentheses.
    """

    count: int
    name: str
    section: Section
    line: int
    line_text: str
    printing: str = ""


@dataclass(frozen=True, slots=True)
class ParsedDecklist:
    entries: tuple[Entry, ...]
    errors: tuple[DeckError, ...]

    @property
    def ok(self) -> bool:
        return not self.errors

    def section(self, section: Section) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.section is section)


def clip(text: str, limit: int = LINE_TEXT_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, with "…" where it was cut."""
    return text if len(text) <= limit else text[:limit] + "…"


def _error(code: ErrorCode, message: str, line: int | None = None, text: str | None = None) -> DeckError:
    return DeckError(code=code, message=message, line=line, line_text=None if text is None else clip(text))


def _header(line: str) -> tuple[bool, Section | None]:
    """Whether ``line`` is a section header, and which section it opens (None: ignored)."""
    match = _HEADER.match(line)
    if match is None:
        return False, None
    word = " ".join(match.group(1).lower().split())
    if word not in _HEADERS:
        return False, None
    return True, _HEADERS[word]


def _split_csv(line: str) -> list[str] | None:
    try:
        return [field.strip() for field in next(csv.reader([line], skipinitialspace=True))]
    except (csv.Error, StopIteration):
        return None


def parse_decklist(
    text: str,
    *,
    max_chars: int = MAX_CHARS,
    max_lines: int = MAX_LINES,
    max_copies: int = MAX_COPIES_PER_LINE,
) -> ParsedDecklist:
    """Parse pasted decklist text. Never raises: problems come back in ``errors``."""
    lines = _lines(text, max_chars, max_lines)
    if isinstance(lines, DeckError):
        return ParsedDecklist((), (lines,))
    entries, errors = _read(lines, max_copies)
    if not entries and not errors:
        errors.append(_error(ErrorCode.PARSE_NO_CARDS, N_("The list has no card lines.")))
    return ParsedDecklist(tuple(entries), tuple(errors))


def _lines(text: str, max_chars: int, max_lines: int) -> list[str] | DeckError:
    """The text's lines, trailing blank ones dropped, or the refusal of the whole text (too long,
    empty, too many lines) before any line is read."""
    if len(text) > max_chars:
        return _error(
            ErrorCode.PARSE_TOO_LONG,
            N_(
                "The list has %(count)s characters; the limit is %(limit)s.", count=len(text), limit=max_chars
            ),
        )
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        return _error(ErrorCode.PARSE_EMPTY, N_("The list is empty."))
    if len(lines) > max_lines:
        return _error(
            ErrorCode.PARSE_TOO_MANY_LINES,
            N_("The list has %(count)s lines; the limit is %(limit)s.", count=len(lines), limit=max_lines),
        )
    return lines


@dataclass
class _Sections:
    """Which section the next card line goes to: the one a header opened, or the one a blank line
    opened after it (the sideboard after main-deck cards, as MTGO writes it; the main deck again
    after a commander or companion); ``None``: a section whose lines are ignored ("About")."""

    section: Section | None = Section.MAIN
    after_blank: Section | None = None
    main_seen: bool = False

    def blank(self) -> None:
        if self.section is Section.MAIN and self.main_seen:
            self.after_blank = Section.SIDEBOARD
        elif self.section is not Section.MAIN and self.section is not Section.SIDEBOARD:
            self.after_blank = Section.MAIN

    def open(self, section: Section | None) -> None:
        self.section, self.after_blank = section, None

    def ignored(self) -> bool:
        return self.section is None and self.after_blank is None

    def target(self) -> Section:
        return self.after_blank or self.section or Section.MAIN

    def card(self, entry: Entry, sideboard_prefixed: bool) -> None:
        """A card line was read: its section stays open, unless only its "SB:" prefix put it there."""
        if entry.section is Section.MAIN:
            self.main_seen = True
        self.section, self.after_blank = self.section if sideboard_prefixed else entry.section, None


def _read(lines: list[str], max_copies: int) -> tuple[list[Entry], list[DeckError]]:
    """Every line in turn: blank lines, headers, comments and a CSV header steer or are skipped;
    each card line gives an entry or a line-numbered error."""
    entries: list[Entry] = []
    errors: list[DeckError] = []
    sections = _Sections()
    csv_header_allowed = True
    for number, raw in enumerate(lines, start=1):
        line = " ".join(raw.replace("\u00a0", " ").split())
        if not line:
            sections.blank()
            continue
        if _CONTROL.search(raw):
            errors.append(
                _error(
                    ErrorCode.PARSE_INVALID_CHARACTER,
                    N_("The line contains a control character."),
                    number,
                    line,
                )
            )
            continue
        is_header, opened = _header(line)
        if is_header:
            sections.open(opened)
            continue
        if line.startswith(("//", "#")) or sections.ignored():
            continue
        if csv_header_allowed and _CSV_HEADER.match(line):
            csv_header_allowed = False
            continue
        csv_header_allowed = False
        card = _card(line, number, sections.target(), max_copies)
        if isinstance(card, DeckError):
            errors.append(card)
            continue
        sections.card(card, sideboard_prefixed=_SIDEBOARD_PREFIX.match(line) is not None)
        entries.append(card)
    return entries, errors


def _card(line: str, number: int, target: Section, max_copies: int) -> Entry | DeckError:
    """One card line (``4 Name``, ``4x Name (SET) 1``, ``SB: 2 Name``, ``count,name``) as an entry."""
    body = line
    if _SIDEBOARD_PREFIX.match(body):
        body = _SIDEBOARD_PREFIX.sub("", body)
        target = Section.SIDEBOARD
    parts = _count_and_name(body, number, line)
    if isinstance(parts, DeckError):
        return parts
    count_text, name, printing = parts
    if not name:
        return _error(
            ErrorCode.PARSE_MISSING_NAME,
            N_("Line %(line)s has no card name.", line=number),
            number,
            line,
        )
    count = _copies(count_text, number, line, max_copies)
    if isinstance(count, DeckError):
        return count
    return Entry(count=count, name=name, section=target, line=number, line_text=line, printing=printing)


def _count_and_name(body: str, number: int, line: str) -> tuple[str, str, str] | DeckError:
    """The count as written, the card name and an Arena printing split off it, from a CSV row or a
    count-first line."""
    if _CSV_LINE.match(body):
        fields = _split_csv(body)
        if fields is None or len(fields) != 2:
            return _error(
                ErrorCode.PARSE_BAD_CSV,
                N_("A CSV row needs exactly two columns: count,name."),
                number,
                line,
            )
        return fields[0], fields[1], ""
    match = _CARD_LINE.match(body)
    if match is None:
        return _error(
            ErrorCode.PARSE_MISSING_COUNT,
            N_(
                "Line %(line)s should start with a number of copies, e.g. '4 %(card)s'.",
                line=number,
                card=clip(body),
            ),
            number,
            line,
        )
    count_text, name = match.group("count"), (match.group("name") or "").strip()
    found = _ARENA_PRINTING.search(name)
    if found is not None:
        return count_text, name[: found.start()].strip(), found.group(1)
    return count_text, name, ""


def _copies(count_text: str, number: int, line: str, max_copies: int) -> int | DeckError:
    """The number of copies a count gives, or why it gives none."""
    # isdecimal, not isdigit: "²" is a digit that int() refuses. All zeros is below 1.
    if not count_text.isdecimal() or not count_text.strip("0"):
        return _error(
            ErrorCode.PARSE_BAD_COUNT,
            N_(
                "Line %(line)s: %(problem)s",
                line=number,
                problem=N_("%(count)r is not a positive whole number of copies.", count=clip(count_text)),
            ),
            number,
            line,
        )
    # Leading zeros go, and a count longer than the limit's digits is too large without
    # converting it: Python refuses to turn over 4,300 digits into an int (a ValueError).
    count_text = count_text.lstrip("0")
    if len(count_text) > len(str(max_copies)) or int(count_text) > max_copies:
        return _error(
            ErrorCode.PARSE_COUNT_TOO_LARGE,
            N_(
                "Line %(line)s: %(problem)s",
                line=number,
                problem=N_(
                    "%(count)s copies; at most %(limit)s per line.",
                    count=clip(count_text),
                    limit=max_copies,
                ),
            ),
            number,
            line,
        )
    return int(count_text)
