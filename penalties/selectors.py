"""What other apps read about penalties: team match-point adjustments and Slow Play penalties.

Standings (tournaments) and the round clock ask here, so they never know how penalties are stored.
Until penalties are stored (the penalties adapter), there are none.
"""

from __future__ import annotations

import datetime


def match_point_adjustments(tournament_id: int) -> dict[int, int]:
    """Team id → sum of match-point adjustments (negative), for standings and opponents' OMW%."""
    return {}


def slow_play_penalty_times(match_ids: list[int]) -> dict[int, list[datetime.datetime]]:
    """Match id → when each Slow Play penalty at that table was issued (for end-of-round turns)."""
    return {}
