"""Round clock endpoints, mounted under /api/v1/."""

from django.urls import path

from tournaments.api import clock_views

urlpatterns = [
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/clock/",
        clock_views.RoundClockApi.as_view(),
        name="api-round-clock",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/start/",
        clock_views.RoundStartApi.as_view(),
        name="api-round-clock-start",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/pause/",
        clock_views.RoundPauseApi.as_view(),
        name="api-round-clock-pause",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/resume/",
        clock_views.RoundResumeApi.as_view(),
        name="api-round-clock-resume",
    ),
    path(
        "matches/<int:match_id>/extensions/",
        clock_views.MatchExtensionCreateApi.as_view(),
        name="api-match-extensions",
    ),
    path("matches/<int:match_id>/time/", clock_views.MatchTimeCallApi.as_view(), name="api-match-time-call"),
    path(
        "matches/<int:match_id>/turns/",
        clock_views.MatchTurnCompleteApi.as_view(),
        name="api-match-turn-complete",
    ),
]
