"""The judges learn of what the tournaments app announces: a disputed result calls a judge, a
settled one closes that call."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from floor.services.calls import dispute_call_raise, dispute_call_settle
from tournaments.signals import match_disputed, match_settled


@receiver(match_disputed, dispatch_uid="floor.match_disputed")
def _match_disputed(sender: Any, *, match_id: int, **kwargs: Any) -> None:
    dispute_call_raise(match_id=match_id)


@receiver(match_settled, dispatch_uid="floor.match_settled")
def _match_settled(sender: Any, *, match_id: int, **kwargs: Any) -> None:
    dispute_call_settle(match_id=match_id)
