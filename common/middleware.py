"""Request-size guard for the API, answered in the API's own error shape."""

from __future__ import annotations

from django.conf import settings
from django.http import JsonResponse

from common.api import body_too_big_message, error_body

API_PREFIX = "/api/"


class ApiBodySizeLimitMiddleware:
    """Refuse an API request whose declared body is over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` with a JSON 413.

    Django enforces that limit only when ``request.body`` or form data is read, and DRF's JSON
    parser reads the raw stream, so without this a 5 MB JSON body would be parsed in full, and a
    5 MB form would end as Django's HTML 400 page. Checking the Content-Length before the view
    costs nothing and never reads the body.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and request.path.startswith(API_PREFIX):
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                return JsonResponse(
                    error_body("invalid Content-Length header", field="Content-Length"), status=400
                )
            if length > limit:
                return JsonResponse(error_body(body_too_big_message()), status=413)
        return self.get_response(request)
