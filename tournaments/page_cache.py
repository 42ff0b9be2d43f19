"""Public pages rendered once per change of their event, and answered 304 when the reader has them.

``public_page`` wraps a page view taking ``tournament_id``. For a reader who is not signed in (every
player in the hall looking up their table), the rendered page is kept in the shared cache under the
event's generation (``tournaments.live``), the page's path, its normalised query and the language:
the next reader gets the stored bytes, and a reader whose ``If-None-Match`` or ``If-Modified-Since``
matches gets a 304, with no template rendered and no database query. A write to the event moves the
generation, so the next request renders afresh. The answer carries ``Cache-Control: public`` for a
proxy, with ``Vary: Cookie`` so a signed-in reader's page (their name, their buttons) is never
shared: that one is rendered for them each time, ``private``.

Django's ``condition`` decorator would need the page to compute its ETag; here the ETag is the
stored page's, read in the same cache lookup as the page (``get_conditional_response`` does the
comparison), so a lost generation bump can never pin a reader to an old page by its ETag.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import get_language

from tournaments.domain.text import fold
from tournaments.live import generation, generation_key

#: Seconds a rendered page is kept; a new generation makes it unreachable long before.
PAGE_TIMEOUT = 600
#: Seconds a browser or proxy may reuse a public page without asking (live pages poll every few).
PUBLIC_MAX_AGE = 2


def _query_key(request: HttpRequest) -> str:
    """The query string as the page reads it: ``q`` folded (so "ANN " and "ann" share one entry)."""
    items = []
    for name in sorted(request.GET):
        value = request.GET.get(name, "")
        items.append((name, fold(value) if name == "q" else value.strip()))
    return urlencode(items)


def _page_key(request: HttpRequest, tournament_id: int) -> str:
    raw = f"{request.path}?{_query_key(request)}|{get_language()}"
    digest = hashlib.sha256(raw.encode()).hexdigest()[:32]
    return f"public-page:{tournament_id}:{digest}"


def _shareable(request: HttpRequest) -> bool:
    """The same bytes suit every such reader: signed out, a plain read, no message waiting."""
    if request.method not in ("GET", "HEAD") or "Authorization" in request.headers:
        return False  # an API token may be staff's, who see more
    if request.user.is_authenticated:
        return False
    return len(get_messages(request)) == 0


def _cache_call(method: Callable[..., Any], *args: Any) -> Any:
    """A cache call that an unreachable cache turns into a miss: the page is rendered instead."""
    try:
        return method(*args)
    except Exception:  # noqa: BLE001 - Redis down: serve uncached (tournaments.live logs it)
        return None


def _conditional(request: HttpRequest, response: HttpResponse, etag: str, modified: float) -> HttpResponse:
    response["ETag"] = etag
    response["Last-Modified"] = http_date(modified)
    return get_conditional_response(request, etag=etag, last_modified=int(modified), response=response)


def public_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Cache ``view``'s answers to signed-out readers per event generation (the module docstring)."""

    @wraps(view)
    def wrapper(request: HttpRequest, tournament_id: int, *args: Any, **kwargs: Any) -> HttpResponse:
        if not _shareable(request):
            response = view(request, *args, tournament_id=tournament_id, **kwargs)
            if request.method in ("GET", "HEAD") and response.status_code == 200:
                # No ETag: the page carries the reader's CSRF token, new on every render.
                patch_cache_control(response, private=True, no_cache=True)
            return response
        # One round trip for the generation and the stored page: the page is good if it was
        # rendered at the current generation.
        key = _page_key(request, tournament_id)
        found = _cache_call(cache.get_many, [generation_key(tournament_id), key]) or {}
        current = found.get(generation_key(tournament_id))
        if current is None:
            current = generation(tournament_id)
        entry = found.get(key)
        if entry is None or entry["generation"] != current:
            response = view(request, *args, tournament_id=tournament_id, **kwargs)
            if response.status_code != 200 or current is None:
                return response
            body = response.content
            entry = {
                "generation": current,
                "body": body,
                "content_type": response["Content-Type"],
                # The content's hash: a change elsewhere in the event re-renders this page, but
                # a reader whose page did not change still gets a 304.
                "etag": f'"{hashlib.md5(body, usedforsecurity=False).hexdigest()}"',
                "modified": time.time(),
            }
            _cache_call(cache.set, key, entry, PAGE_TIMEOUT)
        else:
            response = HttpResponse(entry["body"], content_type=entry["content_type"])
        patch_cache_control(response, public=True, max_age=PUBLIC_MAX_AGE)
        patch_vary_headers(response, ("Cookie", "Accept-Language"))
        return _conditional(request, response, entry["etag"], entry["modified"])

    return wrapper
