from django.urls import path

from decklists.api import views

urlpatterns = [
    path(
        "tournaments/<int:tournament_id>/decklists/",
        views.DecklistSubmitApi.as_view(),
        name="api-decklist-submit",
    ),
    path(
        "tournaments/<int:tournament_id>/decklists/preview/",
        views.DecklistPreviewApi.as_view(),
        name="api-decklist-preview",
    ),
    path(
        "tournaments/<int:tournament_id>/decklists/<int:decklist_id>/",
        views.DecklistDetailApi.as_view(),
        name="api-decklist-detail",
    ),
    path(
        "tournaments/<int:tournament_id>/teams/<int:team_id>/decklists/",
        views.TeamDecklistsApi.as_view(),
        name="api-team-decklists",
    ),
    path(
        "tournaments/<int:tournament_id>/teams/<int:team_id>/pool/",
        views.TeamPoolApi.as_view(),
        name="api-team-pool",
    ),
]
