"""Per-deck construction rules for 2HG Constructed and the team pool rules for 2HG Limited.

Rules: docs/rules.md#constructed-decks and docs/rules.md#limited-decks, the choices in
docs/decisions.md. Every check returns a tuple of :class:`DeckError` in a
canonical order; none raises for a bad deck, because the judge needs all problems at once.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from common.translatable import N_
from decklists.domain.banlists import BanListChange
from decklists.domain.cards import DEFAULT_COPY_LIMIT, Card, CardIndex, Legality
from decklists.domain.decks import Deck
from decklists.domain.errors import DeckError, ErrorCode, sorted_errors
from decklists.domain.udc import UdcMode, UnifiedDeckConstruction

CONSTRUCTED_MIN_DECK = 60
LIMITED_MIN_DECK = 40
TWO_HG_BANNED_FRONT_FACES = frozenset({"Erayo, Soratami Ascendant"})
"""MTR 9.5: banned in *all* 2HG Constructed formats, on top of each format's own list."""

LIMITED_BASICS = frozenset({"Plains", "Island", "Swamp", "Mountain", "Forest"})
"""MTR 7.2: the only cards a Limited deck may add from outside the pool (no Wastes, no snow)."""


class LimitedKind(StrEnum):
    SEALED = "sealed"
    DRAFT = "draft"


DEFAULT_BOOSTERS: dict[LimitedKind, int] = {LimitedKind.SEALED: 8, LimitedKind.DRAFT: 6}
"""MTR App. D / 9.7: boosters per 2HG team; an event may register another number."""


@dataclass(frozen=True, slots=True)
class LimitedPool:
    """A team's registered Limited pool: canonical name → copies opened or drafted."""

    kind: LimitedKind
    cards: Mapping[str, int]
    boosters: int = 0

    @property
    def booster_count(self) -> int:
        return self.boosters or DEFAULT_BOOSTERS[self.kind]


@dataclass(frozen=True, slots=True)
class TeamVerdict:
    """All problems of a team's registration; ``errors`` is empty when it is legal."""

    errors: tuple[DeckError, ...]
    udc_applied: bool = False
    shared_sideboard: Mapping[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors


def _players(deck: Deck) -> tuple[str, ...]:
    return (deck.player,)


def check_constructed_deck(
    deck: Deck, index: CardIndex, *, on: datetime.date | None = None
) -> tuple[DeckError, ...]:
    """One player's 2HG Constructed deck: size, no sideboard, legality under the lists in force
    on ``on`` (the event's date), copy limits, 2HG ban."""
    players = _players(deck)
    errors: list[DeckError] = []
    if deck.format not in index.formats:
        known = ", ".join(sorted(index.formats))
        return (
            DeckError(
                ErrorCode.UNKNOWN_FORMAT,
                N_("Unknown format %(format)r (known: %(known)s).", format=deck.format, known=known),
                players=players,
            ),
        )
    size = deck.main_count
    if size < CONSTRUCTED_MIN_DECK:
        errors.append(
            DeckError(
                ErrorCode.DECK_TOO_SMALL,
                N_(
                    "%(player)s: the deck has %(size)s cards; 2HG Constructed needs at least %(minimum)s.",
                    player=deck.player,
                    size=size,
                    minimum=CONSTRUCTED_MIN_DECK,
                ),
                players=players,
            )
        )
    side = sum(deck.sideboard.values())
    if side:
        errors.append(
            DeckError(
                ErrorCode.SIDEBOARD_NOT_ALLOWED,
                N_(
                    "%(player)s: %(count)s sideboard cards registered; 2HG Constructed has no sideboard.",
                    player=deck.player,
                    count=side,
                ),
                players=players,
            )
        )
    for name in deck.companion:
        errors.append(
            DeckError(
                ErrorCode.SIDEBOARD_NOT_ALLOWED,
                N_(
                    "%(player)s: companion %(card)r needs a sideboard, and 2HG Constructed has none.",
                    player=deck.player,
                    card=name,
                ),
                card=name,
                players=players,
            )
        )
    for name in deck.commander:
        errors.append(
            DeckError(
                ErrorCode.COMMANDER_NOT_ALLOWED,
                N_(
                    "%(player)s: 2HG has no commander; list %(card)r in the deck instead.",
                    player=deck.player,
                    card=name,
                ),
                card=name,
                players=players,
            )
        )
    for name, count in deck.main.items():
        card = index.get(name)
        if card is None:
            errors.append(
                DeckError(
                    ErrorCode.UNKNOWN_CARD,
                    N_(
                        "%(player)s: %(card)r is not in the card data (stale name?).",
                        player=deck.player,
                        card=name,
                    ),
                    card=name,
                    players=players,
                )
            )
            continue
        legality = index.legality(card, deck.format, on)
        errors.extend(_card_errors(card, count, deck, legality, index.list_change(card, deck.format, on)))
    return sorted_errors(errors)


def _card_errors(
    card: Card, count: int, deck: Deck, legality: Legality, change: BanListChange | None
) -> Iterable[DeckError]:
    """``change``: the dated list change that made the card banned or restricted, which the
    refusal names, since a player who checked the list last month may not know of it."""
    players = _players(deck)
    since = change.effective.isoformat() if change is not None and change.dated else None
    if card.face_names[0] in TWO_HG_BANNED_FRONT_FACES:
        yield DeckError(
            ErrorCode.TWO_HG_BANNED,
            N_(
                "%(player)s: %(card)s is banned in every 2HG Constructed format.",
                player=deck.player,
                card=card.name,
            ),
            card=card.name,
            players=players,
        )
        return
    if legality is Legality.BANNED:
        message = (
            N_(
                "%(player)s: %(card)s: banned in %(format)s since %(date)s.",
                player=deck.player,
                card=card.name,
                format=deck.format.capitalize(),
                date=since,
            )
            if since
            else N_(
                "%(player)s: %(card)s is banned in %(format)s.",
                player=deck.player,
                card=card.name,
                format=deck.format.capitalize(),
            )
        )
        yield DeckError(ErrorCode.BANNED, message, card=card.name, players=players)
        return
    if legality is Legality.NOT_LEGAL:
        yield DeckError(
            ErrorCode.NOT_LEGAL,
            N_(
                "%(player)s: %(card)s is not legal in %(format)s.",
                player=deck.player,
                card=card.name,
                format=deck.format.capitalize(),
            ),
            card=card.name,
            players=players,
        )
        return
    if legality is Legality.RESTRICTED and count > 1:
        message = (
            N_(
                "%(player)s: %(count)s copies of %(card)s, restricted in %(format)s since %(date)s "
                "(1 allowed).",
                player=deck.player,
                count=count,
                card=card.name,
                format=deck.format.capitalize(),
                date=since,
            )
            if since
            else N_(
                "%(player)s: %(count)s copies of %(card)s, which is restricted in %(format)s (1 allowed).",
                player=deck.player,
                count=count,
                card=card.name,
                format=deck.format.capitalize(),
            )
        )
        yield DeckError(ErrorCode.RESTRICTED_OVER_1, message, card=card.name, players=players)
        return
    limit = card.max_copies
    if limit is not None and count > limit:
        rule = N_("the normal limit") if limit == DEFAULT_COPY_LIMIT else N_("the card's own limit")
        yield DeckError(
            ErrorCode.TOO_MANY_COPIES,
            N_(
                "%(player)s: %(count)s copies of %(card)s; %(rule)s is %(limit)s.",
                player=deck.player,
                count=count,
                card=card.name,
                rule=rule,
                limit=limit,
            ),
            card=card.name,
            players=players,
        )


def check_constructed_team(
    decks: Sequence[Deck],
    index: CardIndex,
    *,
    udc_mode: UdcMode = UdcMode.MTR,
    on: datetime.date | None = None,
) -> TeamVerdict:
    """A 2HG Constructed team: each deck on its own, then Unified Deck Construction.

    UDC is applied only when every deck is in the same format (MTR 8.4); the verdict says
    whether it was, so the UI can tell "legal" from "not checked".
    """
    errors: list[DeckError] = []
    for deck in decks:
        errors.extend(check_constructed_deck(deck, index, on=on))
    udc = UnifiedDeckConstruction(udc_mode)
    applied = udc.applies(decks)
    if applied:
        errors.extend(udc.check(decks, index, on=on))
    return TeamVerdict(errors=sorted_errors(errors), udc_applied=applied)


def shared_sideboard(pool: LimitedPool, decks: Sequence[Deck]) -> dict[str, int]:
    """What is left of the pool after the team's decks: the team's shared sideboard.

    The five basic land types are free in Limited, so a deck's Mountains are taken from the
    land station, never from the pool: the pool's own basics stay in the sideboard.
    """
    used: dict[str, int] = {}
    for deck in decks:
        for name, count in deck.main.items():
            if name not in LIMITED_BASICS:
                used[name] = used.get(name, 0) + count
    left = {name: count - used.get(name, 0) for name, count in pool.cards.items()}
    return {name: count for name, count in sorted(left.items()) if count > 0}


def check_limited_team(pool: LimitedPool, decks: Sequence[Deck]) -> TeamVerdict:
    """2HG Sealed/Draft: each deck ≥ 40 from the team's pool plus the five basic land types.

    Copies are summed across the team's decks and compared with the pool; there is no
    4-copy limit in Limited. A player's own ``sideboard`` section is ignored: the shared
    sideboard is, by rule, whatever the decks leave of the pool.
    """
    errors: list[DeckError] = []
    used: dict[str, int] = {}
    users: dict[str, set[str]] = {}
    for deck in decks:
        players = _players(deck)
        size = deck.main_count
        if size < LIMITED_MIN_DECK:
            errors.append(
                DeckError(
                    ErrorCode.DECK_TOO_SMALL,
                    N_(
                        "%(player)s: the deck has %(size)s cards; 2HG %(format)s needs at least %(minimum)s.",
                        player=deck.player,
                        size=size,
                        format=pool.kind.value,
                        minimum=LIMITED_MIN_DECK,
                    ),
                    players=players,
                )
            )
        for name in deck.commander:
            errors.append(
                DeckError(
                    ErrorCode.COMMANDER_NOT_ALLOWED,
                    N_(
                        "%(player)s: 2HG has no commander; list %(card)r in the deck instead.",
                        player=deck.player,
                        card=name,
                    ),
                    card=name,
                    players=players,
                )
            )
        for name, count in deck.main.items():
            if name in LIMITED_BASICS:
                continue
            used[name] = used.get(name, 0) + count
            users.setdefault(name, set()).add(deck.player)
    for name in sorted(used):
        players = tuple(sorted(users[name]))
        available = pool.cards.get(name, 0)
        if available == 0:
            errors.append(
                DeckError(
                    ErrorCode.NOT_IN_POOL,
                    N_(
                        "%(players)s: %(card)s is not in the team's pool.",
                        players=", ".join(players),
                        card=name,
                    ),
                    card=name,
                    players=players,
                )
            )
        elif used[name] > available:
            errors.append(
                DeckError(
                    ErrorCode.OVER_POOL_COUNT,
                    N_(
                        "%(players)s: %(count)s copies of %(card)s in the team's decks; the pool has %(available)s.",
                        players=", ".join(players),
                        count=used[name],
                        card=name,
                        available=available,
                    ),
                    card=name,
                    players=players,
                )
            )
    return TeamVerdict(errors=sorted_errors(errors), shared_sideboard=shared_sideboard(pool, decks))
