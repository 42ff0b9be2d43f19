"""The player page's seat choice: "We sit: [primary] on the right", and a swap button for 2HG."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.pages.builders import client_for
from tests.tournaments.pages.test_player_page import first_table, link, me_url
from tournaments.models import AuditEntry, Match
from tournaments.services.results import match_result_report

pytestmark = pytest.mark.django_db


def seats_url(event, match) -> str:
    return reverse("tournament-me-seats", args=[event.id, match.id])


def test_player_page_offers_the_seat_choice_with_the_current_primary_selected(event, published_round):
    match = first_table(published_round)
    primary, secondary = match.team_a.players.all()
    player = link(secondary.name)

    response = client_for(player.user).get(me_url(event))

    info = response.context["match_info"]
    assert [name for _, name in info["seat_form"].fields["primary"].choices] == [primary.name, secondary.name]
    assert info["swap_to"] == secondary
    assert f'action="{seats_url(event, match)}"' in response.text
    assert f'<option value="{primary.pk}" selected>{primary.name}</option>' in response.text
    assert f"Swap seats: {secondary.name} on the right" in response.text


def test_swapping_makes_the_secondary_primary_on_every_page(event, published_round, client):
    match = first_table(published_round)
    primary, secondary = match.team_a.players.all()
    player = link(secondary.name)
    browser = client_for(player.user)

    response = browser.post(seats_url(event, match), {"primary": secondary.pk})

    assert (response.status_code, response.url) == (302, me_url(event))
    assert Match.objects.get(pk=match.pk).seats == {"A": [secondary.pk, primary.pk]}
    assert AuditEntry.objects.get(action="match_seats_set").actor == player.user
    page = browser.get(me_url(event))
    assert f"Recorded: {secondary.name} is primary and sits on the right." in page.text
    assert "You are the <strong>primary</strong> player: sit on the <strong>right</strong>." in page.text
    public = client.get(reverse("tournament-public", args=[event.id]))
    row = next(r for r in public.context["pairings"]["rows"] if r.table == match.table)
    assert [(seat.player.name, seat.primary) for seat in row.side_a.seats] == [
        (secondary.name, True),
        (primary.name, False),
    ]


def test_no_seat_choice_once_a_result_is_reported(event, published_round):
    match = first_table(published_round)
    primary, secondary = match.team_a.players.all()
    player = link(secondary.name)
    match_result_report(match=match, actor=event.created_by, team_a_wins=1, team_b_wins=0, draws=0, version=1)
    browser = client_for(player.user)

    page = browser.get(me_url(event))
    refused = browser.post(seats_url(event, match), {"primary": secondary.pk})

    assert page.context["match_info"]["seat_form"] is None
    assert 'id="seat-choice"' not in page.text
    assert refused.status_code == 409
    assert "the match has a result: its seats can no longer change" in refused.text
    assert Match.objects.get(pk=match.pk).seats == {}


def test_a_player_cannot_seat_another_teams_match(event, published_round):
    match = first_table(published_round)
    other = published_round.matches.exclude(pk=match.pk).exclude(table=None).first()
    player = link(match.team_a.players.first().name)

    response = client_for(player.user).post(
        seats_url(event, other), {"primary": other.team_a.players.last().pk}
    )

    assert response.status_code == 403
    assert Match.objects.get(pk=other.pk).seats == {}


def test_an_unknown_primary_is_refused(event, published_round):
    match = first_table(published_round)
    player = link(match.team_a.players.first().name)
    stranger = match.team_b.players.first()

    response = client_for(player.user).post(seats_url(event, match), {"primary": stranger.pk})

    assert response.status_code == 400
    assert Match.objects.get(pk=match.pk).seats == {}


def test_bye_has_no_seat_choice(event, published_round):
    bye = published_round.matches.get(table=None)
    player = link(bye.team_a.players.first().name)

    response = client_for(player.user).get(me_url(event))

    assert response.context["match_info"]["seat_form"] is None
