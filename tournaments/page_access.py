"""Who may open a staff page of an event, and the refusal that says who it is for.

Every app's staff pages (manage, settings, results, printing) ask the same question with a named
rule of ``tournaments.rules``; a refused reader gets a 403 that names the roles the page is for and
their own, in their language.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from tournaments.enums import StaffRole
from tournaments.models import Tournament
from tournaments.permissions import ALL_STAFF, ORGANIZER, SCOREKEEPING, staff_role
from tournaments.rules import RULES

#: The staff roles each page rule lets in, so a refused page can say who it is for.
PAGE_RULE_ROLES = {
    "is_event_staff": ALL_STAFF,
    "can_print": ALL_STAFF,
    "can_run_event": SCOREKEEPING,
    "can_manage_event": ORGANIZER,
    "can_pair_by_hand": ORGANIZER,
}


def staff_event(request, tournament_id: int, rule: str = "is_event_staff") -> Tournament:
    """The event, if the named rule (``tournaments.rules``) lets the user do this page's work."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if RULES[rule](request.user, tournament):
        return tournament
    roles = PAGE_RULE_ROLES[rule]
    allowed = ", ".join(str(StaffRole(role).label).lower() for role in StaffRole.values if role in roles)
    mine = staff_role(request.user, tournament)
    if mine:
        raise PermissionDenied(
            _("This page of “%(event)s” is for its %(allowed)s; you are its %(role)s.")
            % {"event": tournament.name, "allowed": allowed, "role": str(StaffRole(mine).label).lower()}
        )
    raise PermissionDenied(
        _("This page of “%(event)s” is for its %(allowed)s; your account is not on its staff.")
        % {"event": tournament.name, "allowed": allowed}
    )
