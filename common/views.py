from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from common.health import health_report


@require_GET
@never_cache
def healthz(request):
    healthy, report = health_report()
    return JsonResponse(report, status=200 if healthy else 503)
