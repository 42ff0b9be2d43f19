from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from common.views import SwaggerDocsView

api_v1 = [
    path("", include("tournaments.api.urls")),
    path("", include("clock.api.urls")),
    path("", include("decklists.api.urls")),
    path("", include("penalties.api.urls")),
    path("", include("documents.api.urls")),
    path("", include("floor.api.urls")),
    path("", include("event_io.api_urls")),
]

urlpatterns = [
    path("", include("accounts.urls")),  # first: it holds /admin/login/ with the log-in limit
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file, so the docs need no inline script (CSP).
    path("api/docs/", SwaggerDocsView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/", include(api_v1)),
    path("", include("common.urls")),
    path("", include("tournaments.urls")),
    path("", include("clock.urls")),
    path("", include("decklists.urls")),
    path("", include("penalties.urls")),
    path("", include("documents.urls")),
    path("", include("floor.urls")),
    path("", include("event_io.urls")),
]

handler400 = "common.views.bad_request"
handler404 = "common.views.not_found"
handler403 = "common.views.forbidden"
handler500 = "common.views.server_error"
