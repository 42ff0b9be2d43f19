from __future__ import annotations

from typing import Any

from tournaments.models import AuditEntry, Tournament


def audit_log(
    *,
    tournament: Tournament,
    actor,
    action: str,
    obj: Any = None,
    object_type: str = "",
    object_id: str | int = "",
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> AuditEntry:
    """Record an override or a judge action; callers run inside their own transaction."""
    if obj is not None:
        object_type = object_type or type(obj).__name__.lower()
        object_id = object_id or obj.pk
    return AuditEntry.objects.create(
        tournament=tournament,
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        action=action,
        object_type=object_type,
        object_id=str(object_id),
        before=before,
        after=after,
        reason=reason,
    )
