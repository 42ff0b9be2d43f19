"""Every value set an event setting or a match row takes, defined once, here in the pure core.

Each is a ``StrEnum`` whose members carry a label, so Django's ``choices`` (models, forms,
serializers), the penalties, decklists and clock cores, and the export all use these classes:
``tournaments.enums`` re-exports them for the adapters. A stored value passes straight in
(``Rel("competitive")``) and a member compares equal to its stored string.
"""

from __future__ import annotations

from enum import EnumType, StrEnum
from typing import Any


class _ChoicesType(EnumType):
    """Gives each enum class Django's ``choices`` / ``values`` / ``labels`` shape, without Django."""

    @property
    def choices(cls) -> list[tuple[str, str]]:
        members: list[Any] = list(cls)
        return [(member.value, member.label) for member in members]

    @property
    def values(cls) -> list[str]:
        members: list[Any] = list(cls)
        return [member.value for member in members]

    @property
    def labels(cls) -> list[str]:
        members: list[Any] = list(cls)
        return [member.label for member in members]


def gettext_noop(message: str) -> str:
    """Marks a label for translation (``make messages`` collects it) without Django: the adapters
    translate it when they show it (``{% translate tournament.get_rel_display %}``, the forms)."""
    return message


class Choices(StrEnum, metaclass=_ChoicesType):
    """A ``StrEnum`` whose members are written ``NAME = "value", "Label"``."""

    label: str

    def __new__(cls, value: str, label: str | None = None) -> Any:
        member = str.__new__(cls, value)
        member._value_ = value
        member.label = label if label is not None else value
        return member


class Language(Choices):
    """The shipped languages (``LANGUAGES``, ``locale/``), each labelled in its own language as a
    language menu shows it; an event prints its documents and projects its clock in one of them."""

    EN = "en", "English"
    ES = "es", "Español"
    PT_BR = "pt-br", "Português (Brasil)"
    JA = "ja", "日本語"


class Format(Choices):
    STANDARD = "standard", gettext_noop("Standard")
    PIONEER = "pioneer", gettext_noop("Pioneer")
    MODERN = "modern", gettext_noop("Modern")
    LEGACY = "legacy", gettext_noop("Legacy")
    VINTAGE = "vintage", gettext_noop("Vintage")
    PAUPER = "pauper", gettext_noop("Pauper")
    PREMODERN = "premodern", gettext_noop("Premodern")
    SEALED = "sealed", gettext_noop("Sealed")
    DRAFT = "draft", gettext_noop("Booster Draft")

    @classmethod
    def limited(cls) -> set[str]:
        return {cls.SEALED, cls.DRAFT}


class Rel(Choices):
    """Rules Enforcement Level [MTR 1.12]: Regular uses the JAR, Competitive and Professional the IPG."""

    REGULAR = "regular", gettext_noop("Regular")
    COMPETITIVE = "competitive", gettext_noop("Competitive")
    PROFESSIONAL = "professional", gettext_noop("Professional")


class PenaltyPolicy(Choices):
    """How a Game Loss is handled in a single-game 2HG match (docs/rules.md#game-loss-in-2hg, ``penalty_policy``).

    ``MATCH_POINT`` (default) is the 2009 "2HG Guide for Judges"; ``IPG`` is the current IPG alone.
    """

    MATCH_POINT = "match_point", gettext_noop("2HG match-point penalty (judges' guide)")
    IPG = "ipg", gettext_noop("Current IPG only")


class UdcMode(Choices):
    """Unified Deck Construction across a team (docs/rules.md#unified-deck-construction, ``udc_mode``)."""

    MTR = "mtr", gettext_noop("MTR: no card in two teammates' decks")
    LEGACY4 = "legacy4", gettext_noop("Legacy: at most 4 copies across the team")


class PercentageFloor(Choices):
    ONE_THIRD = "1/3", gettext_noop("1/3")
    MTR_033 = "0.33", gettext_noop("0.33 (as the MTR prints it)")


class LateEntryMissedRounds(Choices):
    LOSS = "loss", gettext_noop("Match losses")
    BYE = "bye", gettext_noop("Byes")


class PlayoffPlayDraw(Choices):
    RANDOM = "random", gettext_noop("Random team chooses")
    HIGHER_SEED = "higher_seed", gettext_noop("Higher seed chooses")


class Tiebreaker(Choices):
    """The standings tiebreakers [MTR 3.1], in the names the event setting stores."""

    MATCH_POINTS = "match_points", gettext_noop("Match points")
    OPPONENTS_MATCH_WIN = "omw", gettext_noop("Opponents' match-win %")
    GAME_WIN = "gw", gettext_noop("Game-win %")
    OPPONENTS_GAME_WIN = "ogw", gettext_noop("Opponents' game-win %")


class TeamSide(Choices):
    """The two sides of a match, as seated on the pairing: team A and team B."""

    A = "A", gettext_noop("Team A")
    B = "B", gettext_noop("Team B")

    @property
    def other(self) -> TeamSide:
        return TeamSide.B if self is TeamSide.A else TeamSide.A
