"""Idempotency keys for writes a phone may send more than once.

A player's phone that loses the network keeps a result report or judge call and sends it again when
the connection returns (``static/js/outbox.js``); it cannot know whether an earlier try reached the
server before the answer was lost. Each such write carries a key (the ``Idempotency-Key`` header,
which the API takes too, or an ``idempotency_key`` form field), made by the phone; the first request
with a key runs and its
answer is stored in the same transaction as its write, and any later request with the same key
from the same account gets that stored answer and writes nothing. A request without a key runs as
before, so plain forms with JavaScript off are unchanged.
"""

from __future__ import annotations

import re
from datetime import timedelta
from functools import wraps

from django.db import IntegrityError, transaction
from django.http import HttpResponse, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from common.api import error_body
from common.middleware import API_PREFIX
from common.models import IdempotentRequest

KEY_FIELD = "idempotency_key"
WRITES = ("POST", "PUT", "PATCH", "DELETE")
# The header as the API schema names it, for the views that honour it.
KEY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    location=OpenApiParameter.HEADER,
    required=False,
    description="8 to 64 letters, digits, - or _, made by the client for this write: the same key again "
    "(from the same account) gets the first answer and writes nothing.",
)
KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{8,64}")
# A phone's queue is sent within the event; a key older than this is forgotten.
KEPT_FOR = timedelta(days=2)


def request_key(request) -> str:
    if request.method not in WRITES:
        return ""
    return request.headers.get("Idempotency-Key") or request.POST.get(KEY_FIELD, "")


def idempotent(view):
    """Run a signed-in account's write at most once per idempotency key (see the module docstring).

    A key reused for another address is refused (400): it cannot be the same request. An answer
    of 500 or more is not stored, and its writes are rolled back: the phone may try again. A
    refusal raised as an exception (an API's 4xx) is not stored either: it wrote nothing, and the
    same request again is refused again or, if the match moved on, answered as it now stands.
    """

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        return run_once(request, lambda: view(request, *args, **kwargs))

    return wrapper


def idempotent_method(method):
    """``idempotent`` for an API view's method: the account is the one DRF authenticated (a token's)."""

    @wraps(method)
    def wrapper(self, request, *args, **kwargs):
        return run_once(request, lambda: method(self, request, *args, **kwargs))

    return wrapper


def run_once(request, view) -> HttpResponse:
    key = request_key(request)
    if not key or not request.user.is_authenticated:
        return view()
    if not KEY_PATTERN.fullmatch(key):
        return _refusal(
            request, _("The idempotency key must be 8 to 64 letters, digits, dashes or underscores.")
        )
    with transaction.atomic():
        try:
            with transaction.atomic():
                row = IdempotentRequest.objects.create(user=request.user, key=key, path=request.path)
        except IntegrityError:
            # The same key again (or at the same moment: the insert waited for the first one).
            return _replay(request, IdempotentRequest.objects.get(user=request.user, key=key))
        IdempotentRequest.objects.filter(user=request.user, created_at__lt=timezone.now() - KEPT_FOR).delete()
        response = view()
        if response.status_code >= 500:
            transaction.set_rollback(True)
            return response
        row.status_code = response.status_code
        row.location = response.get("Location", "")
        if isinstance(response, Response) and not response.is_rendered:
            # An API answer is rendered after the view returns: keep its data as JSON.
            row.content, row.content_type = JSONRenderer().render(response.data), "application/json"
        else:
            row.content, row.content_type = response.content, response.get("Content-Type", "")
        row.save(update_fields=["status_code", "content_type", "location", "content"])
    return response


def _refusal(request, message: str) -> HttpResponse:
    """400 naming the key: in the API's error shape under /api/, as text to a page's script."""
    if request.path.startswith(API_PREFIX):
        return JsonResponse(error_body(message, field="Idempotency-Key"), status=400)
    return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")


def _replay(request, row: IdempotentRequest) -> HttpResponse:
    if row.path != request.path:
        return _refusal(request, _("This idempotency key was already used for another request."))
    response = HttpResponse(bytes(row.content), status=row.status_code, content_type=row.content_type)
    if row.location:
        response["Location"] = row.location
    response["Idempotent-Replayed"] = "true"
    return response
