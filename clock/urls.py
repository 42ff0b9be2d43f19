"""Round clock pages: the projector, the judges' list and a player's own table."""

from django.urls import path

from clock import views

urlpatterns = [
    path("events/<int:tournament_id>/clock/", views.clock_projector, name="clock-projector"),
    path("events/<int:tournament_id>/clock/judge/", views.clock_judge, name="clock-judge"),
    path("events/<int:tournament_id>/clock/me/", views.clock_me, name="clock-me"),
    path(
        "events/<int:tournament_id>/clock/judge/rounds/<int:number>/<slug:action>/",
        views.clock_round_action,
        name="clock-round-action",
    ),
    path(
        "events/<int:tournament_id>/clock/judge/matches/<int:match_id>/extension/",
        views.clock_extension,
        name="clock-extension",
    ),
    path(
        "events/<int:tournament_id>/clock/judge/matches/<int:match_id>/time/",
        views.clock_time_call,
        name="clock-time-call",
    ),
    path(
        "events/<int:tournament_id>/clock/judge/matches/<int:match_id>/turn/",
        views.clock_turn_complete,
        name="clock-turn-complete",
    ),
    path(
        "events/<int:tournament_id>/clock/judge/matches/<int:match_id>/life-totals/",
        views.clock_life_totals,
        name="clock-life-totals",
    ),
]
