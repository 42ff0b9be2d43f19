"""The tournaments app's middleware: stored public pages answered early, and event time zones.

``PublicFastPathMiddleware`` answers a signed-out reader from a stored public page, and the live
check open pages poll, before the rest of the stack runs (``tournaments.page_cache`` says why and how).

An event's pages show times in the event's time zone (``Tournament.time_zone``).

Every page of an event has ``tournament_id`` in its URL, so one middleware activates the event's
zone for the template filters (``|time``, ``|date``, ``{% get_current_timezone %}``) of every app's
pages at once, instead of each view remembering to. The API is left alone: its timestamps carry
their offset and are read by programs, not people.
"""

from __future__ import annotations

import zoneinfo

from django.utils import timezone

from common.middleware import DATABASE_UNAVAILABLE_ERRORS
from tournaments.localization import event_time_zone_name
from tournaments.page_cache import early_answer, keep_headers


class PublicFastPathMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        answer = early_answer(request)
        if answer is not None:
            return answer
        response = self.get_response(request)
        keep_headers(response)
        return response


class EventTimeZoneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(self, request, view_func, view_args, view_kwargs):
        tournament_id = view_kwargs.get("tournament_id")
        if tournament_id is None or request.path.startswith("/api/"):
            return None
        try:
            name = event_time_zone_name(tournament_id)
        except DATABASE_UNAVAILABLE_ERRORS:
            return None  # the view meets the same error and answers 503 (common.middleware)
        if name:
            try:
                timezone.activate(zoneinfo.ZoneInfo(name))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                pass  # checked when set; a zone removed from tzdata since falls back to TIME_ZONE
        return None
