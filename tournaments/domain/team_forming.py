"""How teams come together before an event: join codes, a team's status, and forming teams from
the partner pool. Pure: the caller passes the random source's seed and the ids.

A team is *forming* while a seat is empty (fewer players than the event's team size) and
*active* once every seat is taken; only active teams are paired (docs/decisions.md "Team formation":
a player account joins a team only by accepting).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from common.translatable import N_
from tournaments.domain.choices import Choices

#: Letters and digits nobody misreads on a phone or a slip: no 0/O, 1/I/L, 5/S, 2/Z, 8/B.
JOIN_CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
#: 25^12 ≈ 6 × 10^16 codes: guessing one is hopeless even at the join-code limit's pace
#: (the arithmetic is in docs/decisions.md, "Join codes").
JOIN_CODE_LENGTH = 12
#: Shown (and printed) in groups of this many, "ACDE-FGHJ-KMNP": typed back with or without them.
JOIN_CODE_GROUP = 4


class TeamStatus(Choices):
    FORMING = "forming", "Forming: a seat is still open"
    ACTIVE = "active", "Active"


class InvitationStatus(Choices):
    PENDING = "pending", "Pending"
    ACCEPTED = "accepted", "Accepted"
    DECLINED = "declined", "Declined"
    CANCELLED = "cancelled", "Cancelled"


class PoolLeftover(Choices):
    """What happens to the players a random forming cannot seat in a full team."""

    WAIT = "wait", "They wait in the pool (for a late partner, or a team made by hand)"
    OPEN_SEAT = "open_seat", "They form a team with an open seat a latecomer joins with its code"


def team_status(players: int, team_size: int) -> TeamStatus:
    return TeamStatus.ACTIVE if players >= team_size else TeamStatus.FORMING


def new_join_code(choice=secrets.choice) -> str:
    return "".join(choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


def grouped_join_code(code: str) -> str:
    """A code as people read it out: "ACDEFGHJKMNP" → "ACDE-FGHJ-KMNP"."""
    return "-".join(code[i : i + JOIN_CODE_GROUP] for i in range(0, len(code), JOIN_CODE_GROUP))


def normalise_join_code(raw: str) -> str:
    """What a player typed, as stored: upper case, without the spaces or dashes they may add."""
    return "".join(raw.split()).replace("-", "").upper()


def join_code_problem(code: str) -> str | None:
    if len(code) != JOIN_CODE_LENGTH or any(c not in JOIN_CODE_ALPHABET for c in code):
        return N_(
            "a join code is %(length)s letters and digits, like %(example)s (the dashes are optional)",
            length=JOIN_CODE_LENGTH,
            example=grouped_join_code(JOIN_CODE_ALPHABET[:JOIN_CODE_LENGTH]),
        )
    return None


@dataclass(frozen=True)
class PoolForming:
    """The teams a forming makes (member ids in seat order) and who is left waiting."""

    teams: tuple[tuple[int, ...], ...]
    waiting: tuple[int, ...]
    seed: int


def form_pool_teams(
    members: Sequence[int], *, team_size: int, seed: int, leftover: PoolLeftover = PoolLeftover.WAIT
) -> PoolForming:
    """Shuffle the pool with ``seed`` and cut it into teams of ``team_size``.

    The same members and seed always give the same teams, so the organizer's preview is what is
    saved. Members are sorted before the shuffle: the order the pool was read in does not matter.
    """
    if team_size < 1:
        raise ValueError("a team has at least one player")
    order = sorted(set(members))
    random.Random(seed).shuffle(order)
    full = len(order) - len(order) % team_size
    teams = [tuple(order[i : i + team_size]) for i in range(0, full, team_size)]
    rest = tuple(order[full:])
    if rest and leftover == PoolLeftover.OPEN_SEAT:
        return PoolForming(teams=(*teams, rest), waiting=(), seed=seed)
    return PoolForming(teams=tuple(teams), waiting=rest, seed=seed)
