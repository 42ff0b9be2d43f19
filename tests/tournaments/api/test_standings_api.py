"""Standings through the API: the public sees them after a complete round, as on the event page."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import client_for, event_with_teams
from tournaments.models import Match
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair, round_publish
from tournaments.standings import last_public_standings_round

pytestmark = pytest.mark.django_db


def report_team_a_wins(match: Match, actor) -> None:
    match_result_report(
        match=match, actor=actor, team_a_wins=1, team_b_wins=0, draws=0, version=match.version
    )


@pytest.fixture
def round_two_in_progress():
    """Four teams; round 1 complete (every team A won), round 2 published with one result confirmed."""
    tournament = event_with_teams(4, swiss_rounds=3, top_cut=0)
    organizer = tournament.created_by
    round_one = round_pair(tournament=tournament, actor=organizer)
    round_publish(round_row=round_one, actor=organizer)
    for match in Match.objects.filter(round=round_one):
        report_team_a_wins(match, organizer)
    round_two = round_pair(tournament=tournament, actor=organizer)
    round_publish(round_row=round_two, actor=organizer)
    report_team_a_wins(Match.objects.filter(round=round_two).order_by("table").first(), organizer)
    return tournament


def test_anonymous_standings_stay_at_the_last_complete_round(round_two_in_progress):
    tournament = round_two_in_progress
    path = f"/api/v1/tournaments/{tournament.pk}/standings/"

    anonymous = client_for(None).get(path)
    asked_for_round_two = client_for(None).get(path, {"round": 2})
    staff = client_for(tournament.created_by).get(path)

    assert last_public_standings_round(tournament) == 1
    assert anonymous.status_code == 200
    assert [row["match_points"] for row in anonymous.json()] == [3, 3, 0, 0]
    assert asked_for_round_two.json() == anonymous.json()
    assert sorted(row["match_points"] for row in staff.json()) == [0, 0, 3, 6]


def test_the_event_page_shows_the_same_round(round_two_in_progress, client):
    response = client.get(f"/events/{round_two_in_progress.pk}/")

    assert response.context["standings"]["round_number"] == 1


def test_no_public_standings_before_round_one_is_complete():
    tournament = event_with_teams(4, swiss_rounds=3, top_cut=0)
    round_one = round_pair(tournament=tournament, actor=tournament.created_by)
    round_publish(round_row=round_one, actor=tournament.created_by)
    report_team_a_wins(Match.objects.filter(round=round_one).first(), tournament.created_by)

    response = client_for(None).get(f"/api/v1/tournaments/{tournament.pk}/standings/")

    assert (response.status_code, response.json()) == (200, [])
