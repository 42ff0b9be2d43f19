"""Playoffs offer no draw anywhere (MTR 2.4): the player's form, the slip's page, the scorekeeper's
select, Key box and entry by slip; the API refuses a draw with a sentence that names no field."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.tournaments.factories import event_with_teams
from tests.tournaments.pages.builders import client_for
from tournaments.models import Match, Player, Round, Tournament
from tournaments.services.cut import cut_build
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair, round_publish
from tournaments.slips import slip_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def top4() -> tuple[Tournament, Round, Match]:
    """Six teams, two Swiss rounds played, the Top 4 semifinals published; table 1's semifinal."""
    tournament = event_with_teams(6, swiss_rounds=2, top_cut=4)
    organizer = tournament.created_by
    for _ in range(2):
        swiss = round_pair(tournament=tournament, actor=organizer)
        round_publish(round_row=swiss, actor=organizer)
        for match in swiss.matches.exclude(team_b=None):
            match_result_report(
                match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=1
            )
    semis = cut_build(tournament=tournament, actor=organizer)
    round_publish(round_row=semis, actor=organizer)
    match = Match.objects.select_related("round__tournament", "team_a", "team_b").get(round=semis, table=1)
    return tournament, semis, match


def player_of(team) -> Player:
    player = Player.objects.filter(team=team).order_by("position").first()
    player.user = UserFactory()
    player.save(update_fields=["user"])
    return player


def test_a_top4_report_form_on_the_players_page_has_no_draw(top4):
    tournament, _, match = top4
    page = client_for(player_of(match.team_a).user).get(reverse("tournament-me", args=[tournament.id]))
    assert f'data-report-match-id="{match.id}"' in page.text
    assert 'name="result" value="ours"' in page.text
    assert 'value="draw"' not in page.text and 'name="draw_kind"' not in page.text
    assert "A playoff match has no draw" in page.text


def test_the_slip_page_of_a_playoff_match_has_no_draw(top4, settings):
    _, _, match = top4
    page = Client().get(slip_url(match).removeprefix(settings.PUBLIC_URL))
    assert 'name="result" value="theirs"' in page.text and 'value="draw"' not in page.text


def test_the_scorekeepers_select_key_box_and_entry_by_slip_offer_no_draw_in_a_playoff(top4):
    tournament, _, match = top4
    organizer = client_for(tournament.created_by)
    manage = organizer.get(reverse("tournament-manage", args=[tournament.id]))
    assert f'id="result-{match.id}"' in manage.text
    assert '<option value="draw"' not in manage.text and '<option value="id"' not in manage.text
    assert "data-no-draw" in manage.text
    entry = organizer.get(reverse("tournament-slip-entry", args=[tournament.id]), {"code": str(match.table)})
    assert (
        'data-key="1"' in entry.text and 'data-key="d"' not in entry.text and 'data-key="i"' not in entry.text
    )
    refused = organizer.post(
        reverse("tournament-match-result", args=[tournament.id, match.id]), {"result": "draw", "version": 1}
    )
    assert refused.status_code == 400
    assert Match.objects.get(pk=match.pk).confirmed is False


def test_the_api_refuses_a_playoff_draw_in_a_sentence_without_field_names(top4):
    tournament, _, match = top4
    api = APIClient()
    api.force_authenticate(tournament.created_by)
    url = f"/api/v1/matches/{match.pk}/result/"

    refused = api.put(url, {"team_a_wins": 0, "team_b_wins": 0, "draws": 1, "version": 1}, format="json")

    assert refused.status_code == 400
    detail = refused.json()["detail"]
    assert detail == "Impossible result: a playoff match cannot end in a draw: play on until one team wins"
    assert refused.json()["errors"] == [
        {"message": "a playoff match cannot end in a draw: play on until one team wins"}
    ]
    for field in ("team_a_wins", "team_b_wins", "draws"):
        assert field not in refused.content.decode()
    spanish = api.put(
        url,
        {"team_a_wins": 2, "team_b_wins": 0, "draws": 0, "version": 1},
        format="json",
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert spanish.status_code == 400 and "team_a_wins" not in spanish.json()["detail"]
    assert match.team_a.name in spanish.json()["detail"]
