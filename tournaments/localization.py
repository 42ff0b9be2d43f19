"""An event's own language and time zone, for what the event shows to the whole hall.

Pages follow the reader's language (``LocaleMiddleware``) and the event's time zone
(``tournaments.middleware``); what is printed or projected for everyone (documents, the projector
clock) follows the event's settings instead: a Japanese store prints in Japanese with Tokyo times,
whatever the browser of the scorekeeper who asked says.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Iterator
from contextlib import contextmanager

from django.core.cache import cache
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone, translation

from tournaments.models import Tournament


def event_zone(tournament: Tournament) -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(tournament.time_zone)


@contextmanager
def event_locale(tournament: Tournament) -> Iterator[None]:
    """Render in the event's language and time zone for the duration of the block."""
    with translation.override(tournament.language), timezone.override(event_zone(tournament)):
        yield


def _time_zone_key(tournament_id: int) -> str:
    return f"event-time-zone:{tournament_id}"


def event_time_zone_name(tournament_id: int) -> str | None:
    """The event's time zone name for its pages, from the cache when it can (a cached public page
    is served without a database query); ``None`` for no such event. An unreachable cache reads
    the database instead."""
    key = _time_zone_key(tournament_id)
    try:
        name = cache.get(key)
    except Exception:
        name = None
    if name is None:
        name = Tournament.objects.filter(pk=tournament_id).values_list("time_zone", flat=True).first()
        if name:
            try:
                cache.set(key, name, 300)
            except Exception:
                pass
    return name


@receiver(post_save, sender=Tournament)
def _forget_time_zone(sender, instance: Tournament, **kwargs) -> None:
    try:
        cache.delete(_time_zone_key(instance.pk))
    except Exception:
        pass
