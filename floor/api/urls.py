"""Floor endpoints, mounted under /api/v1/."""

from django.urls import path

from floor.api import views

urlpatterns = [
    path(
        "tournaments/<int:tournament_id>/judge-calls/", views.JudgeCallsApi.as_view(), name="api-judge-calls"
    ),
    path("judge-calls/<int:call_id>/claim/", views.JudgeCallClaimApi.as_view(), name="api-judge-call-claim"),
    path(
        "judge-calls/<int:call_id>/escalate/",
        views.JudgeCallEscalateApi.as_view(),
        name="api-judge-call-escalate",
    ),
    path(
        "judge-calls/<int:call_id>/resolve/",
        views.JudgeCallResolveApi.as_view(),
        name="api-judge-call-resolve",
    ),
    path("tournaments/<int:tournament_id>/zones/", views.ZonesApi.as_view(), name="api-zones"),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/end-of-round/",
        views.EndOfRoundApi.as_view(),
        name="api-end-of-round",
    ),
    path(
        "tournaments/<int:tournament_id>/deck-checks/plan/",
        views.DeckCheckPlanApi.as_view(),
        name="api-deck-check-plan",
    ),
    path(
        "tournaments/<int:tournament_id>/deck-checks/contenders/",
        views.DeckCheckContendersApi.as_view(),
        name="api-deck-check-contenders",
    ),
    path("tournaments/<int:tournament_id>/notes/", views.NotesApi.as_view(), name="api-notes"),
    path("notes/<int:note_id>/lock/", views.NoteLockApi.as_view(), name="api-note-lock"),
]
