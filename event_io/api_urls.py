from django.urls import path

from event_io import api

urlpatterns = [
    path("tournaments/<int:tournament_id>/mirror/", api.MirrorApi.as_view(), name="api-mirror"),
    path("mirrors/<str:key>/", api.MirrorPushApi.as_view(), name="api-mirror-push"),
]
