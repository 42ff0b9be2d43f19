import sys

from django.conf import settings
from django.http import Http404, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils import translation
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET
from django.views.defaults import server_error as django_server_error
from django.views.i18n import JavaScriptCatalog, set_language
from drf_spectacular.views import SpectacularSwaggerSplitView

from common.api import error_body
from common.health import health_report
from common.middleware import API_PREFIX, DATABASE_UNAVAILABLE_ERRORS, database_unavailable_response
from common.numbers import BadParameter


@require_GET
@never_cache
def healthz(request):
    healthy, report = health_report()
    return JsonResponse(report, status=200 if healthy else 503)


@csrf_exempt
def language_set(request):
    """The language switcher in every page's header (Django's ``set_language``, kept in a cookie).

    Without a CSRF check: the public pages are the same stored bytes for every reader
    (``tournaments.page_cache``), so their switcher cannot carry a reader's own token, and a player
    on a stored page with no cookie yet must still be able to switch. A forged switch can only
    change the language a browser reads the site in, which the reader changes back the same way.
    """
    return set_language(request)


def not_found(request, exception=None):
    """404 for URLs no route matches: the API's error shape under /api/, Django's page elsewhere.

    An id that does not fit a route's converter (a negative match id in an API path) never reaches a view,
    so without this an API client would get an HTML page instead of the one error shape.
    """
    if request.path.startswith(API_PREFIX):
        message = f"no such API endpoint or object: {request.path}"
        return JsonResponse(error_body(message, field="path"), status=404)
    return render(request, "404.html", {"request_path": request.path}, status=404)


def forbidden(request, exception=None):
    """403 in the site's layout: the reason the view gave, and what the person can do about it."""
    if request.path.startswith(API_PREFIX):
        return JsonResponse(error_body(str(exception or "forbidden"), field="permission"), status=403)
    reason = str(exception or "") or "You do not have access to this page."
    return render(request, "403.html", {"reason": reason}, status=403)


def favicon(request):
    """Browsers ask for /favicon.ico whatever the page links; send them to the static icon."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


def bad_request(request, exception=None):
    """400 naming the parameter for a :class:`BadParameter`; the API's error shape under /api/."""
    if isinstance(exception, BadParameter):
        message, field = str(exception), exception.field
    else:
        message, field = "the request is malformed", "body"
    if request.path.startswith(API_PREFIX):
        return JsonResponse(error_body(message, field=field), status=400)
    return render(request, "400.html", {"message": message}, status=400)


def server_error(request):
    """500, or 503 when what failed was reaching the database (``DatabaseUnavailableMiddleware``
    covers views; this covers errors raised outside them, e.g. loading the session)."""
    exception = sys.exc_info()[1]
    if isinstance(exception, DATABASE_UNAVAILABLE_ERRORS):
        return database_unavailable_response(request)
    if request.path.startswith(API_PREFIX):
        message = "internal error; the administrators have the details in the log"
        return JsonResponse({"detail": message, "errors": [{"message": message}]}, status=500)
    return django_server_error(request)


def javascript_catalog(request, language: str | None = None):
    """The scripts' translations (``gettext()`` in static/js): in the reader's language, or in
    ``language`` for a page shown to the whole hall in the event's language (the projector clock)."""
    if language is None:
        return JavaScriptCatalog.as_view()(request)
    if language not in dict(settings.LANGUAGES):
        raise Http404(_("no such language: %(language)s") % {"language": language})
    with translation.override(language):
        return JavaScriptCatalog.as_view()(request)


class SwaggerDocsView(SpectacularSwaggerSplitView):
    """The API's documentation page. DRF answers OPTIONS with the view's metadata rendered by its
    renderer, here an HTML template the OPTIONS answer has none of (a 500); a page answers OPTIONS
    as every Django view does: 200 with ``Allow``."""

    def options(self, request, *args, **kwargs):
        return View.options(self, request, *args, **kwargs)
