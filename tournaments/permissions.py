"""The role primitives the rules are made of: a user's staff role in an event, their team.

Who may do what is decided by the named rules in ``tournaments.rules``; call those, not these.
Roles are per event (``Staff``). Superusers (support staff) pass every check. A player is a user
linked to a ``Player`` row of the event.
"""

from __future__ import annotations

from django.conf import settings

from tournaments.enums import StaffRole
from tournaments.models import Player, Staff, Tournament

ALL_STAFF = frozenset(StaffRole.values)
JUDGES = frozenset({StaffRole.ORGANIZER, StaffRole.HEAD_JUDGE, StaffRole.JUDGE})
SCOREKEEPING = frozenset({StaffRole.ORGANIZER, StaffRole.HEAD_JUDGE, StaffRole.SCOREKEEPER})
HEAD_JUDGE = frozenset({StaffRole.HEAD_JUDGE})
ORGANIZER = frozenset({StaffRole.ORGANIZER})


def staff_role(user, tournament: Tournament | int) -> str | None:
    """The user's role in the event, cached on the user object for the request."""
    if not getattr(user, "is_authenticated", False):
        return None
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    cache = user.__dict__.setdefault("_staff_roles", {})
    if tournament_id not in cache:
        cache[tournament_id] = (
            Staff.objects.filter(tournament_id=tournament_id, user=user)
            .values_list("role", flat=True)
            .first()
        )
    return cache[tournament_id]


def has_role(user, tournament: Tournament | int, roles: frozenset[str] = ALL_STAFF) -> bool:
    if getattr(user, "is_superuser", False):
        return True
    return staff_role(user, tournament) in roles


def is_head_judge(user, tournament: Tournament | int) -> bool:
    """The head judge decides deviations and appeals; the organizer acts as head judge if none is named."""
    if getattr(user, "is_superuser", False):
        return True
    role = staff_role(user, tournament)
    if role == StaffRole.HEAD_JUDGE:
        return True
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    return (
        role == StaffRole.ORGANIZER
        and not Staff.objects.filter(tournament_id=tournament_id, role=StaffRole.HEAD_JUDGE).exists()
    )


def may_create_events(user) -> bool:
    """Event creation is a role the site grants (``settings.EVENT_CREATORS``): by default staff
    accounts, superusers and accounts holding the ``tournaments.add_tournament`` permission."""
    if not getattr(user, "is_authenticated", False):
        return False
    if settings.EVENT_CREATORS == "everyone":
        return True
    return bool(user.is_staff or user.has_perm("tournaments.add_tournament"))


def player_team_id(user, tournament: Tournament | int) -> int | None:
    """The team the user plays on in this event, if any."""
    if not getattr(user, "is_authenticated", False):
        return None
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    return (
        Player.objects.filter(tournament_id=tournament_id, user=user)
        .values_list("team_id", flat=True)
        .first()
    )
