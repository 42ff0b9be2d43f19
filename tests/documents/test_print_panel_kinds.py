"""The print panel offers only what the event can print now: standings once a Swiss round is
finished (before, the request would be refused with a 409), pod seatings only in a Booster Draft."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.factories import event_with_teams
from tests.tournaments.pages.builders import client_for
from tournaments.models import Match
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair, round_publish

pytestmark = pytest.mark.django_db


def offered(client, tournament) -> set[str]:
    html = client.get(reverse("documents-print", args=[tournament.pk])).content.decode()
    return set(re.findall(r'<button type="submit" name="kind" value="(\w+)">', html))


def test_standings_appear_once_a_swiss_round_is_finished_and_pods_never_in_constructed():
    organizer = UserFactory(is_staff=True)
    tournament = event_with_teams(4, organizer=organizer, format="modern", swiss_rounds=3)
    client = client_for(organizer)
    round_one = round_publish(round_row=round_pair(tournament=tournament, actor=organizer), actor=organizer)
    assert offered(client, tournament) == {
        "pairings_by_table",
        "pairings_by_name",
        "result_slips",
        "decklists",
        "penalties",
    }
    for match in Match.objects.filter(round=round_one):
        match_result_report(match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=1)
    assert "standings" in offered(client, tournament)
    assert "pod_seatings" not in offered(client, tournament)
