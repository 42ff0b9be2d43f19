from django.urls import path

from event_io import views

urlpatterns = [
    path("events/<int:tournament_id>/mirror/", views.mirror_settings, name="mirror-settings"),
]
