from django.urls import path

from penalties import views

urlpatterns = [
    path("events/<int:tournament_id>/penalties/", views.penalty_list, name="penalty-list"),
    path("events/<int:tournament_id>/penalties/new/", views.penalty_new, name="penalty-new"),
    path(
        "events/<int:tournament_id>/penalties/player/<int:player_id>/",
        views.player_history,
        name="penalty-player",
    ),
    path(
        "events/<int:tournament_id>/penalties/<int:pk>/overturn/",
        views.penalty_overturn_page,
        name="penalty-overturn",
    ),
    path(
        "events/<int:tournament_id>/penalties/<int:pk>/review/",
        views.penalty_review_page,
        name="penalty-review",
    ),
]
