from django.urls import path

from common import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("jsi18n/", views.javascript_catalog, name="javascript-catalog"),
    path("jsi18n/<str:language>/", views.javascript_catalog, name="javascript-catalog-language"),
]
