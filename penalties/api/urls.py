from django.urls import path

from penalties.api import views

urlpatterns = [
    path("tournaments/<int:tournament_id>/penalties/", views.PenaltiesApi.as_view(), name="api-penalties"),
    path(
        "tournaments/<int:tournament_id>/penalties/preview/",
        views.PenaltyPreviewApi.as_view(),
        name="api-penalty-preview",
    ),
    path("penalties/<int:pk>/overturn/", views.PenaltyOverturnApi.as_view(), name="api-penalty-overturn"),
    path("penalties/<int:pk>/review/", views.PenaltyReviewApi.as_view(), name="api-penalty-review"),
    path(
        "tournaments/<int:tournament_id>/infractions/",
        views.InfractionListApi.as_view(),
        name="api-infractions",
    ),
]
