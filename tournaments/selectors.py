"""Reads for pages and the API, each in a fixed number of queries."""

from __future__ import annotations

from django.db.models import Count, QuerySet

from tournaments.models import Tournament


def tournaments_listed() -> QuerySet[Tournament]:
    return Tournament.objects.annotate(team_count=Count("teams", distinct=True)).order_by("-date", "-id")


def tournaments_staffed_by(user) -> QuerySet[Tournament]:
    return (
        Tournament.objects.filter(staff__user=user)
        .annotate(team_count=Count("teams", distinct=True))
        .order_by("-date", "-id")
    )
