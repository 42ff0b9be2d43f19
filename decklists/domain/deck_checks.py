"""The time a deck check gives back to its table (MTR 2.6)."""

from __future__ import annotations

import math
from datetime import timedelta

SHUFFLE_MINUTES = 3
"""MTR 2.6: a deck check's extension is the time it took plus three minutes."""


def check_duration_minutes(duration: timedelta) -> int:
    """The check's length as whole minutes, rounded up: a check of 6 min 10 s cost the table 7.

    A check that took no time (or a clock that ran backwards) costs nothing.
    """
    seconds = duration.total_seconds()
    return max(0, math.ceil(seconds / 60)) if seconds > 0 else 0
