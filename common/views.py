from django.http import HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from common.api import error_body
from common.health import health_report
from common.middleware import API_PREFIX


@require_GET
@never_cache
def healthz(request):
    healthy, report = health_report()
    return JsonResponse(report, status=200 if healthy else 503)


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
