from django.urls import path

from common import views

urlpatterns = [
    # The switcher posts here; the choice is kept in a cookie (views.language_set says why no CSRF).
    path("i18n/setlang/", views.language_set, name="set_language"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("jsi18n/", views.javascript_catalog, name="javascript-catalog"),
    path("jsi18n/<str:language>/", views.javascript_catalog, name="javascript-catalog-language"),
]
