"""Unified Deck Construction for a 2HG Constructed team, in both modes of docs/rules.md#unified-deck-construction.

* ``mtr`` (default, MTR 8.4 since 2016-07-22): apart from cards with the basic supertype,
  no card is in more than one teammate's deck; a card whose own text lifts the copy
  limit may do so (more than 4 copies) in one deck of the team only (since 2018-10-05).
* ``legacy4`` (the seeds' older rule, for casual events): at most 4 copies of a card across
  the team's decks, basics aside, and a restricted card once per team. A card with its
  own limit keeps it across the team (7 Seven Dwarves in total, any number of Rats).

The per-deck limits (4, restricted 1, the card's own limit) are checked per deck by
``construction.check_constructed_deck`` in both modes; this module only adds what is
about the team. Works for teams of any size (2HG is 2, other team formats 3 or 4). The
verdict never depends on the order of the decks: names and players are iterated sorted.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from common.translatable import N_
from decklists.domain.cards import DEFAULT_COPY_LIMIT, CardIndex, Legality
from decklists.domain.decks import Deck
from decklists.domain.errors import DeckError, ErrorCode, sorted_errors
from tournaments.domain.choices import Format, UdcMode

LIMITED_FORMATS = frozenset(Format.limited())


@dataclass(frozen=True, slots=True)
class UnifiedDeckConstruction:
    mode: UdcMode = UdcMode.MTR

    def applies(self, decks: Sequence[Deck]) -> bool:
        """UDC applies to a team of two or more decks all in the same Constructed format."""
        formats = {deck.format for deck in decks}
        return len(decks) >= 2 and len(formats) == 1 and not formats <= LIMITED_FORMATS

    def check(
        self, decks: Sequence[Deck], index: CardIndex, *, on: datetime.date | None = None
    ) -> tuple[DeckError, ...]:
        """Team-level UDC errors, or none if UDC does not apply to these decks; restrictions
        are those in force on ``on`` (the event's date)."""
        if not self.applies(decks):
            return ()
        if self.mode is UdcMode.MTR:
            return self._check_mtr(decks, index)
        return self._check_legacy4(decks, index, on=on)

    @staticmethod
    def _usage(decks: Sequence[Deck], index: CardIndex) -> dict[str, dict[str, int]]:
        """Non-basic card name → {player: copies}, the only cards UDC is about.

        A name missing from the card data counts as non-basic: it is still a card two
        teammates cannot share, and the per-deck check reports it as UNKNOWN_CARD.
        """
        usage: dict[str, dict[str, int]] = {}
        for deck in decks:
            for name, count in deck.main.items():
                card = index.get(name)
                if count <= 0 or (card is not None and card.is_basic_land):
                    continue
                per_player = usage.setdefault(name, {})
                per_player[deck.player] = per_player.get(deck.player, 0) + count
        return usage

    def _check_mtr(self, decks: Sequence[Deck], index: CardIndex) -> tuple[DeckError, ...]:
        errors: list[DeckError] = []
        usage = self._usage(decks, index)
        for name in sorted(usage):
            if len(usage[name]) > 1:
                players = tuple(sorted(usage[name]))
                errors.append(
                    DeckError(
                        ErrorCode.UDC_SHARED_CARD,
                        N_(
                            "%(card)s is in the decks of %(players)s; under Unified Deck Construction "
                            "a card other than a basic land may be in only one deck of the team.",
                            card=name,
                            players=", ".join(players),
                        ),
                        card=name,
                        players=players,
                    )
                )
        overriding: dict[str, list[str]] = {}
        for name in sorted(usage):
            card = index.get(name)
            if card is None or not card.overrides_copy_limit:
                continue
            for player, count in usage[name].items():
                if count > DEFAULT_COPY_LIMIT:
                    overriding.setdefault(player, []).append(f"{count} {name}")
        if len(overriding) > 1:
            players = tuple(sorted(overriding))
            detail = "; ".join(f"{p}: {', '.join(overriding[p])}" for p in players)
            errors.append(
                DeckError(
                    ErrorCode.UDC_OVERRIDE_TWO_DECKS,
                    N_(
                        "More than one deck goes past 4 copies through a card's own text (%(detail)s); "
                        "only one deck of the team may.",
                        detail=detail,
                    ),
                    players=players,
                )
            )
        return sorted_errors(errors)

    def _check_legacy4(
        self, decks: Sequence[Deck], index: CardIndex, *, on: datetime.date | None
    ) -> tuple[DeckError, ...]:
        errors: list[DeckError] = []
        format_id = decks[0].format
        usage = self._usage(decks, index)
        for name in sorted(usage):
            per_player = usage[name]
            if len(per_player) < 2:
                continue
            players = tuple(sorted(per_player))
            total = sum(per_player.values())
            card = index.get(name)
            if card is None:
                continue
            if index.legality(card, format_id, on) is Legality.RESTRICTED:
                errors.append(
                    DeckError(
                        ErrorCode.UDC_RESTRICTED_TEAM,
                        N_(
                            "%(card)s is restricted: one copy per team, but %(players)s register %(total)s.",
                            card=name,
                            players=", ".join(players),
                            total=total,
                        ),
                        card=name,
                        players=players,
                    )
                )
                continue
            limit = card.max_copies
            if limit is not None and total > limit:
                errors.append(
                    DeckError(
                        ErrorCode.UDC_OVER_4_COMBINED,
                        N_(
                            "%(total)s copies of %(card)s across the decks of %(players)s; "
                            "the team may have %(limit)s in total.",
                            total=total,
                            card=name,
                            players=", ".join(players),
                            limit=limit,
                        ),
                        card=name,
                        players=players,
                    )
                )
        return sorted_errors(errors)
