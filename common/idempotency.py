"""Idempotency keys for writes a phone may send more than once.

A player's phone that loses the network keeps a result report or judge call and sends it again when
the connection returns (``static/js/outbox.js``); it cannot know whether an earlier try reached the
server before the answer was lost. Each such write carries a key (the ``Idempotency-Key`` header or
an ``idempotency_key`` form field, made by the phone); the first request with a key runs and its
answer is stored in the same transaction as its write, and any later request with the same key
from the same account gets that stored answer and writes nothing. A request without a key runs as
before, so plain forms with JavaScript off are unchanged.
"""

from __future__ import annotations

import re
from datetime import timedelta
from functools import wraps

from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from common.models import IdempotentRequest

KEY_FIELD = "idempotency_key"
KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{8,64}")
# A phone's queue is sent within the event; a key older than this is forgotten.
KEPT_FOR = timedelta(days=2)


def request_key(request) -> str:
    return request.headers.get("Idempotency-Key") or request.POST.get(KEY_FIELD, "")


def idempotent(view):
    """Run a signed-in account's POST at most once per idempotency key (see the module docstring).

    A key reused for another address is refused (422): it cannot be the same request. An answer
    of 500 or more is not stored, and its writes are rolled back: the phone may try again.
    """

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        key = request_key(request) if request.method == "POST" else ""
        if not key or not request.user.is_authenticated:
            return view(request, *args, **kwargs)
        if not KEY_PATTERN.fullmatch(key):
            return HttpResponse(
                _("The idempotency key must be 8 to 64 letters, digits, dashes or underscores."),
                status=400,
                content_type="text/plain; charset=utf-8",
            )
        with transaction.atomic():
            try:
                with transaction.atomic():
                    row = IdempotentRequest.objects.create(user=request.user, key=key, path=request.path)
            except IntegrityError:
                # The same key again (or at the same moment: the insert waited for the first one).
                return _replay(IdempotentRequest.objects.get(user=request.user, key=key), request.path)
            IdempotentRequest.objects.filter(
                user=request.user, created_at__lt=timezone.now() - KEPT_FOR
            ).delete()
            response = view(request, *args, **kwargs)
            if response.status_code >= 500:
                transaction.set_rollback(True)
                return response
            row.status_code = response.status_code
            row.content_type = response.get("Content-Type", "")
            row.location = response.get("Location", "")
            row.content = response.content
            row.save(update_fields=["status_code", "content_type", "location", "content"])
        return response

    return wrapper


def _replay(row: IdempotentRequest, path: str) -> HttpResponse:
    if row.path != path:
        return HttpResponse(
            _("This idempotency key was already used for another request."),
            status=422,
            content_type="text/plain; charset=utf-8",
        )
    response = HttpResponse(bytes(row.content), status=row.status_code, content_type=row.content_type)
    if row.location:
        response["Location"] = row.location
    response["Idempotent-Replayed"] = "true"
    return response
