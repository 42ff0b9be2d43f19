"""Who may do what on the floor, named once for the API, the pages and the templates.

Built on the event roles of ``tournaments.permissions``: judges of the event (organizer, head
judge, judge) work calls, zones and notes; any staff (scorekeepers too) see the call queue and
the end-of-round console; the organizer or head judge lays out zones; the head judge (or the
organizer when none is named) locks notes and files DQ reports.
"""

from __future__ import annotations

from tournaments.enums import StaffRole
from tournaments.models import Tournament
from tournaments.permissions import ALL_STAFF, JUDGES, has_role, is_head_judge

ZONE_PLANNERS = frozenset({StaffRole.ORGANIZER, StaffRole.HEAD_JUDGE})


def can_see_floor(user, tournament: Tournament | int) -> bool:
    """The call queue, the end-of-round console and the deck-check planner: any event staff."""
    return has_role(user, tournament, ALL_STAFF)


def can_judge(user, tournament: Tournament | int) -> bool:
    """Claim, escalate and resolve calls, mark turns, read and write notes: judges of the event."""
    return has_role(user, tournament, JUDGES)


def can_plan_zones(user, tournament: Tournament | int) -> bool:
    return has_role(user, tournament, ZONE_PLANNERS)


def can_head_judge(user, tournament: Tournament | int) -> bool:
    """Lock notes, see locked notes, take over escalated calls, file DQ reports."""
    return is_head_judge(user, tournament)
