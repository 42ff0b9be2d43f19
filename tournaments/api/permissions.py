"""The API's one permission class: staff roles per HTTP method, declared on the view, then the
view's own rule for players and the public (their own team, published rounds)."""

from __future__ import annotations

from rest_framework.permissions import BasePermission

from tournaments.permissions import has_role


class EventAccess(BasePermission):
    """Allows staff whose role is in ``view.staff_roles[request.method]``; anyone else only if
    ``view.allows_others(request)`` says so.

    ``view.get_tournament()`` raises 404 for an unknown event or object, so an unknown id is a 404
    before any 403. Anonymous users who are refused get DRF's 401 (the API uses token auth).
    """

    def has_permission(self, request, view) -> bool:
        roles = view.staff_roles.get(request.method, frozenset())
        if roles and has_role(request.user, view.get_tournament(), roles):
            return True
        return view.allows_others(request)
