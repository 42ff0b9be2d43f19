"""The judges learn of what the tournaments app announces: a disputed result calls a judge."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from floor.services.calls import dispute_call_raise
from tournaments.signals import match_disputed


@receiver(match_disputed, dispatch_uid="floor.match_disputed")
def _match_disputed(sender: Any, *, match_id: int, **kwargs: Any) -> None:
    dispute_call_raise(match_id=match_id)
