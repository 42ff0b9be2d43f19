"""Booster Draft pods: seating the teams for a draft, and the pods a round is paired within.

The seating itself is the pure ``tournaments.domain.pods.seat_pods``; this module checks what
needs the database (a Booster Draft event, the draft's number, the latest round complete), stores
the pods, queues the printed pod seatings and audits the seating.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import ConflictError, DomainError
from common.i18n import error_text
from tournaments.domain import PairingError
from tournaments.domain.pods import seat_pods
from tournaments.enums import Format
from tournaments.models import DraftPod, Round, Tournament
from tournaments.selectors import draft_team_ids
from tournaments.services.audit import audit_log
from tournaments.services.rounds import lock_tournament, require_round_complete
from tournaments.signals import pods_seated


@transaction.atomic
def pods_seat(*, tournament: Tournament, actor, draft: int, single_pod: bool = False) -> list[DraftPod]:
    """Seat the active teams in random pods for ``draft`` (the event's next draft: 1, then 2...);
    ``single_pod`` seats them all in one pod, which the organizer may choose when the usual pods
    would force rematches (``pod_rematch_warning``).

    409 outside a Booster Draft event, for a draft already seated or out of order, or while the
    latest round still waits for results. The seating is random from the event's seed and the
    draft's number, so it can be reproduced from the stored event.
    """
    tournament = lock_tournament(tournament)
    if tournament.format != Format.DRAFT:
        raise ConflictError(
            _("pods are for Booster Draft events"),
            errors=[{"field": "draft", "message": _("not a draft event")}],
        )
    seated = DraftPod.objects.filter(tournament=tournament).order_by("-draft").values_list("draft", flat=True)
    expected = (seated.first() or 0) + 1
    if draft != expected:
        message = (
            _("draft %(number)s is already seated") % {"number": draft}
            if draft < expected
            else _("the next draft is %(number)s") % {"number": expected}
        )
        raise ConflictError(message, errors=[{"field": "draft", "message": message}])
    previous = Round.objects.filter(tournament=tournament).newest()
    if previous is not None:
        require_round_complete(previous)
    active = draft_team_ids(tournament)
    try:
        pods = seat_pods(
            active, seed=tournament.seed, draft=draft, team_size=tournament.team_size, single_pod=single_pod
        )
    except PairingError as exc:
        message = error_text(exc)
        raise DomainError(message, errors=[{"field": "draft", "message": message}]) from exc
    rows = DraftPod.objects.bulk_create(
        DraftPod(
            tournament=tournament,
            draft=draft,
            number=pod.number,
            team_ids=list(pod.team_ids),
            seated_after_round=previous.number if previous is not None else 0,
        )
        for pod in pods
    )
    pods_seated.send(sender=DraftPod, tournament_id=tournament.pk)
    audit_log(
        tournament=tournament,
        actor=actor,
        action="pods_seat",
        obj=tournament,
        after={
            "draft": draft,
            "single_pod": single_pod,
            "pods": [{"number": p.number, "teams": list(p.team_ids)} for p in pods],
        },
    )
    return rows
