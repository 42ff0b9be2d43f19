"""An event's generation: one number that changes whenever something its public pages show changes.

Public pages are rendered once per generation and served from the cache (``page_cache``); open
pages poll cheaply and reload their live parts when it moves. The generation lives in the shared
cache (Redis in production, a file cache in embedded mode, where the web server and the worker are
separate processes), so every web process and worker sees one value.

It moves on every write that could change what people read, caught in one place: the saves and
deletes of the rows public pages are built from, every audit entry (each service writes one,
including those that change rows by a conditional ``UPDATE``, which sends no ``post_save``: a
result, a clock call) and the tournaments app's own announcements (``tournaments.signals``). A
write outside all of these must send ``tournaments.signals.event_changed``.

Each change bumps it twice: at once, so the writer's own next read and the tests see it, and again
after the commit, so a page another request rendered from the old data in between is never served.
A value is a wall-clock time in nanoseconds, so after a cache flush it never repeats an old one.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from tournaments import signals
from tournaments.models import (
    AuditEntry,
    DraftPod,
    KeepApart,
    Match,
    Player,
    Round,
    RoundPause,
    Team,
    TimeExtension,
    Tournament,
)

logger = logging.getLogger(__name__)
T = TypeVar("T")

#: Seconds a generation is kept: long enough never to expire during an event day's quiet hours,
#: short enough that a bump lost while the cache was unreachable heals within the day.
GENERATION_TIMEOUT = 6 * 3600


def generation_key(tournament_id: int) -> str:
    """The cache key of the event's generation (``page_cache`` reads it with the page at once)."""
    return f"event-generation:{tournament_id}"


def generation(tournament_id: int) -> int | None:
    """The event's current generation; ``None`` when the cache cannot be reached (serve uncached)."""
    try:
        value = cache.get(generation_key(tournament_id))
        if value is None:
            value = time.time_ns()
            if not cache.add(generation_key(tournament_id), value, GENERATION_TIMEOUT):
                value = cache.get(generation_key(tournament_id), value)
    except Exception:  # noqa: BLE001 - a cache outage must not break a page
        logger.warning("cache unreachable: event %s served without its generation", tournament_id)
        return None
    return int(value)


#: (event id, name) → (generation, value): what ``memoized`` computed, in this process.
_memo: dict[tuple[int, str], tuple[int, Any]] = {}


def memoized(tournament_id: int, name: str, compute: Callable[[], T]) -> T:
    """``compute()`` once per generation of the event in this process (each web worker keeps the
    last value of each ``name``): the pairings and standings of a 1,000-team event take a quarter
    of a second to build, and two thousand different name searches need them once, not each time.
    Read under the generation, so a value is never reused after a change; without a cache, computed
    every time."""
    current = generation(tournament_id)
    if current is None:
        return compute()
    key = (tournament_id, name)
    hit = _memo.get(key)
    if hit is not None and hit[0] == current:
        return hit[1]
    value = compute()
    _memo[key] = (current, value)
    return value


def _bump(tournament_id: int) -> None:
    try:
        previous = cache.get(generation_key(tournament_id)) or 0
        cache.set(generation_key(tournament_id), max(time.time_ns(), int(previous) + 1), GENERATION_TIMEOUT)
    except Exception:  # noqa: BLE001 - the write has happened; pages catch up at the next bump
        logger.warning("cache unreachable: event %s's pages may lag until its next change", tournament_id)


def event_changed(tournament_id: int | None) -> None:
    """Move the event's generation now and again once the current transaction commits."""
    if tournament_id is None:
        return
    _bump(tournament_id)
    transaction.on_commit(lambda: _bump(tournament_id))


def _tournament_id(instance: Any) -> int | None:
    if isinstance(instance, Tournament):
        return instance.pk
    if isinstance(instance, Match):
        return instance.round.tournament_id
    if isinstance(instance, TimeExtension):
        return instance.match.round.tournament_id
    if isinstance(instance, RoundPause):
        return instance.round.tournament_id
    return getattr(instance, "tournament_id", None)


_WATCHED = (
    Tournament,
    Round,
    Match,
    Team,
    Player,
    KeepApart,
    DraftPod,
    TimeExtension,
    RoundPause,
    AuditEntry,
)


def _row_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    try:
        tournament_id = _tournament_id(instance)
    except Exception:  # noqa: BLE001 - a parent already deleted in a cascade: its own signal bumps
        return
    event_changed(tournament_id)


for _model in _WATCHED:
    post_save.connect(_row_changed, sender=_model, dispatch_uid=f"live.saved.{_model.__name__}")
    post_delete.connect(_row_changed, sender=_model, dispatch_uid=f"live.deleted.{_model.__name__}")


@receiver(signals.round_paired, dispatch_uid="live.round_paired")
@receiver(signals.round_finished, dispatch_uid="live.round_finished")
@receiver(signals.event_finished, dispatch_uid="live.event_finished")
def _round_announced(sender: Any, *, round_id: int, **kwargs: Any) -> None:
    event_changed(Round.objects.filter(pk=round_id).values_list("tournament_id", flat=True).first())


@receiver(signals.pods_seated, dispatch_uid="live.pods_seated")
@receiver(signals.event_changed, dispatch_uid="live.event_changed")
def _event_announced(sender: Any, *, tournament_id: int, **kwargs: Any) -> None:
    event_changed(tournament_id)
