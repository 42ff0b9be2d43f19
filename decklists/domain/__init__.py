"""Pure decklist domain: card data, parsing, per-deck and team (UDC, Limited) checks.

No Django here (a test enforces it): the adapter in ``decklists/services.py`` loads rows,
calls these functions with plain values and stores the returned errors.
"""

from __future__ import annotations

from decklists.domain.banlists import BanListChange, BanListError, BanListHistory
from decklists.domain.card_sources import (
    KNOWN_FORMATS,
    SNAPSHOT_LEGALITY_CORRECTIONS,
    SNAPSHOT_PATH,
    CardSourceError,
    copies_limit_from_text,
    is_basic_land_type,
    load_card_index,
    load_snapshot,
    parse_mtgjson_atomic_cards,
    parse_scryfall_oracle_cards,
    parse_snapshot,
    snapshot_ban_history,
)
from decklists.domain.cards import Card, CardIndex, CopyLimit, Legality, NameMatch, name_key
from decklists.domain.construction import (
    CONSTRUCTED_MIN_DECK,
    DEFAULT_BOOSTERS,
    LIMITED_BASICS,
    LIMITED_MIN_DECK,
    LimitedKind,
    LimitedPool,
    TeamVerdict,
    check_constructed_deck,
    check_constructed_team,
    check_limited_team,
    shared_sideboard,
)
from decklists.domain.decks import (
    Deck,
    DeckSubmission,
    read_deck,
    render_arena,
    render_csv,
    render_mtgo,
    resolve_decklist,
)
from decklists.domain.errors import (
    ERROR_CODE_DESCRIPTIONS,
    DeckConstructionError,
    DeckError,
    ErrorCode,
)
from decklists.domain.parsing import (
    MAX_CHARS,
    MAX_COPIES_PER_LINE,
    MAX_LINES,
    Entry,
    ParsedDecklist,
    Section,
    parse_decklist,
)
from decklists.domain.udc import UdcMode, UnifiedDeckConstruction

__all__ = [
    "CONSTRUCTED_MIN_DECK",
    "DEFAULT_BOOSTERS",
    "ERROR_CODE_DESCRIPTIONS",
    "KNOWN_FORMATS",
    "LIMITED_BASICS",
    "LIMITED_MIN_DECK",
    "MAX_CHARS",
    "MAX_COPIES_PER_LINE",
    "MAX_LINES",
    "SNAPSHOT_LEGALITY_CORRECTIONS",
    "SNAPSHOT_PATH",
    "BanListChange",
    "BanListError",
    "BanListHistory",
    "Card",
    "CardIndex",
    "CardSourceError",
    "CopyLimit",
    "Deck",
    "DeckConstructionError",
    "DeckError",
    "DeckSubmission",
    "Entry",
    "ErrorCode",
    "Legality",
    "LimitedKind",
    "LimitedPool",
    "NameMatch",
    "ParsedDecklist",
    "Section",
    "TeamVerdict",
    "UdcMode",
    "UnifiedDeckConstruction",
    "check_constructed_deck",
    "check_constructed_team",
    "check_limited_team",
    "copies_limit_from_text",
    "is_basic_land_type",
    "load_card_index",
    "load_snapshot",
    "name_key",
    "parse_decklist",
    "parse_mtgjson_atomic_cards",
    "parse_scryfall_oracle_cards",
    "parse_snapshot",
    "read_deck",
    "render_arena",
    "render_csv",
    "render_mtgo",
    "resolve_decklist",
    "shared_sideboard",
    "snapshot_ban_history",
]
