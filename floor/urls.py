"""Floor pages."""

from django.urls import path

from floor import notes_views, views

urlpatterns = [
    path("events/<int:tournament_id>/floor/calls/", views.calls_page, name="floor-calls"),
    path("events/<int:tournament_id>/floor/calls/new/", views.call_raise, name="floor-call-raise"),
    path("events/<int:tournament_id>/floor/calls/<int:call_id>/", views.call_page, name="floor-call"),
    path(
        "events/<int:tournament_id>/floor/calls/<int:call_id>/<str:action>/",
        views.call_action,
        name="floor-call-action",
    ),
    path("events/<int:tournament_id>/floor/head-judge/", views.head_judge_page, name="floor-head-judge"),
    path("events/<int:tournament_id>/floor/zones/", views.zones_page, name="floor-zones"),
    path("events/<int:tournament_id>/floor/end-of-round/", views.console_page, name="floor-console"),
    path(
        "events/<int:tournament_id>/floor/end-of-round/projector/",
        views.console_projector,
        name="floor-projector",
    ),
    path("events/<int:tournament_id>/floor/end-of-round/sheet.pdf", views.console_sheet, name="floor-sheet"),
    path("events/<int:tournament_id>/floor/turns/<int:match_id>/", views.console_turn, name="floor-turn"),
    path(
        "events/<int:tournament_id>/floor/time-call/<int:match_id>/",
        views.console_time_call,
        name="floor-time-call",
    ),
    path(
        "events/<int:tournament_id>/floor/result/<int:match_id>/", views.console_result, name="floor-result"
    ),
    path("events/<int:tournament_id>/floor/deck-checks/", views.deck_checks_page, name="floor-deck-checks"),
    path("events/<int:tournament_id>/floor/notes/", notes_views.notes_page, name="floor-notes"),
    path(
        "events/<int:tournament_id>/floor/dq/<int:penalty_id>/",
        notes_views.dq_report_page,
        name="floor-dq-report",
    ),
    path(
        "events/<int:tournament_id>/floor/investigations/",
        notes_views.investigations_page,
        name="floor-investigations",
    ),
    path(
        "events/<int:tournament_id>/floor/investigations/<int:investigation_id>/",
        notes_views.investigation_page,
        name="floor-investigation",
    ),
]
