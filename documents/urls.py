from django.urls import path

from documents import views

urlpatterns = [
    path("events/<int:tournament_id>/print/", views.print_panel, name="documents-print"),
    path(
        "events/<int:tournament_id>/print/<int:job_id>/retry/",
        views.print_retry,
        name="documents-print-retry",
    ),
]
