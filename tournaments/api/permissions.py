"""The API's one permission class: each view names the rule (``tournaments.rules``) that decides
each HTTP method it handles, and the object the rule is asked about."""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import BasePermission, IsAuthenticated

from tournaments.rules import RULES


def handles(view, method: str) -> bool:
    """Whether the view has a handler for ``method``; one it does not handle is answered 405 by
    the dispatch that follows the permission check, never refused (or crashed on) here."""
    name = method.lower()
    return name in view.http_method_names and hasattr(view, name)


def rule_name(view, request, method: str) -> str | None:
    """The rule for this request: ``view.rules[method]``, unless the view picks by the request
    (``view.rule_for``: pairing by hand is another rule than pairing by the engine)."""
    chosen = getattr(view, "rule_for", None)
    return (chosen(request) if chosen else None) or view.rules.get(method)


class RulePermission(BasePermission):
    """Asks ``RULES[view.rules[method]](user, *view.rule_args(request))``.

    HEAD follows GET and OPTIONS (the schema's metadata) is open, as in DRF. A method the view
    does not handle passes here, so the dispatch answers 405. ``view.rule_args`` raises 404 for
    an unknown event or object, so an unknown id is a 404 before any 403. A refused anonymous
    caller gets DRF's 401, except on views with ``refuse_anonymous_with_403`` (penalties and
    decklists, which never hint that a record exists) or ``hide_refusal_as_404`` (an unpublished
    round's match, which non-staff must not learn exists).
    """

    def has_permission(self, request, view) -> bool:
        method = "GET" if request.method == "HEAD" else request.method
        if method == "OPTIONS" or not handles(view, method):
            return True
        name = rule_name(view, request, method)
        if name is None:
            raise ImproperlyConfigured(f"{type(view).__name__} names no rule for {method}")
        if RULES[name](request.user, *view.rule_args(request)):
            return True
        if getattr(view, "hide_refusal_as_404", False):
            raise Http404(_("no such object"))
        if getattr(view, "refuse_anonymous_with_403", False) or (
            request.user.is_authenticated and getattr(view, "refusal_message", None)
        ):
            raise PermissionDenied(getattr(view, "refusal_message", None))
        return False


class LoggedIn(IsAuthenticated):
    """Any logged-in user (``tournaments.rules.is_logged_in``); a method the view does not handle
    passes, so it is 405 for everyone rather than 401 for the anonymous."""

    def has_permission(self, request, view) -> bool:
        return not handles(view, request.method) or super().has_permission(request, view)
