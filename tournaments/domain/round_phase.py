"""Where a round stands, derived from what happened to it (one rule for pages, API, clock, documents).

A round's phase is never stored: it follows from four facts kept on the round, each a timestamp of
an event that happened once: the pairings were published, the clock was started, the round's time
ran out (MTR 2.5: the end-of-round procedure begins), every result is in. Storing the phase beside
those facts is how an unpublished round once came to be "finished" and its clock public.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum


class RoundPhase(StrEnum):
    PAIRED = "paired"  # staff only: the pairings may still change
    PUBLISHED = "published"  # players and the public see the pairings; the clock has not started
    RUNNING = "running"
    TIME_CALLED = "time_called"  # the round's time is up; tables play their end-of-round turns
    FINISHED = "finished"  # every result is in


#: How pages name each phase.
PHASE_LABELS = {
    RoundPhase.PAIRED: "Paired (staff only)",
    RoundPhase.PUBLISHED: "Published",
    RoundPhase.RUNNING: "Running",
    RoundPhase.TIME_CALLED: "Time called",
    RoundPhase.FINISHED: "All results in",
}

#: The phases players and the public see; everything else is the staff's work in progress.
PUBLIC_PHASES = frozenset(
    {RoundPhase.PUBLISHED, RoundPhase.RUNNING, RoundPhase.TIME_CALLED, RoundPhase.FINISHED}
)


def round_phase(
    *,
    published_at: datetime | None,
    started_at: datetime | None,
    time_up_at: datetime | None,
    finished_at: datetime | None,
) -> RoundPhase:
    """The round's phase. An unpublished round is ``PAIRED`` whatever else happened to it: staff
    may enter every result before publishing (a walk-over round), and that must not make it public.
    """
    if published_at is None:
        return RoundPhase.PAIRED
    if finished_at is not None:
        return RoundPhase.FINISHED
    if time_up_at is not None:
        return RoundPhase.TIME_CALLED
    if started_at is not None:
        return RoundPhase.RUNNING
    return RoundPhase.PUBLISHED


def is_public(phase: RoundPhase) -> bool:
    """Whether players and the public may see the round (pairings, clock, printed documents)."""
    return phase in PUBLIC_PHASES
