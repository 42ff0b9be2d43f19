from django.urls import path

from tournaments import views

urlpatterns = [
    path("", views.home, name="home"),
    path("dashboard/", views.dashboard, name="dashboard"),
    path("events/<int:tournament_id>/", views.tournament_public, name="tournament-public"),
]
