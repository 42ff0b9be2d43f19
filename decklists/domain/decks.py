"""Resolved decks: parsed entries turned into canonical card names, and back into text.

A :class:`Deck` holds canonical names only (``"Fire // Ice"``, ``"Delver of Secrets //
Insectile Aberration"``), with copies summed per name, because MTGO lists one card on
several lines (one per printing) and every rule counts by English title. Rendering goes
the other way, in the spelling each client uses (MTGO ``Fire/Ice``, Arena
``Fire // Ice``, both the front face only for double-faced cards), so a list can be
round-tripped through the parser.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from common.translatable import N_
from decklists.domain.cards import Card, CardIndex
from decklists.domain.errors import DeckError, ErrorCode, sorted_errors
from decklists.domain.parsing import Entry, ParsedDecklist, Section, clip, parse_decklist

_SPLIT_LAYOUTS = frozenset({"split", "aftermath"})


@dataclass(frozen=True, slots=True)
class Deck:
    """One player's registered deck. Maps are canonical name → copies (never mutate them)."""

    player: str
    format: str
    main: Mapping[str, int]
    sideboard: Mapping[str, int] = field(default_factory=dict)
    commander: Mapping[str, int] = field(default_factory=dict)
    companion: Mapping[str, int] = field(default_factory=dict)

    @property
    def main_count(self) -> int:
        return sum(self.main.values())


@dataclass(frozen=True, slots=True)
class DeckSubmission:
    """The result of reading a submitted text: the deck (if every line resolved) and errors."""

    deck: Deck | None
    errors: tuple[DeckError, ...]

    @property
    def ok(self) -> bool:
        return self.deck is not None and not self.errors


def _alternatives(names: tuple[str, ...]) -> str:
    """One to three card names (``CardIndex.match`` suggests at most three), quoted, as "'A' or
    'B' or 'C'" is said in the reader's language."""
    if len(names) == 1:
        return repr(names[0])
    if len(names) == 2:
        return N_("%(first)r or %(second)r", first=names[0], second=names[1])
    return N_("%(first)r or %(second)r or %(third)r", first=names[0], second=names[1], third=names[2])


def resolve_entry(entry: Entry, index: CardIndex) -> tuple[Card | None, DeckError | None]:
    """Resolve one entry's name; the error carries the line and up to three suggestions.

    The name and the line are echoed cut to :data:`~decklists.domain.parsing.LINE_TEXT_LIMIT`
    characters (``clip``), so a pasted novel on one line is not sent back in every error.
    """
    if entry.printing:
        with_printing = index.get(f"{entry.name} {entry.printing}")
        if with_printing is not None:
            return with_printing, None
    found = index.match(entry.name)
    if found.card is not None:
        return found.card, None
    name = clip(entry.name)
    if found.error is ErrorCode.AMBIGUOUS_CARD and found.suggestions:
        problem = N_(
            "%(card)r is the front face of several cards; write the full name (did you mean %(suggestions)s?).",
            card=name,
            suggestions=_alternatives(found.suggestions),
        )
    elif found.error is ErrorCode.AMBIGUOUS_CARD:
        problem = N_("%(card)r is the front face of several cards; write the full name.", card=name)
    elif found.suggestions:
        problem = N_(
            "unknown card %(card)r (did you mean %(suggestions)s?).",
            card=name,
            suggestions=_alternatives(found.suggestions),
        )
    else:
        problem = N_("unknown card %(card)r.", card=name)
    error = DeckError(
        code=found.error or ErrorCode.UNKNOWN_CARD,
        message=N_("Line %(line)s: %(problem)s", line=entry.line, problem=problem),
        card=clip(entry.name),
        line=entry.line,
        line_text=clip(entry.line_text),
        suggestions=found.suggestions,
    )
    return None, error


def resolve_decklist(
    parsed: ParsedDecklist, index: CardIndex, *, player: str, format_id: str
) -> DeckSubmission:
    """Turn parsed entries into a :class:`Deck`; any error means no deck is returned.

    Returning no deck on error is deliberate: a partial deck would trip DECK_TOO_SMALL and
    UDC checks that only confuse the player while they fix a typo.
    """
    errors = [e.with_player(player) for e in parsed.errors]
    sections: dict[Section, dict[str, int]] = {s: {} for s in Section}
    for entry in parsed.entries:
        card, error = resolve_entry(entry, index)
        if error is not None:
            errors.append(error.with_player(player))
            continue
        assert card is not None
        bucket = sections[entry.section]
        bucket[card.name] = bucket.get(card.name, 0) + entry.count
    if errors:
        return DeckSubmission(None, sorted_errors(errors))
    companion = sections[Section.COMPANION]
    sideboard = sections[Section.SIDEBOARD]
    for name, count in companion.items():
        # Arena lists the companion both in its own section and in the sideboard.
        if sideboard.get(name, 0) >= count:
            sideboard[name] -= count
            if not sideboard[name]:
                del sideboard[name]
    deck = Deck(
        player=player,
        format=format_id,
        main=sections[Section.MAIN],
        sideboard=sideboard,
        commander=sections[Section.COMMANDER],
        companion=companion,
    )
    return DeckSubmission(deck, ())


def read_deck(text: str, index: CardIndex, *, player: str, format_id: str) -> DeckSubmission:
    """Parse and resolve a pasted decklist in one call (what a submission endpoint needs)."""
    return resolve_decklist(parse_decklist(text), index, player=player, format_id=format_id)


def mtgo_name(card: Card) -> str:
    """MTGO's spelling: ``Fire/Ice`` for split cards, the front face for other multi-face cards."""
    if len(card.face_names) > 1:
        return "/".join(card.face_names) if card.layout in _SPLIT_LAYOUTS else card.face_names[0]
    return card.name


def arena_name(card: Card) -> str:
    """Arena's spelling: the full ``Fire // Ice`` for split cards, the front face otherwise."""
    if len(card.face_names) > 1:
        return card.name if card.layout in _SPLIT_LAYOUTS else card.face_names[0]
    return card.name


def _spelled(index: CardIndex, name: str, spelling: Callable[[Card], str]) -> str:
    """A client's spelling of ``name``; a name the data lacks is written as stored."""
    card = index.get(name)
    return spelling(card) if card is not None else name


def render_mtgo(deck: Deck, index: CardIndex) -> str:
    """MTGO ``.txt``: main deck, a blank line, the sideboard."""
    lines = [f"{count} {_spelled(index, name, mtgo_name)}" for name, count in deck.main.items()]
    if deck.sideboard:
        lines.append("")
        lines += [f"{count} {_spelled(index, name, mtgo_name)}" for name, count in deck.sideboard.items()]
    return "\n".join(lines) + "\n"


def render_arena(deck: Deck, index: CardIndex) -> str:
    """Arena export: ``Commander``/``Companion``/``Deck``/``Sideboard`` sections."""
    blocks: list[str] = []
    for title, cards in (
        ("Commander", deck.commander),
        ("Companion", deck.companion),
        ("Deck", deck.main),
        ("Sideboard", deck.sideboard),
    ):
        if cards:
            body = "\n".join(f"{count} {_spelled(index, name, arena_name)}" for name, count in cards.items())
            blocks.append(f"{title}\n{body}")
    return "\n\n".join(blocks) + "\n"


def render_csv(deck: Deck) -> str:
    """CSV ``count,name`` of the main deck with a header row (canonical names, quoted as needed)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["count", "name"])
    for name, count in deck.main.items():
        writer.writerow([count, name])
    return out.getvalue()
