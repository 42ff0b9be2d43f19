"""The installable web app: its manifest, its service worker and the page it shows offline.

The service worker (``templates/tournaments/service_worker.js``) is hand-written rather than built
with Workbox: the project has no JavaScript build step, and Workbox would bring one (or its runtime
loaded from a CDN, which the CSP and an event with no internet both rule out) for the two
strategies it needs here: the public and player's pages network first, kept for when the network is
gone, and the static files served from the phone and refreshed behind. Result reports and judge
calls made offline are kept and sent by the page itself (``static/js/outbox.js``), which also works
where no service worker is given (a laptop reached over plain http), so the worker holds no queue.

The worker is served from the site's root so that its scope covers every page; its text changes
with the static files it names, so a phone picks up a new version when the site is upgraded.
"""

from __future__ import annotations

import hashlib
import json
import re

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

# The pages a phone keeps for when the network is gone: the public pages and the player's own, by
# URL name and the number of ids in their path. Staff pages are never kept: a stale manage page
# would invite stale writes.
OFFLINE_PAGES = (
    ("home", 0),
    ("tournament-public", 1),
    ("tournament-pairings", 1),
    ("tournament-pairings-projector", 1),
    ("tournament-standings", 1),
    ("tournament-round", 2),
    ("tournament-team", 2),
    ("tournament-me", 1),
    ("clock-me", 1),
    ("clock-projector", 1),
)


# Static files the pages above need, fetched when the worker is installed.
PRECACHED_STATIC = (
    "css/site.css",
    "css/clock.css",
    "css/projector.css",
    "vendor/htmx-2.0.4.min.js",
    "js/pwa.js",
    "js/outbox.js",
    "js/public_live.js",
    "js/clock.js",
    "js/floor_live.js",
    "js/pairings_search.js",
    "js/projector_scroll.js",
    "favicon.svg",
    "icons/icon-192.png",
)


_ID = 987654321


def page_patterns() -> list[str]:
    """Each offline page's path as a regular expression (ids as ``\\d+``), for the worker."""
    patterns = []
    for name, ids in OFFLINE_PAGES:
        path = reverse(name, args=[_ID] * ids)
        patterns.append("^" + re.escape(path).replace(str(_ID), r"\d+") + "$")
    return patterns


def worker_config() -> dict:
    precache = [static(name) for name in PRECACHED_STATIC] + [reverse("offline")]
    config = {
        "pages": page_patterns(),
        "precache": precache,
        "offline": reverse("offline"),
        "static": settings.STATIC_URL,
        "catalog": reverse("javascript-catalog"),
        # A log-in or log-out forgets the pages kept: they were someone's own.
        "forgetOn": [reverse("login"), reverse("logout")],
    }
    config["version"] = hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()[:12]
    return config


@require_GET
@never_cache
def service_worker(request):
    """``/sw.js``: at the root, so its scope is the whole site; never cached by the browser, so a
    new version is found at once."""
    body = render_to_string("tournaments/service_worker.js", {"config": json.dumps(worker_config())})
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def manifest(request):
    """The web app manifest: installable from the browser's menu, opening on the events list."""
    body = {
        "name": "2HG Toolkit",
        "short_name": "2HG",
        "description": _("Pairings, standings, your table and the round clock, also when the network drops."),
        "lang": request.LANGUAGE_CODE,
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#111111",
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("icons/icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    response = JsonResponse(body, content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_GET
def offline_page(request):
    """What the phone shows for a page it never opened while the network is gone (the worker
    keeps this page when it is installed)."""
    return render(request, "tournaments/offline.html")
