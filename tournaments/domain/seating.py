"""Seat order at a 2HG table: the primary player sits on the right (MTR 9.4(1)).

A team may change who is primary before each match, so the order recorded for the match wins;
without one, registration order stands (the first registered player is primary).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

Member = TypeVar("Member")


def seat_order(
    members: Iterable[Member],
    recorded: Sequence[int] | None,
    *,
    member_id: Callable[[Member], int],
    position: Callable[[Member], int],
) -> list[Member]:
    """The team's members, primary first: those in ``recorded`` in that order, then the rest by position."""
    rank = {pk: index for index, pk in enumerate(recorded or ())}
    return sorted(members, key=lambda m: (rank.get(member_id(m), len(rank)), position(m)))
