"""Card records and the name index every decklist goes through.

Name matching is forgiving where it is safe (case, spacing, curly quotes, accents,
``Fire/Ice``, front faces, MTGO Omenpath aliases) and strict where it matters: a back
face is never matched, because since 2026 a back face can repeat a classic name
(``Emeritus of Conflict // Lightning Bolt`` vs ``Lightning Bolt``), so matching it would
silently register the wrong card. Unknown names get up to three suggestions from a
trigram candidate index, so a typo costs a few milliseconds, not a difflib pass over
34,000 names.
"""

from __future__ import annotations

import copy
import datetime
import difflib
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Literal

from decklists.domain.errors import ErrorCode

if TYPE_CHECKING:
    from decklists.domain.banlists import BanListChange, BanListHistory

CopyLimit = int | Literal["any"] | None
"""``None``: the normal 4-copy rule; ``"any"``: no limit; an int: the card's own limit."""

DEFAULT_COPY_LIMIT = 4
SUGGESTION_LIMIT = 3
SUGGESTION_MIN_RATIO = 0.6
_CANDIDATES_PER_QUERY = 40
_SPLIT_LAYOUTS = frozenset({"split", "aftermath"})


class Legality(StrEnum):
    LEGAL = "legal"
    BANNED = "banned"
    RESTRICTED = "restricted"
    NOT_LEGAL = "not_legal"


LEGALITY_BY_VALUE: dict[str, Legality] = {legality.value: legality for legality in Legality}


@dataclass(frozen=True, slots=True)
class Card:
    """One oracle identity, as every card source is reduced to.

    ``is_basic_land`` means the *basic supertype* on the front face (so Snow-Covered basics
    and Wastes count), which is what the copy limit and UDC exemptions are about.
    ``legalities`` maps a format id (``"modern"``) to its :class:`Legality`; a format
    missing from the map is not legal.
    """

    name: str
    face_names: tuple[str, ...]
    layout: str
    type_line: str
    is_basic_land: bool
    copies_limit: CopyLimit
    legalities: Mapping[str, Legality]
    oracle_id: str | None = None
    oracle_text: str = ""
    is_funny: bool = False

    def legality(self, format_id: str) -> Legality:
        return self.legalities.get(format_id, Legality.NOT_LEGAL)

    @property
    def max_copies(self) -> int | None:
        """Per-deck copy cap, ignoring restriction: ``None`` means unlimited."""
        if self.copies_limit == "any":
            return None
        if isinstance(self.copies_limit, int):
            return self.copies_limit
        return DEFAULT_COPY_LIMIT

    @property
    def overrides_copy_limit(self) -> bool:
        """True for non-basic cards whose own text lifts the 4-copy rule (Relentless Rats)."""
        return self.copies_limit is not None and not self.is_basic_land


_PUNCTUATION = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u2032": "'",
        "`": "'",
        "\u00b4": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
        "\ua789": ":",
        "\u00a0": " ",
        "\u00c6": "Ae",
        "\u00e6": "ae",
    }
)
_SLASHES = re.compile(r"\s*/+\s*")


def name_key(text: str) -> str:
    """Fold a card name to its matching key.

    Folds case, surrounding and repeated spaces, curly quotes, accents (``Nazgul`` matches
    ``Nazgûl``), ``Æ`` and every spelling of the face separator (``Fire/Ice``,
    ``Fire//Ice``) to ``fire // ice``. Applied to index and query alike, so the rare name
    with a single slash (``Summon: Choco/Mog``) still matches itself.
    """
    folded = text.translate(_PUNCTUATION)
    if not folded.isascii():
        folded = "".join(ch for ch in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(ch))
    folded = " ".join(folded.split()).casefold()
    if "/" in folded:
        folded = _SLASHES.sub(" // ", folded)
    return folded


@dataclass(frozen=True, slots=True)
class NameMatch:
    """The outcome of looking a submitted name up: a card, or an error code with hints."""

    card: Card | None
    error: ErrorCode | None = None
    suggestions: tuple[str, ...] = ()


@dataclass(slots=True)
class _TrigramIndex:
    names: list[str]
    keys: list[str]
    postings: dict[str, list[int]] = field(default_factory=dict)

    @classmethod
    def build(cls, names: Iterable[str]) -> _TrigramIndex:
        unique = sorted(set(names))
        index = cls(names=unique, keys=[name_key(n) for n in unique])
        postings: dict[str, list[int]] = {}
        for i, key in enumerate(index.keys):
            for gram in _trigrams(key):
                postings.setdefault(gram, []).append(i)
        index.postings = postings
        return index

    def suggest(self, query: str, limit: int) -> tuple[str, ...]:
        key = name_key(query)
        if not key:
            return ()
        hits: Counter[int] = Counter()
        for gram in _trigrams(key):
            hits.update(self.postings.get(gram, ()))
        scored: list[tuple[float, str]] = []
        matcher = difflib.SequenceMatcher(autojunk=False)
        matcher.set_seq2(key)
        for i, _ in hits.most_common(_CANDIDATES_PER_QUERY):
            matcher.set_seq1(self.keys[i])
            if matcher.real_quick_ratio() < SUGGESTION_MIN_RATIO:
                continue
            ratio = matcher.ratio()
            if ratio >= SUGGESTION_MIN_RATIO:
                scored.append((-ratio, self.names[i]))
        scored.sort()
        return tuple(name for _, name in scored[:limit])


def _trigrams(key: str) -> set[str]:
    padded = f"  {key} "
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


class CardIndex:
    """Resolve submitted names to :class:`Card` records.

    Lookup order: full name, MTGO alias, front face of a multi-face card, the other halves
    of split cards when unambiguous. Never back faces of DFC/adventure/prepare cards.
    The trigram index for suggestions is built lazily, on the first unknown name, so the
    common all-valid path does not pay for it.
    """

    def __init__(
        self,
        cards: Iterable[Card],
        *,
        aliases: Mapping[str, str] | None = None,
        formats: Iterable[str] = (),
        data_date: str = "",
        ban_history: BanListHistory | None = None,
    ) -> None:
        self.cards: tuple[Card, ...] = tuple(cards)
        self.ban_history = ban_history
        self.formats: frozenset[str] = frozenset(formats) or frozenset(
            f for card in self.cards for f in card.legalities
        )
        self.data_date = data_date
        self._exact: dict[str, Card] = {}
        self._by_key: dict[str, Card] = {}
        front: dict[str, list[Card]] = {}
        halves: dict[str, list[Card]] = {}
        for card in sorted(self.cards, key=_preference):
            self._exact.setdefault(card.name, card)
            self._by_key.setdefault(name_key(card.name), card)
            if len(card.face_names) > 1:
                front.setdefault(name_key(card.face_names[0]), []).append(card)
                if card.layout in _SPLIT_LAYOUTS:
                    for face in card.face_names[1:]:
                        halves.setdefault(name_key(face), []).append(card)
        self._aliases: dict[str, Card] = {}
        self.alias_names: dict[str, str] = dict(aliases or {})
        for alias, canonical in self.alias_names.items():
            target = self._by_key.get(name_key(canonical))
            if target is not None:
                self._aliases.setdefault(name_key(alias), target)
        self._front = {k: tuple(v) for k, v in front.items() if k not in self._by_key}
        self._halves = {
            k: v[0]
            for k, v in halves.items()
            if len(v) == 1 and k not in self._by_key and k not in self._front
        }
        self._trigram: _TrigramIndex | None = None

    def __len__(self) -> int:
        return len(self.cards)

    def with_ban_history(self, ban_history: BanListHistory) -> CardIndex:
        """The same cards and names under another ban-list history, without re-indexing 34k
        cards (the stored history may be newer than the shipped snapshot's)."""
        other = copy.copy(self)
        other.ban_history = ban_history
        return other

    def legality(self, card: Card, format_id: str, on: datetime.date | None = None) -> Legality:
        """``card``'s legality in ``format_id`` under the lists in force on ``on`` (the event's
        date; ``None``: the latest lists known), see :mod:`decklists.domain.banlists`."""
        if self.ban_history is None:
            return card.legality(format_id)
        return self.ban_history.legality_on(card, format_id, on)

    def list_change(self, card: Card, format_id: str, on: datetime.date | None) -> BanListChange | None:
        """The banned/restricted list change in force on ``on`` that gives ``card`` its
        legality, if one does (what a refusal names: "banned in Modern since 2026-05-18")."""
        if self.ban_history is None:
            return None
        return self.ban_history.status_on(card, format_id, on)[1]

    def get(self, name: str) -> Card | None:
        """The card a submitted name means, or ``None`` if unknown or ambiguous."""
        return self.match(name).card

    def card(self, name: str) -> Card:
        """The card with this name; ``KeyError`` for callers that hold canonical names."""
        found = self.get(name)
        if found is None:
            raise KeyError(name)
        return found

    def match(self, name: str) -> NameMatch:
        exact = self._exact.get(name)
        if exact is not None:
            return NameMatch(exact)
        key = name_key(name)
        found = self._by_key.get(key) or self._aliases.get(key)
        if found is not None:
            return NameMatch(found)
        fronts = self._front.get(key)
        if fronts is not None:
            if len(fronts) == 1:
                return NameMatch(fronts[0])
            return NameMatch(None, ErrorCode.AMBIGUOUS_CARD, tuple(c.name for c in fronts[:SUGGESTION_LIMIT]))
        half = self._halves.get(key)
        if half is not None:
            return NameMatch(half)
        return NameMatch(None, ErrorCode.UNKNOWN_CARD, self.suggest(name))

    def suggest(self, name: str, limit: int = SUGGESTION_LIMIT) -> tuple[str, ...]:
        """Up to ``limit`` canonical names close to ``name``, best first."""
        if self._trigram is None:
            names = [c.name for c in self.cards]
            names += [c.face_names[0] for c in self.cards if len(c.face_names) > 1]
            names += list(self.alias_names)
            self._trigram = _TrigramIndex.build(names)
        return self._trigram.suggest(name, limit)


def _preference(card: Card) -> tuple[bool, bool, str]:
    """When several records share a name (un-set cards), prefer a tournament card."""
    return (card.is_funny, card.oracle_id is None, card.oracle_id or "")
