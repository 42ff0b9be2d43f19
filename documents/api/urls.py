from django.urls import path

from documents.api import views

urlpatterns = [
    path(
        "tournaments/<int:tournament_id>/documents/",
        views.TournamentDocumentsApi.as_view(),
        name="api-documents",
    ),
    path("documents/<int:job_id>/", views.DocumentJobApi.as_view(), name="api-document-job"),
    path("documents/<int:job_id>/retry/", views.DocumentRetryApi.as_view(), name="api-document-retry"),
    path("documents/<int:job_id>/file/", views.DocumentFileApi.as_view(), name="api-document-file"),
]
