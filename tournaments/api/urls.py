"""Events API v1 paths, relative to /api/v1/."""

from django.urls import path

from tournaments.api import team_views, views

urlpatterns = [
    path("tournaments/", views.TournamentListCreateApi.as_view(), name="api-tournaments"),
    path("tournaments/<int:tournament_id>/", views.TournamentDetailApi.as_view(), name="api-tournament"),
    path("tournaments/<int:tournament_id>/staff/", views.StaffListAddApi.as_view(), name="api-staff"),
    path(
        "tournaments/<int:tournament_id>/teams/", team_views.TeamListRegisterApi.as_view(), name="api-teams"
    ),
    path(
        "tournaments/<int:tournament_id>/teams/<int:team_id>/",
        team_views.TeamDetailApi.as_view(),
        name="api-team",
    ),
    path(
        "tournaments/<int:tournament_id>/teams/<int:team_id>/drop/",
        team_views.TeamDropApi.as_view(),
        name="api-team-drop",
    ),
    path(
        "tournaments/<int:tournament_id>/teams/<int:team_id>/disqualify/",
        team_views.TeamDisqualifyApi.as_view(),
        name="api-team-disqualify",
    ),
    path(
        "tournaments/<int:tournament_id>/teams/<int:team_id>/check-in/",
        team_views.TeamCheckInApi.as_view(),
        name="api-team-check-in",
    ),
    path(
        "tournaments/<int:tournament_id>/teams/<int:team_id>/reinstate/",
        team_views.TeamReinstateApi.as_view(),
        name="api-team-reinstate",
    ),
    path(
        "tournaments/<int:tournament_id>/teams/<int:team_id>/invitations/",
        team_views.TeamInvitationSendApi.as_view(),
        name="api-team-invitations",
    ),
    path(
        "tournaments/<int:tournament_id>/teams/<int:team_id>/invitations/<int:invitation_id>/",
        team_views.TeamInvitationCancelApi.as_view(),
        name="api-team-invitation",
    ),
    path(
        "tournaments/<int:tournament_id>/invitations/",
        team_views.MyInvitationsApi.as_view(),
        name="api-invitations",
    ),
    path(
        "invitations/<str:code>/accept/",
        team_views.InvitationAcceptApi.as_view(),
        name="api-invitation-accept",
    ),
    path(
        "invitations/<str:code>/decline/",
        team_views.InvitationDeclineApi.as_view(),
        name="api-invitation-decline",
    ),
    path("tournaments/<int:tournament_id>/pool/", team_views.PoolApi.as_view(), name="api-pool"),
    path(
        "tournaments/<int:tournament_id>/pool/teams/",
        team_views.PoolTeamsApi.as_view(),
        name="api-pool-teams",
    ),
    path("tournaments/<int:tournament_id>/rounds/", views.RoundListPairApi.as_view(), name="api-rounds"),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/",
        views.RoundDetailApi.as_view(),
        name="api-round",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/publish/",
        views.RoundPublishApi.as_view(),
        name="api-round-publish",
    ),
    path("tournaments/<int:tournament_id>/cut/", views.CutBuildApi.as_view(), name="api-cut"),
    path("tournaments/<int:tournament_id>/pods/", views.PodsApi.as_view(), name="api-pods"),
    path("tournaments/<int:tournament_id>/standings/", views.StandingsApi.as_view(), name="api-standings"),
    path("matches/<int:match_id>/", views.MatchDetailApi.as_view(), name="api-match"),
    path("matches/<int:match_id>/result/", views.MatchResultReportApi.as_view(), name="api-match-result"),
    path("matches/<int:match_id>/seats/", views.MatchSeatsApi.as_view(), name="api-match-seats"),
]
