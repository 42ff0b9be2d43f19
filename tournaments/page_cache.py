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

When a hall of players refreshes at once, most of the cost of answering with a stored page is the
middleware around it (session, language, CSRF, user, messages, CSP) and URL resolving, not the
cache read. So ``PublicFastPathMiddleware`` (``tournaments.middleware``), right after the security
middleware, answers a reader who can only be signed out (no session cookie, no message cookie, no
``Authorization``) from the stored page before the rest of the stack runs: ``early_answer``. It
needs the headers the rest of the stack added to the page (language, CSP, frame options), so a page
is stored as it leaves through that middleware, with them (``keep_headers``); one stored without
them (its first answer was a 304) is served the long way until they are. The live check every open page polls
(``answered_early``) is answered there too: it reads nothing of the reader.

Only canonical pages are stored, so a flood of made-up addresses cannot fill the cache (every
distinct query string used to store its own copy): a page names the query parameters it reads
(``public_page(query=("q", "page"))``), and the key holds only those, normalised (``NORMALISE``:
a search folded, a number without leading zeros, a range in capitals), empty ones dropped. A request
with any other parameter is served the canonical page when it is stored, else rendered for it
alone and not stored. A page with a query is stored on its second request in a process
(``_asked_before``), so values asked for once (a search for no one, a made-up range) store
nothing. Pages with a query count against a budget per event and generation
(``QUERY_PAGES_PER_EVENT``), searches (``q``, any text) apart from the rest (page numbers, rounds,
ranges), so a flood of searches never crowds out the pairings by table the hall reloads; past it
they are rendered, not stored. A page's plain address is always stored: there is one per page and
language. Pages of an old generation are unreachable and the least recently used: the cache
evicts them first. The cache
is a Redis of its own in production, evicting the least recently used keys, apart from the
Celery broker (``CACHE_URL``, docs/deploy.md).
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache, wraps
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.messages import get_messages
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import get_language, get_language_from_request

from tournaments.domain.text import fold
from tournaments.live import generation, generation_key

#: Seconds a rendered page is kept; a new generation makes it unreachable long before.
PAGE_TIMEOUT = 600
#: Seconds a browser or proxy may reuse a public page without asking (live pages poll every few).
PUBLIC_MAX_AGE = 2
#: Headers a stored page's answer never repeats: the reader's own, or those made per answer.
NOT_KEPT = frozenset({"set-cookie", "etag", "last-modified", "content-length", "content-type", "date"})


#: Query pages stored per event and generation, of each kind (searches; page numbers and ranges).
QUERY_PAGES_PER_EVENT = 500
#: Query pages this process has rendered once and not stored, remembered until asked again.
ASKED_ONCE_MAX = 10_000

_asked_once: OrderedDict[str, None] = OrderedDict()
_asked_once_lock = threading.Lock()


def _number(value: str) -> str:
    value = value.strip()
    return str(int(value)) if value.isascii() and value.isdigit() and len(value) <= 20 else value


def _range(value: str) -> str:
    """A range as the pairings page parses it: each end stripped ("1 - 50" is "1-50")."""
    first, dash, last = value.partition("-")
    return f"{first.strip()}{dash}{last.strip()}"


#: How each query parameter a public page may read is written in the key: two spellings a page
#: reads alike ("ANN " and "ann", "007" and "7", "a-f" and "A-F") share one stored page.
NORMALISE: dict[str, Callable[[str], str]] = {
    "q": fold,
    "page": _number,
    "round": _number,
    "tables": _range,
    "names": lambda value: _range(value.upper()),
}


def _query_key(request: HttpRequest, reads: tuple[str, ...]) -> tuple[str, bool]:
    """The query as the page reads it (only the parameters in ``reads``, normalised, empty ones
    dropped) and whether the request carries any other parameter."""
    items = []
    for name in sorted(reads):
        value = NORMALISE[name](request.GET.get(name, ""))
        if value:
            items.append((name, value))
    return urlencode(items), any(name not in reads for name in request.GET)


def _page_key(
    request: HttpRequest, tournament_id: int, language: str, reads: tuple[str, ...]
) -> tuple[str, bool, str]:
    """The stored page's key; whether the request may store under it (no parameter the page does
    not read), and the budget the page counts against: "" for none (no query), "search" or "query"
    (``QUERY_PAGES_PER_EVENT``). Per ``PUBLIC_URL`` too: the projectors print it, and a laptop
    restarted on the hall's network keeps its file cache (and the event's generation)."""
    query, foreign = _query_key(request, reads)
    raw = f"{request.path}?{query}|{language}|{settings.PUBLIC_URL}"
    digest = hashlib.sha256(raw.encode()).hexdigest()[:32]
    budget = (
        ""
        if not query
        else "search"
        if NORMALISE["q"](request.GET.get("q", "")) and "q" in reads
        else "query"
    )
    return f"public-page:{tournament_id}:{digest}", not foreign, budget


def _within_budget(tournament_id: int, current: int, budget: str) -> bool:
    """Count one more stored page against the event's ``budget`` at generation ``current``;
    ``False`` once it is spent."""
    key = f"public-pages-stored:{tournament_id}:{current}:{budget}"
    _cache_call(cache.add, key, 0, PAGE_TIMEOUT)
    stored = _cache_call(cache.incr, key)
    return stored is None or stored <= QUERY_PAGES_PER_EVENT


def _asked_before(key: str, current: int) -> bool:
    """Whether this process rendered the page under ``key`` at generation ``current`` before; the
    first time, remember it. A query page is stored on its second request: a flood of values the
    page reads, each asked once (a search for no one, a range nobody prints), stores nothing, and
    the pages the hall reloads are stored from their second reader on. In memory, not the cache,
    so the flood adds no key there either."""
    marker = f"{cache.make_key(key)}:{current}"
    with _asked_once_lock:
        if marker in _asked_once:
            del _asked_once[marker]
            return True
        _asked_once[marker] = None
        if len(_asked_once) > ASKED_ONCE_MAX:
            _asked_once.popitem(last=False)
        return False


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


def _lookup(key: str, tournament_id: int) -> tuple[dict | None, int | None]:
    """The stored page under ``key`` and the event's current generation, in one round trip."""
    found = _cache_call(cache.get_many, [generation_key(tournament_id), key]) or {}
    current = found.get(generation_key(tournament_id))
    if current is None:
        current = generation(tournament_id)
    return found.get(key), current


def _signed_out(request: HttpRequest) -> bool:
    """Whether the request can only come from a signed-out reader with no message waiting, told
    from its cookies alone (no session is loaded): the fast path's side of ``_shareable``."""
    if request.method not in ("GET", "HEAD") or "Authorization" in request.headers:
        return False
    cookies = request.COOKIES
    return settings.SESSION_COOKIE_NAME not in cookies and CookieStorage.cookie_name not in cookies


@lru_cache(maxsize=4096)
def _resolved(urlconf: str, path: str) -> tuple[Callable[..., HttpResponse], tuple, dict] | None:
    """The view an address leads to, remembered: resolving it anew costs more than the rest of an
    early answer (a hall asks for the same few addresses all day)."""
    try:
        match = resolve(path, urlconf)
    except Resolver404:
        return None
    return match.func, match.args, match.kwargs


def answered_early(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Mark a view that reads nothing of the reader (session, user, language, CSRF) and renders no
    page, so that ``early_answer`` calls it before the rest of the middleware."""
    view.answered_early = True  # type: ignore[attr-defined]
    return view


def early_answer(request: HttpRequest) -> HttpResponse | None:
    """The answer to a signed-out reader, before the rest of the middleware runs: their stored
    public page, or an ``answered_early`` view's; ``None`` when the request must take the long way
    (a page not stored yet, a reader who may be signed in, any other address)."""
    if not _signed_out(request):
        return None
    request.get_host()  # a Host outside ALLOWED_HOSTS is refused here too (400), as CommonMiddleware does
    resolved = _resolved(settings.ROOT_URLCONF, request.path_info)
    if resolved is None:
        return None
    view, args, kwargs = resolved
    if getattr(view, "answered_early", False):
        return view(request, *args, **kwargs)
    if not getattr(view, "public_page", False):
        return None
    tournament_id = kwargs["tournament_id"]
    key, _storable, _query = _page_key(
        request, tournament_id, get_language_from_request(request), view.public_query
    )
    entry, current = _lookup(key, tournament_id)
    if entry is None or entry["generation"] != current or "headers" not in entry:
        return None
    response = HttpResponse(entry["body"], content_type=entry["content_type"])
    for name, value in entry["headers"]:
        response[name] = value
    answer = _conditional(request, response, entry["etag"], entry["modified"])
    if answer is not response:  # a 304 carries the page's headers, as the long way's does
        for name, value in entry["headers"]:
            answer.headers.setdefault(name, value)
    return answer


def keep_headers(response: HttpResponse) -> None:
    """Store a page ``public_page`` just rendered (or found stored without headers) with the headers
    the whole stack gave it, so that ``early_answer`` can serve it: the one place pages are stored.
    Without the headers when they cannot be known or shared (a 304, an answer setting a cookie)."""
    pending = getattr(response, "public_page_pending", None)
    if pending is None:
        return
    key, entry = pending
    if response.status_code == 200 and not response.cookies:
        headers = [(name, value) for name, value in response.items() if name.lower() not in NOT_KEPT]
        entry = {**entry, "headers": headers}
    _cache_call(cache.set, key, entry, PAGE_TIMEOUT)


def public_page(view: Callable[..., HttpResponse] | None = None, *, query: tuple[str, ...] = ()) -> Any:
    """Cache ``view``'s answers to signed-out readers per event generation (the module docstring);
    ``PublicFastPathMiddleware`` stores a page on its way out (``keep_headers``). ``query``: the
    parameters the page reads (keys of ``NORMALISE``); a page with none takes no query."""
    unknown = set(query) - set(NORMALISE)
    if unknown:
        raise ValueError(f"public_page: no normalisation for {sorted(unknown)}")
    if view is None:
        return lambda wrapped: public_page(wrapped, query=query)

    @wraps(view)
    def wrapper(request: HttpRequest, tournament_id: int, *args: Any, **kwargs: Any) -> HttpResponse:
        if not _shareable(request):
            response = view(request, *args, tournament_id=tournament_id, **kwargs)
            if request.method in ("GET", "HEAD") and response.status_code == 200:
                # No ETag: the page carries the reader's CSRF token, new on every render.
                patch_cache_control(response, private=True, no_cache=True)
            return response
        # The page is good if it was rendered at the current generation.
        key, storable, budget = _page_key(request, tournament_id, get_language(), query)
        entry, current = _lookup(key, tournament_id)
        fresh = entry is None or entry["generation"] != current
        if fresh:
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
        else:
            response = HttpResponse(entry["body"], content_type=entry["content_type"])
        patch_cache_control(response, public=True, max_age=PUBLIC_MAX_AGE)
        patch_vary_headers(response, ("Cookie", "Accept-Language"))
        answer = _conditional(request, response, entry["etag"], entry["modified"])
        if (
            "headers" not in entry
            and storable
            and (
                not fresh
                or not budget
                or (_asked_before(key, current) and _within_budget(tournament_id, current, budget))
            )
        ):
            answer.public_page_pending = (key, entry)  # type: ignore[attr-defined]  # keep_headers stores it
        return answer

    wrapper.public_page = True  # type: ignore[attr-defined]  # what early_answer looks for
    wrapper.public_query = query  # type: ignore[attr-defined]  # the parameters in its key
    return wrapper
