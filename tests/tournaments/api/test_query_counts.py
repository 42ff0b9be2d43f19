"""Every list endpoint answers in the same number of queries for 1 and 3 items (no N+1)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.factories import add_staff, client_for, event_with_teams
from tournaments.enums import StaffRole
from tournaments.models import Match, Round
from tournaments.services.rounds import round_pair, round_publish

pytestmark = pytest.mark.django_db


def played_event(teams: int):
    """An event with round 1 paired, published and complete: every match won by team A."""
    tournament = event_with_teams(teams, swiss_rounds=3, top_cut=0)
    round_obj = round_pair(tournament=tournament, actor=tournament.created_by)
    round_publish(round_row=round_obj, actor=tournament.created_by)
    Match.objects.filter(round=round_obj, team_b__isnull=False).update(
        result_kind="played", team_a_wins=1, confirmed=True
    )
    Round.objects.filter(pk=round_obj.pk).update(finished_at=round_obj.published_at)
    return tournament


def assert_same_count(
    django_assert_num_queries, small_path: str, large_path: str, small, large, items: tuple
):
    with CaptureQueriesContext(connection) as captured:
        response = client_for(small.created_by).get(small_path)
    assert (response.status_code, len(response.json())) == (200, items[0])
    with django_assert_num_queries(len(captured.captured_queries)):
        response = client_for(large.created_by).get(large_path)
    assert (response.status_code, len(response.json())) == (200, items[1])


def test_tournament_list_queries_do_not_grow(django_assert_num_queries):
    first = event_with_teams(1)
    with CaptureQueriesContext(connection) as captured:
        assert len(client_for(first.created_by).get("/api/v1/tournaments/").json()) == 1
    event_with_teams(1, name="Second")
    event_with_teams(1, name="Third")
    with django_assert_num_queries(len(captured.captured_queries)):
        assert len(client_for(first.created_by).get("/api/v1/tournaments/").json()) == 3


def test_team_list_queries_do_not_grow(django_assert_num_queries):
    small, large = event_with_teams(1), event_with_teams(3, name="Large")
    assert_same_count(
        django_assert_num_queries,
        f"/api/v1/tournaments/{small.pk}/teams/",
        f"/api/v1/tournaments/{large.pk}/teams/",
        small,
        large,
        (1, 3),
    )


def test_round_detail_queries_do_not_grow(django_assert_num_queries):
    small, large = played_event(2), played_event(6)
    with CaptureQueriesContext(connection) as captured:
        response = client_for(small.created_by).get(f"/api/v1/tournaments/{small.pk}/rounds/1/")
    assert len(response.json()["matches"]) == 1
    with django_assert_num_queries(len(captured.captured_queries)):
        response = client_for(large.created_by).get(f"/api/v1/tournaments/{large.pk}/rounds/1/")
    assert len(response.json()["matches"]) == 3


def test_round_list_queries_do_not_grow(django_assert_num_queries):
    small, large = played_event(4), played_event(4)
    for _ in range(2):
        new_round = round_pair(tournament=large, actor=large.created_by)
        Match.objects.filter(round=new_round, team_b__isnull=False).update(
            result_kind="played", team_a_wins=1, confirmed=True
        )
    assert_same_count(
        django_assert_num_queries,
        f"/api/v1/tournaments/{small.pk}/rounds/",
        f"/api/v1/tournaments/{large.pk}/rounds/",
        small,
        large,
        (1, 3),
    )


def test_standings_queries_do_not_grow(django_assert_num_queries):
    small, large = played_event(2), played_event(6)
    with CaptureQueriesContext(connection) as captured:
        response = client_for(None).get(f"/api/v1/tournaments/{small.pk}/standings/")
    assert [row["match_points"] for row in response.json()] == [3, 0]
    with django_assert_num_queries(len(captured.captured_queries)):
        response = client_for(None).get(f"/api/v1/tournaments/{large.pk}/standings/")
    assert [row["match_points"] for row in response.json()] == [3, 3, 3, 0, 0, 0]


def test_staff_list_queries_do_not_grow(django_assert_num_queries):
    small, large = event_with_teams(0), event_with_teams(0, name="Large")
    add_staff(large, StaffRole.JUDGE)
    add_staff(large, StaffRole.SCOREKEEPER)
    assert_same_count(
        django_assert_num_queries,
        f"/api/v1/tournaments/{small.pk}/staff/",
        f"/api/v1/tournaments/{large.pk}/staff/",
        small,
        large,
        (1, 3),
    )
