"""Who may see which printed document."""

from __future__ import annotations

from documents.enums import DocumentKind
from documents.models import DocumentJob
from tournaments.permissions import ALL_STAFF, has_role


def can_read_job(user, job: DocumentJob) -> bool:
    """Staff of the event read every job; anyone reads pairings and standings of a published
    round (what is already posted on the wall); decklists, slips and penalties stay staff only.
    """
    if has_role(user, job.tournament_id, ALL_STAFF):
        return True
    return job.kind in DocumentKind.public() and job.round is not None and job.round.is_public
