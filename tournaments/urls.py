from django.urls import path

from tournaments import (
    manage_event_views,
    manage_team_views,
    manage_views,
    offline_views,
    public_views,
    report_views,
    views,
    views_teams,
)

urlpatterns = [
    path("", views.home, name="home"),
    path("sw.js", offline_views.service_worker, name="service-worker"),
    path("manifest.webmanifest", offline_views.manifest, name="web-manifest"),
    path("offline/", offline_views.offline_page, name="offline"),
    path("dashboard/", views.dashboard, name="dashboard"),
    path("events/new/", views.tournament_new, name="tournament-create"),
    path("events/<int:tournament_id>/", public_views.tournament_public, name="tournament-public"),
    path("events/<int:tournament_id>/pairings/", public_views.pairings_page, name="tournament-pairings"),
    path(
        "events/<int:tournament_id>/pairings/projector/",
        public_views.pairings_projector,
        name="tournament-pairings-projector",
    ),
    path("events/<int:tournament_id>/standings/", public_views.standings_page, name="tournament-standings"),
    path("events/<int:tournament_id>/live/", public_views.event_generation, name="tournament-live"),
    path("events/<int:tournament_id>/me/", views.tournament_me, name="tournament-me"),
    path(
        "events/<int:tournament_id>/me/matches/<int:match_id>/seats/",
        views.match_seats_view,
        name="tournament-me-seats",
    ),
    path("events/<int:tournament_id>/me/team/", views_teams.team_create_view, name="tournament-me-team"),
    path(
        "events/<int:tournament_id>/me/invite/", views_teams.invitation_send_view, name="tournament-me-invite"
    ),
    path(
        "events/<int:tournament_id>/invitations/<int:invitation_id>/cancel/",
        views_teams.invitation_cancel_view,
        name="tournament-invitation-cancel",
    ),
    path("events/<int:tournament_id>/pool/join/", views_teams.pool_join_view, name="tournament-pool-join"),
    path("events/<int:tournament_id>/pool/leave/", views_teams.pool_leave_view, name="tournament-pool-leave"),
    path("events/<int:tournament_id>/pool/form/", views_teams.pool_form_view, name="tournament-pool-form"),
    path(
        "events/<int:tournament_id>/pool/form-by-hand/",
        views_teams.pool_form_by_hand_view,
        name="tournament-pool-form-by-hand",
    ),
    path(
        "events/<int:tournament_id>/teams/<int:team_id>/check-in/",
        views_teams.team_check_in_view,
        name="tournament-team-check-in",
    ),
    path("join/", views_teams.join_code_lookup, name="team-join-lookup"),
    path("join/<str:code>/", views_teams.team_join, name="team-join"),
    path("slip/<int:match_id>/<str:secret>/", report_views.slip_report_view, name="slip-report"),
    path("events/<int:tournament_id>/slips/", report_views.slip_entry_view, name="tournament-slip-entry"),
    path(
        "events/<int:tournament_id>/slips/<int:match_id>/",
        report_views.slip_entry_view,
        name="tournament-slip-entry-save",
    ),
    path(
        "events/<int:tournament_id>/me/matches/<int:match_id>/report/",
        report_views.me_report_view,
        name="tournament-me-report",
    ),
    path("events/<int:tournament_id>/manage/", manage_views.tournament_manage, name="tournament-manage"),
    path("events/<int:tournament_id>/audit/", manage_event_views.tournament_audit, name="tournament-audit"),
    path(
        "events/<int:tournament_id>/settings/",
        manage_event_views.tournament_settings,
        name="tournament-settings",
    ),
    path("events/<int:tournament_id>/staff/", manage_event_views.staff_add_view, name="tournament-staff-add"),
    path(
        "events/<int:tournament_id>/staff/<int:staff_id>/remove/",
        manage_event_views.staff_remove_view,
        name="tournament-staff-remove",
    ),
    path("events/<int:tournament_id>/teams/", manage_team_views.team_add, name="tournament-team-add"),
    path(
        "events/<int:tournament_id>/teams/import/",
        manage_team_views.teams_import_view,
        name="tournament-teams-import",
    ),
    path(
        "events/<int:tournament_id>/teams/<int:team_id>/edit/",
        manage_team_views.team_edit,
        name="tournament-team-edit",
    ),
    path(
        "events/<int:tournament_id>/teams/<int:team_id>/undrop/",
        manage_team_views.team_drop_undo_view,
        name="tournament-team-undrop",
    ),
    path(
        "events/<int:tournament_id>/teams/<int:team_id>/reinstate/",
        manage_team_views.team_reinstate_view,
        name="tournament-team-reinstate",
    ),
    path(
        "events/<int:tournament_id>/check-in/code/",
        manage_team_views.check_in_by_code_view,
        name="tournament-check-in-code",
    ),
    path(
        "events/<int:tournament_id>/check-in/present/",
        manage_team_views.check_in_present_view,
        name="tournament-check-in-present",
    ),
    path(
        "events/<int:tournament_id>/teams/<int:team_id>/link/",
        manage_team_views.player_link_view,
        name="tournament-player-link",
    ),
    path(
        "events/<int:tournament_id>/teams/<int:team_id>/drop/",
        manage_team_views.team_drop_view,
        name="tournament-team-drop",
    ),
    path("events/<int:tournament_id>/rounds/", manage_views.round_pair_view, name="tournament-round-pair"),
    path("events/<int:tournament_id>/rounds/<int:number>/", views.round_page, name="tournament-round"),
    path("events/<int:tournament_id>/teams/<int:team_id>/", views.team_page, name="tournament-team"),
    path(
        "events/<int:tournament_id>/rounds/<int:round_id>/publish/",
        manage_views.round_publish_view,
        name="tournament-round-publish",
    ),
    path(
        "events/<int:tournament_id>/rounds/<int:round_id>/delete/",
        manage_views.round_delete_view,
        name="tournament-round-delete",
    ),
    path(
        "events/<int:tournament_id>/matches/<int:match_id>/result/",
        manage_views.match_result_view,
        name="tournament-match-result",
    ),
    path("events/<int:tournament_id>/cut/", manage_views.cut_build_view, name="tournament-cut-build"),
    path("events/<int:tournament_id>/pods/", manage_views.pods_seat_view, name="tournament-pods-seat"),
]
