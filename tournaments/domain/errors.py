"""Domain exceptions of the Swiss engine.

They say what failed and where, so the API layer can map them to a 4xx answer; a broken invariant
inside the engine stays a plain exception (a 500), because it is a bug, not a user error.
"""

from __future__ import annotations


class TournamentError(ValueError):
    """Base class: the input describes an event the rules do not allow."""


class ResultError(TournamentError):
    """A match result is malformed (negative games, a bye with an opponent, a team playing itself)."""


class SettingsError(TournamentError):
    """An event setting has a value the engine does not understand (an unknown tiebreaker, a bad floor)."""


class PairingError(TournamentError):
    """A round cannot be paired from the given state (too few active teams, round already played)."""


class PlayoffError(TournamentError):
    """A playoff input breaks the single-elimination rules (a draw, a team outside the bracket)."""
