from django.urls import path

from decklists import views

urlpatterns = [
    path("events/<int:tournament_id>/decklists/", views.team_decklists, name="decklists-team"),
    path("events/<int:tournament_id>/decklists/judge/", views.judge_decklists, name="decklists-judge"),
    path(
        "events/<int:tournament_id>/decklists/players/<int:player_id>/",
        views.decklist_enter,
        name="decklist-enter",
    ),
    path("events/<int:tournament_id>/deckchecks/<int:match_id>/", views.deck_check, name="deck-check"),
]
