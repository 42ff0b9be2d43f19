"""Who chooses to play or draw in a playoff match (MTR 9.3, docs/rules.md#play-or-draw).

By default a randomly chosen team decides; an event may announce that the higher Swiss seed
chooses instead (the ``playoff_play_draw`` setting). The random choice is drawn from the round's
stored seed and the two team ids, so the printed chooser is the same on every reload and every
document, whichever side each team sits on.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

RANDOM = "random"
HIGHER_SEED = "higher_seed"
POLICIES = (RANDOM, HIGHER_SEED)


def play_draw_chooser(
    *, team_a: int, team_b: int, swiss_rank: Mapping[int, int], policy: str, seed: int
) -> int:
    """The team that chooses to play or draw in the match ``team_a`` v ``team_b``.

    ``higher_seed``: the team with the better (smaller) final Swiss rank in ``swiss_rank``.
    ``random``: one of the two drawn from ``random.Random(f"{seed}:{low}:{high}")``, where ``seed``
    is the round's stored seed; ``swiss_rank`` is not used.
    """
    if team_a == team_b:
        raise ValueError("a match needs two different teams")
    low, high = sorted((team_a, team_b))
    if policy == HIGHER_SEED:
        missing = [team for team in (low, high) if team not in swiss_rank]
        if missing:
            raise ValueError(f"no final Swiss rank for team {missing[0]}")
        if swiss_rank[low] == swiss_rank[high]:
            raise ValueError(f"teams {low} and {high} share Swiss rank {swiss_rank[low]}")
        return low if swiss_rank[low] < swiss_rank[high] else high
    if policy == RANDOM:
        return random.Random(f"{seed}:{low}:{high}").choice((low, high))
    raise ValueError(f"unknown play/draw policy {policy!r}; expected one of {', '.join(POLICIES)}")
