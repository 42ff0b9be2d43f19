"""Round clock endpoints, mounted under /api/v1/."""

from django.urls import path

from clock.api import views

urlpatterns = [
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/clock/",
        views.RoundClockApi.as_view(),
        name="api-round-clock",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/start/",
        views.RoundStartApi.as_view(),
        name="api-round-clock-start",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/pause/",
        views.RoundPauseApi.as_view(),
        name="api-round-clock-pause",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/resume/",
        views.RoundResumeApi.as_view(),
        name="api-round-clock-resume",
    ),
    path(
        "matches/<int:match_id>/extensions/",
        views.MatchExtensionCreateApi.as_view(),
        name="api-match-extensions",
    ),
    path("matches/<int:match_id>/time/", views.MatchTimeCallApi.as_view(), name="api-match-time-call"),
    path(
        "matches/<int:match_id>/turns/",
        views.MatchTurnCompleteApi.as_view(),
        name="api-match-turn-complete",
    ),
]
