"""The clock's one error hierarchy (as Tabbycat separates user errors from fatal ones).

A ``ClockUserError`` is a step the rules or the round's history do not allow: the services turn
it into a 400/409 carrying its stable ``code``. Anything else raised in the clock core is a bug
(a 500). The two kinds of refusal differ only in which part of the core refuses.
"""

from __future__ import annotations


class ClockUserError(Exception):
    """A refused clock or end-of-round step; ``code`` is a stable machine-readable reason."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class ClockError(ClockUserError):
    """Starting, pausing, resuming or timing the round is not allowed now."""


class EndOfRoundError(ClockUserError):
    """An end-of-round step (time called, extra turns, extensions) the procedure does not allow."""
