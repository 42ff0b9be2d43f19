"""A mirrored event is read-only, whatever the page or endpoint: one guard in front of every view.

The event of record is on the laptop in the hall; a write to its copy here (pairing, a result, a
registration, a penalty, a judge call) would be lost at the next push and could mislead the hall.
So every unsafe request (not GET, HEAD, OPTIONS) to a view whose URL names something of a mirrored
event is answered 409 before the view runs: in the API's error shape under /api/, as a page
elsewhere. The URL names the event by one of ``EVENT_OF``'s parameters (checked for every route by
tests/event_io/test_mirror_guard.py), so a view added later is guarded too.

Also here: the pages' "mirror of an event run elsewhere, last updated HH:MM" (``mirror_context``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import JsonResponse
from django.shortcuts import render
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _

from documents.models import DocumentJob
from event_io.mirror_copy import mirror_of
from event_io.models import MirroredEvent, MirrorTarget
from floor.models import JudgeCall, Note
from penalties.models import Penalty
from tournaments.models import Match

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})


def _through(model, path: str = "tournament_id") -> Callable[[int], int | None]:
    return lambda pk: model.objects.filter(pk=pk).values_list(path, flat=True).first()


#: URL parameter → the event it belongs to. ``pk`` is only used by the penalty routes.
EVENT_OF: dict[str, Callable[[int], int | None]] = {
    "tournament_id": lambda pk: pk,
    "match_id": _through(Match, "round__tournament_id"),
    "pk": _through(Penalty),
    "call_id": _through(JudgeCall),
    "note_id": _through(Note),
    "job_id": _through(DocumentJob),
}

#: URL parameters that never lead to a mirrored event, and why.
NOT_AN_EVENT = {
    "code": "a join code: a mirror's teams have none (join codes are not in the event file)",
    "key": "the mirror push itself, which checks its own owner and order",
    "language": "the JavaScript catalogue",
}


def mirrored_event_id(view_kwargs: dict) -> int | None:
    """The mirrored event the URL's parameters name, or ``None``."""
    for name, event_of in EVENT_OF.items():
        if name in view_kwargs:
            tournament_id = event_of(view_kwargs[name])
            if (
                tournament_id is not None
                and MirroredEvent.objects.filter(tournament_id=tournament_id).exists()
            ):
                return tournament_id
            return None
    return None


def refusal_message() -> str:
    return _(
        "This event is a read-only mirror of an event run elsewhere: pairings, results, registration "
        "and every other change are made on the event's own computer, and reach this copy from there."
    )


class MirrorReadOnlyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.method in SAFE_METHODS or not view_kwargs:
            return None
        tournament_id = mirrored_event_id(view_kwargs)
        if tournament_id is None:
            return None
        message = refusal_message()
        if request.path.startswith("/api/"):
            return JsonResponse({"detail": message, "errors": [{"message": message}]}, status=409)
        return render(request, "event_io/mirror_refused.html", {"message": message}, status=409)


def mirror_context(request) -> dict:
    """``event_mirror`` (this event is a copy: its row) and ``mirror_target`` (this event is pushed
    to a server: its target) for the pages of an event, each looked up only if a template asks."""
    match = getattr(request, "resolver_match", None)
    tournament_id = match.kwargs.get("tournament_id") if match else None
    if tournament_id is None:
        return {}
    return {
        "event_mirror": SimpleLazyObject(lambda: mirror_of(tournament_id) or _Nothing()),
        "mirror_target": SimpleLazyObject(
            lambda: (
                MirrorTarget.objects.filter(tournament_id=tournament_id, active=True).first() or _Nothing()
            )
        ),
    }


class _Nothing:
    """Stands for "no row" in a lazy context value: false in ``{% if %}``."""

    def __bool__(self) -> bool:
        return False
