from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

api_v1 = [
    path("", include("tournaments.api.urls")),
    path("", include("clock.api.urls")),
    path("", include("decklists.api.urls")),
    path("", include("penalties.api.urls")),
    path("", include("documents.api.urls")),
    path("", include("floor.api.urls")),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/", include(api_v1)),
    path("", include("common.urls")),
    path("", include("accounts.urls")),
    path("", include("tournaments.urls")),
    path("", include("clock.urls")),
    path("", include("decklists.urls")),
    path("", include("penalties.urls")),
    path("", include("documents.urls")),
    path("", include("floor.urls")),
]

handler404 = "common.views.not_found"
handler403 = "common.views.forbidden"
