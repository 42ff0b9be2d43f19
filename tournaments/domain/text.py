"""How names are compared and posted, written once for pages, printed sheets, search and the API.

``fold`` is the search key: case- and accent-insensitive, so "jose" finds "José" (the page's
script, static/js/pairings_search.js, folds the same way for the as-you-type filter). Names are
posted last name first and sorted by ``name_sort_key``, as pairings by name are on the wall.

Names in any script (why not ICU: PyICU needs the C library and a large wheel, and these lists
need three rules that ``unicodedata`` gives exactly): Latin, Greek and Cyrillic names sort by family
name with accents folded; Japanese, Chinese and Korean names are written family name first
("山田 太郎"), are never turned around, and sort by their reading when one is given (katakana and
hiragana alike), else by code point, after the others; anything else by code point.
"""

from __future__ import annotations

import unicodedata

from common.translatable import N_


def fold(text: str) -> str:
    """Case- and accent-insensitive form of ``text``, whitespace collapsed."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.casefold().split())


_KATAKANA = range(0x30A1, 0x30F7)


def _is_east_asian(char: str) -> bool:
    return unicodedata.name(char, "").startswith(("CJK ", "HIRAGANA", "KATAKANA", "HANGUL"))


def is_family_name_first(name: str) -> bool:
    """Whether the name is written family name first: it starts in a CJK script."""
    first = next((c for c in name if not c.isspace()), "")
    return bool(first) and _is_east_asian(first)


def family_name(name: str) -> str:
    """The family name: the first word of a CJK name, else the last word."""
    parts = name.split()
    if not parts:
        return ""
    return parts[0] if is_family_name_first(name) else parts[-1]


def last_first(name: str) -> str:
    """``"Ann Marie Lee"`` → ``"Lee, Ann Marie"``: how pairings by name are posted; a CJK name is
    already family name first and stays as written (``"山田 太郎"``)."""
    parts = name.split()
    if len(parts) < 2 or is_family_name_first(name):
        return name
    return f"{parts[-1]}, {' '.join(parts[:-1])}"


def last_name_key(name: str) -> str:
    """The family name, folded: the first sort key of a list by name."""
    return fold(family_name(name))


def _kana_folded(text: str) -> str:
    return "".join(chr(ord(c) - 0x60) if ord(c) in _KATAKANA else c for c in text)


_READING_PUNCTUATION = frozenset(" -'.・ー")


def _is_reading_char(char: str) -> bool:
    if char in _READING_PUNCTUATION:
        return True
    script = unicodedata.name(char, "")
    return script.startswith(("HIRAGANA", "KATAKANA")) or (script.startswith("LATIN") and char.isalpha())


def clean_reading(reading: str) -> str:
    """A name's reading as stored: width-normalised (half-width katakana become full-width), spaces
    collapsed."""
    return " ".join(unicodedata.normalize("NFKC", reading).split())


def reading_problem(reading: str) -> N_ | None:
    """Why a name's reading cannot be stored, or None: a reading is kana (hiragana or katakana) or
    Latin letters (romaji), as a list by name sorts by it; an empty reading is no reading."""
    cleaned = clean_reading(reading)
    if len(cleaned) > 100:
        return N_("a name's reading has at most 100 characters")
    wrong = next((c for c in cleaned if not _is_reading_char(c)), None)
    if wrong is not None:
        return N_("a name's reading is written in kana or Latin letters, not %(character)s", character=wrong)
    return None


def name_sort_key(name: str, reading: str = "") -> tuple[int, str, str]:
    """Sort players by family name (accents folded), then the whole name; CJK names after the
    others, by their reading when given (kana folded), else by code point."""
    if is_family_name_first(name):
        return (1, _kana_folded(unicodedata.normalize("NFKC", reading)) if reading.strip() else name, name)
    return (0, last_name_key(name), fold(name))


def initial(name: str) -> str:
    """The letter a name is filed under on the printed sheets: its last name's first letter, with
    accents folded ("Ærø" under A, "Élodie" under E); anything else files under "#"."""
    key = fold(last_name_key(name))[:1].upper()
    return key if "A" <= key <= "Z" else "#"
