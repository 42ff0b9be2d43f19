"""The player's own page: team, table, opponents and which seat to take."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.pages.builders import client_for
from tournaments.models import Match, Player

pytestmark = pytest.mark.django_db


def me_url(event):
    return reverse("tournament-me", args=[event.id])


def link(player_name: str):
    """Give the registered player a login, as the organizer does when adding the team."""
    player = Player.objects.get(name=player_name)
    player.user = UserFactory()
    player.save(update_fields=["user"])
    return player


def test_player_page_sends_anonymous_users_to_log_in(client, event):
    response = client.get(me_url(event))

    assert response.status_code == 302
    assert response.url == f"/accounts/login/?next=/events/{event.id}/me/"


def test_player_page_offers_a_user_not_on_a_team_the_ways_to_join_one(outsider_client, event):
    response = outsider_client.get(me_url(event))

    assert response.status_code == 200
    assert "You are not on a team in this event yet." in response.text
    for form in ('id="join-code-form"', 'id="team-create-form"', 'id="pool-join-form"'):
        assert form in response.text


def test_an_account_staff_seated_is_asked_whether_the_player_is_them(event):
    """Staff registered the player at the desk and named this account: the player is on a team,
    only the account is not linked yet, so the page must not say they have no team."""
    from tournaments.registration.desk import account_link_invite

    account = UserFactory()
    player = Player.objects.get(name="Jade Wu")
    account_link_invite(player=player, actor=event.created_by, username=account.username)

    response = client_for(account).get(me_url(event))

    assert response.status_code == 200
    assert "You are not on a team in this event yet." not in response.text
    assert "Staff registered a player in this event under your account" in response.text
    assert "as <strong>Jade Wu</strong>" in response.text


def test_player_page_before_pairing_shows_team_and_links(event):
    player = link("Jade Wu")

    response = client_for(player.user).get(me_url(event))

    assert response.status_code == 200
    assert "Team Turn" in response.text
    assert "Jade Wu (you)" in response.text and "Ivan Petrov" in response.text
    assert "No published round yet." in response.text
    assert f'href="/events/{event.id}/decklists/"' in response.text


def test_unpublished_round_is_not_shown_to_the_player(event, paired_round):
    player = link("Ivan Petrov")

    response = client_for(player.user).get(me_url(event))

    assert response.context["match_info"] is None


def first_table(published_round) -> Match:
    return published_round.matches.exclude(table=None).order_by("table").first()


def test_primary_player_sees_table_opponents_and_seat(event, published_round):
    match = first_table(published_round)
    primary, _ = match.team_b.players.all()
    player = link(primary.name)

    response = client_for(player.user).get(me_url(event))

    info = response.context["match_info"]
    assert (info["round_number"], info["table"], info["is_bye"]) == (1, match.table, False)
    assert info["opponents"].team == match.team_a
    assert f"<strong>Table {match.table}</strong>" in response.text
    assert "You are the <strong>primary</strong> player: sit on the <strong>right</strong>." in response.text


def test_secondary_player_is_told_to_sit_left(event, published_round):
    match = first_table(published_round)
    primary, secondary = match.team_a.players.all()
    player = link(secondary.name)

    response = client_for(player.user).get(me_url(event))

    assert (
        "You are the <strong>secondary</strong> player: sit on the <strong>left</strong>; "
        f"{primary.name} sits on the right." in response.text
    )


def test_bye_team_player_sees_the_bye(event, published_round):
    bye = published_round.matches.get(table=None)
    player = link(bye.team_a.players.first().name)

    response = client_for(player.user).get(me_url(event))

    assert response.context["match_info"]["is_bye"] is True
    assert '<strong class="bye">BYE</strong> (3 points, no match to play).' in response.text


def test_the_players_match_card_names_their_team_first_marked_you_and_no_rank_before_a_result(
    event, published_round
):
    from tests.factories import UserFactory
    from tests.tournaments.pages.builders import client_for
    from tournaments.models import Player

    match = (
        published_round.matches.exclude(table=None).select_related("team_a", "team_b").order_by("table")[0]
    )
    player = Player.objects.filter(team=match.team_b).order_by("position").first()
    player.user = UserFactory()
    player.save(update_fields=["user"])

    page = client_for(player.user).get(reverse("tournament-me", args=[event.id])).text

    card = page[page.index('id="my-match-teams"') :]
    card = card[: card.index("</p>")]
    assert card.index(match.team_b.name) < card.index('class="badge you"') < card.index(match.team_a.name)
    record = page[page.index('id="my-record"') :]
    assert record[: record.index("</strong>")].endswith("no results yet") and "rank" not in record[:200]
