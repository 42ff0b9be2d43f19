"""Request-size guard for the API, and 503 when the database is unreachable, both answered in the
API's own error shape under /api/."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string

from common.api import body_too_big_message, error_body

API_PREFIX = "/api/"
DATABASE_UNAVAILABLE_ERRORS = (OperationalError, InterfaceError)

logger = logging.getLogger(__name__)


class ApiBodySizeLimitMiddleware:
    """Refuse an API request whose declared body is over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` with a JSON 413.

    Django enforces that limit only when ``request.body`` or form data is read, and DRF's JSON
    parser reads the raw stream, so without this a 5 MB JSON body would be parsed in full, and a
    5 MB form would end as Django's HTML 400 page. Checking the Content-Length before the view
    costs nothing and never reads the body. A view that takes bigger bodies (a pushed event file)
    names the setting that bounds it instead in ``body_limit_setting``, and reads its body itself.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if not request.path.startswith(API_PREFIX):
            return None
        view_class = getattr(view_func, "cls", view_func)
        limit_setting = getattr(view_class, "body_limit_setting", "DATA_UPLOAD_MAX_MEMORY_SIZE")
        limit = getattr(settings, limit_setting)
        if limit is None:
            return None
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return JsonResponse(
                error_body("invalid Content-Length header", field="Content-Length"), status=400
            )
        if length > limit:
            message = body_too_big_message(limit_setting)
            return JsonResponse(error_body(message), status=413)
        return None


DATABASE_DOWN = "the database is unavailable; try again in a minute"
#: Seconds a client is asked to wait before trying again.
DATABASE_RETRY_AFTER = 30


def database_unavailable_response(request):
    """503 with ``Retry-After``: the API's error shape under /api/, elsewhere a page that needs no
    database (no session, no user: both would query it again)."""
    if request.path.startswith(API_PREFIX):
        response = JsonResponse({"detail": DATABASE_DOWN, "errors": [{"message": DATABASE_DOWN}]}, status=503)
    else:
        response = HttpResponse(
            render_to_string("503.html", {"message": DATABASE_DOWN[0].upper() + DATABASE_DOWN[1:] + "."}),
            status=503,
        )
    response["Retry-After"] = str(DATABASE_RETRY_AFTER)
    return response


class DatabaseUnavailableMiddleware:
    """A view that cannot reach the database answers 503, not a bare 500.

    ``OperationalError`` and ``InterfaceError`` are what Django raises when the connection fails or
    drops (and for a lock wait that timed out: also a reason to try again). Errors raised outside
    a view reach ``common.views.server_error`` (``handler500``), which answers the same way.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, DATABASE_UNAVAILABLE_ERRORS):
            logger.error("database unavailable for %s %s: %s", request.method, request.path, exception)
            return database_unavailable_response(request)
        return None
