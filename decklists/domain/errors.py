"""Decklist problems as values, with stable codes.

Validation never raises for a bad deck: a judge wants *every* problem of a submission at
once (line numbers, all UDC conflicts), so checks return tuples of :class:`DeckError`.
The codes are a public contract (API clients, translations, the printed registration
sheet), so they are a ``StrEnum`` whose values never change; new codes may be added.

:class:`DeckConstructionError` exists for the service layer, which may want to abort a
transaction with the collected errors; the domain itself never raises it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class ErrorCode(StrEnum):
    """Stable error codes. The value is what the API and the database store."""

    # Text input (parsing.py)
    PARSE_EMPTY = "PARSE_EMPTY"
    PARSE_TOO_LONG = "PARSE_TOO_LONG"
    PARSE_TOO_MANY_LINES = "PARSE_TOO_MANY_LINES"
    PARSE_INVALID_CHARACTER = "PARSE_INVALID_CHARACTER"
    PARSE_MISSING_COUNT = "PARSE_MISSING_COUNT"
    PARSE_BAD_COUNT = "PARSE_BAD_COUNT"
    PARSE_COUNT_TOO_LARGE = "PARSE_COUNT_TOO_LARGE"
    PARSE_MISSING_NAME = "PARSE_MISSING_NAME"
    PARSE_BAD_CSV = "PARSE_BAD_CSV"
    PARSE_NO_CARDS = "PARSE_NO_CARDS"
    # Card names (cards.py)
    UNKNOWN_CARD = "UNKNOWN_CARD"
    AMBIGUOUS_CARD = "AMBIGUOUS_CARD"
    # One deck (construction.py)
    UNKNOWN_FORMAT = "UNKNOWN_FORMAT"
    DECK_TOO_SMALL = "DECK_TOO_SMALL"
    SIDEBOARD_NOT_ALLOWED = "SIDEBOARD_NOT_ALLOWED"
    COMMANDER_NOT_ALLOWED = "COMMANDER_NOT_ALLOWED"
    BANNED = "BANNED"
    NOT_LEGAL = "NOT_LEGAL"
    RESTRICTED_OVER_1 = "RESTRICTED_OVER_1"
    TOO_MANY_COPIES = "TOO_MANY_COPIES"
    TWO_HG_BANNED = "TWO_HG_BANNED"
    # Team, Unified Deck Construction (udc.py)
    UDC_SHARED_CARD = "UDC_SHARED_CARD"
    UDC_OVERRIDE_TWO_DECKS = "UDC_OVERRIDE_TWO_DECKS"
    UDC_OVER_4_COMBINED = "UDC_OVER_4_COMBINED"
    UDC_RESTRICTED_TEAM = "UDC_RESTRICTED_TEAM"
    # Team, Limited (construction.py)
    NOT_IN_POOL = "NOT_IN_POOL"
    OVER_POOL_COUNT = "OVER_POOL_COUNT"


ERROR_CODE_DESCRIPTIONS: dict[ErrorCode, str] = {
    ErrorCode.PARSE_EMPTY: "The submission contains no text.",
    ErrorCode.PARSE_TOO_LONG: "The submission is longer than the character limit.",
    ErrorCode.PARSE_TOO_MANY_LINES: "The submission has more lines than the line limit.",
    ErrorCode.PARSE_INVALID_CHARACTER: "A line contains a control character.",
    ErrorCode.PARSE_MISSING_COUNT: "A card line does not start with a number of copies.",
    ErrorCode.PARSE_BAD_COUNT: "The number of copies is not a positive whole number.",
    ErrorCode.PARSE_COUNT_TOO_LARGE: "The number of copies is above the per-line maximum.",
    ErrorCode.PARSE_MISSING_NAME: "A line has a number of copies but no card name.",
    ErrorCode.PARSE_BAD_CSV: "A CSV row does not have exactly the columns count,name.",
    ErrorCode.PARSE_NO_CARDS: "The submission has no card lines at all.",
    ErrorCode.UNKNOWN_CARD: "No card has this name; up to three suggestions are given.",
    ErrorCode.AMBIGUOUS_CARD: "The name is the front face of several cards; write the full name.",
    ErrorCode.UNKNOWN_FORMAT: "The format is not one the card data knows.",
    ErrorCode.DECK_TOO_SMALL: "The main deck has fewer cards than the format minimum (60 or 40).",
    ErrorCode.SIDEBOARD_NOT_ALLOWED: "2HG Constructed has no sideboard (companions live there too).",
    ErrorCode.COMMANDER_NOT_ALLOWED: "2HG formats have no commander; list the card in the deck.",
    ErrorCode.BANNED: "The card is banned in the format.",
    ErrorCode.NOT_LEGAL: "The card is not legal in the format.",
    ErrorCode.RESTRICTED_OVER_1: "A restricted card appears more than once in a deck.",
    ErrorCode.TOO_MANY_COPIES: "More copies than 4 or than the card's own limit.",
    ErrorCode.TWO_HG_BANNED: "Erayo, Soratami Ascendant is banned in every 2HG Constructed format.",
    ErrorCode.UDC_SHARED_CARD: "UDC (mtr): a non-basic card appears in more than one teammate's deck.",
    ErrorCode.UDC_OVERRIDE_TWO_DECKS: "UDC (mtr): more than one deck exceeds 4 copies via a card's own text.",
    ErrorCode.UDC_OVER_4_COMBINED: "UDC (legacy4): the team's decks together exceed the copy limit.",
    ErrorCode.UDC_RESTRICTED_TEAM: "UDC (legacy4): a restricted card appears more than once in the team.",
    ErrorCode.NOT_IN_POOL: "Limited: a non-basic card in a deck is not in the team's pool.",
    ErrorCode.OVER_POOL_COUNT: "Limited: the team's decks use more copies than the pool holds.",
}


@dataclass(frozen=True, slots=True)
class DeckError:
    """One problem with a submission, deck or team.

    ``players`` is sorted so that a team verdict never depends on the order in which the
    decks were given. ``line``/``line_text`` are set for problems tied to a line of the
    submitted text (1-based, as an editor shows it).
    """

    code: ErrorCode
    message: str
    card: str | None = None
    players: tuple[str, ...] = ()
    line: int | None = None
    line_text: str | None = None
    suggestions: tuple[str, ...] = ()

    def with_player(self, player: str) -> DeckError:
        """Attach the submitting player to a parse-level error (parsing knows no players)."""
        return DeckError(
            code=self.code,
            message=self.message,
            card=self.card,
            players=(player,),
            line=self.line,
            line_text=self.line_text,
            suggestions=self.suggestions,
        )


def sorted_errors(errors: Iterable[DeckError]) -> tuple[DeckError, ...]:
    """Canonical order (line, code, card, players) so output is reproducible and order-free."""
    return tuple(
        sorted(
            errors,
            key=lambda e: (
                e.line if e.line is not None else 0,
                e.code.value,
                e.card or "",
                e.players,
                e.message,
            ),
        )
    )


class DeckConstructionError(Exception):
    """Raised by services (never by the domain) to abort with the collected errors."""

    def __init__(self, errors: Iterable[DeckError]) -> None:
        self.errors = tuple(errors)
        first = self.errors[0].message if self.errors else "invalid decklist"
        more = f" (+{len(self.errors) - 1} more)" if len(self.errors) > 1 else ""
        super().__init__(first + more)
