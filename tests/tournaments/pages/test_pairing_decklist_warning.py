"""Before pairing a Competitive or Professional REL round, the manage page names the teams
without a decklist; the pairing API answers the same list as a warning and pairs anyway."""

from __future__ import annotations

import pytest
from django.urls import reverse

from decklists.services import decklist_submit
from tests.decklists.realdata import mtgo_text, real_decklists
from tests.tournaments.factories import event_with_teams
from tests.tournaments.pages.builders import client_for
from tournaments.enums import Rel
from tournaments.models import Player, Team

pytestmark = pytest.mark.django_db


def lists_for(tournament, organizer, teams) -> None:
    modern = iter(record for record in real_decklists() if record["format"] == "modern")
    for player in Player.objects.filter(team__in=teams).order_by("pk"):
        decklist_submit(tournament=tournament, actor=organizer, player=player, text=mtgo_text(next(modern)))


@pytest.mark.parametrize("rel", [Rel.COMPETITIVE, Rel.PROFESSIONAL])
def test_the_manage_page_warns_and_the_api_pairs_with_the_same_list(organizer, api_client, rel):
    tournament = event_with_teams(6, organizer=organizer, rel=rel, format="modern", swiss_rounds=3)
    teams = list(Team.objects.filter(tournament=tournament).order_by("name"))
    lists_for(tournament, organizer, teams[:4])
    # Team 05 has one list of two: still missing one.
    decklist_submit(
        tournament=tournament,
        actor=organizer,
        player=teams[4].players.order_by("position").first(),
        text=mtgo_text(real_decklists()[0]),
    )
    html = client_for(organizer).get(reverse("tournament-manage", args=[tournament.pk])).content.decode()
    assert 'id="decklists-missing"' in html
    assert "2 teams have no decklist registered for every player" in html
    assert '<span dir="auto">Team 05</span>, <span dir="auto">Team 06</span>.' in html

    api_client.force_authenticate(organizer)
    answer = api_client.post(f"/api/v1/tournaments/{tournament.pk}/rounds/", {}, format="json")
    assert answer.status_code == 201
    assert answer.data["teams_without_decklists"] == [
        {"id": teams[4].pk, "name": "Team 05"},
        {"id": teams[5].pk, "name": "Team 06"},
    ]
    assert len(answer.data["matches"]) == 3


def test_regular_rel_pairs_without_a_word_about_lists(organizer, api_client):
    tournament = event_with_teams(4, organizer=organizer, rel=Rel.REGULAR, swiss_rounds=3)
    html = client_for(organizer).get(reverse("tournament-manage", args=[tournament.pk])).content.decode()
    assert 'id="decklists-missing"' not in html
    api_client.force_authenticate(organizer)
    answer = api_client.post(f"/api/v1/tournaments/{tournament.pk}/rounds/", {}, format="json")
    assert (answer.status_code, answer.data["teams_without_decklists"]) == (201, [])
