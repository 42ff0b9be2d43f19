"""The documents a scorekeeper prints, queued when the tournaments app announces a step."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from documents.services import (
    documents_for_event_finished,
    documents_for_pods_seated,
    documents_for_round_finished,
    documents_for_round_paired,
)
from tournaments.signals import event_finished, pods_seated, round_finished, round_paired


@receiver(round_paired, dispatch_uid="documents.round_paired")
def _round_paired(sender: Any, *, round_id: int, **kwargs: Any) -> None:
    documents_for_round_paired(round_id=round_id)


@receiver(round_finished, dispatch_uid="documents.round_finished")
def _round_finished(sender: Any, *, round_id: int, **kwargs: Any) -> None:
    documents_for_round_finished(round_id=round_id)


@receiver(event_finished, dispatch_uid="documents.event_finished")
def _event_finished(sender: Any, *, round_id: int, **kwargs: Any) -> None:
    documents_for_event_finished(round_id=round_id)


@receiver(pods_seated, dispatch_uid="documents.pods_seated")
def _pods_seated(sender: Any, *, tournament_id: int, **kwargs: Any) -> None:
    documents_for_pods_seated(tournament_id=tournament_id)
