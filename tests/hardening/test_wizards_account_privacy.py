"""A teammate named only by a Wizards Account is invited without the answer showing that
account's login; refusals name the player as typed (issue 24, point 5)."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.tournaments.factories import client_for, event_with_teams, register_team
from tournaments.models import Player, TeamInvitation

pytestmark = pytest.mark.django_db


@pytest.fixture
def known_player():
    """An account that played last week under a Wizards Account, linked at the desk."""
    earlier = event_with_teams(0, name="Last week")
    victim = UserFactory(username="q1")
    register_team(earlier, "Old Team", actor=earlier.created_by, usernames=(victim.username,))
    return victim, Player.objects.get(user=victim).wizards_id


def _create(tournament, captain, mate: dict):
    return client_for(captain).post(
        f"/api/v1/tournaments/{tournament.pk}/teams/",
        {
            "name": "Dual Wield",
            "players": [
                {"name": "Cap", "wizards_id": f"{captain.username}@x.example", "username": captain.username},
                mate,
            ],
        },
        format="json",
    )


def test_an_account_named_by_wizards_account_is_invited_without_its_login(known_player):
    victim, wizards_id = known_player
    tournament = event_with_teams(0)
    captain = UserFactory()
    response = _create(tournament, captain, {"name": "Vic", "wizards_id": wizards_id.upper()})
    assert response.status_code == 201, response.json()
    assert "q1" not in response.content.decode()
    [pending] = response.json()["pending_invitations"]
    assert (pending["username"], pending["name"]) == (None, "Vic")
    assert TeamInvitation.objects.get(invitee=victim, tournament=tournament).named_by_login is False
    # Nor on the captain's page, nor the team as the API reads it later.
    page = client_for(captain)
    page.force_login(captain)
    assert "q1" not in page.get(f"/events/{tournament.pk}/me/").content.decode()
    again = client_for(captain).get(f"/api/v1/tournaments/{tournament.pk}/teams/")
    assert "q1" not in again.content.decode()


def test_a_refusal_names_the_player_by_the_wizards_account_typed_not_the_login(known_player):
    victim, wizards_id = known_player
    tournament = event_with_teams(0)
    register_team(tournament, "Theirs", actor=tournament.created_by, usernames=(victim.username,))
    typed = wizards_id.upper()
    response = _create(tournament, UserFactory(), {"name": "Vic", "wizards_id": typed})
    assert response.status_code == 400
    assert "q1" not in response.content.decode()
    assert typed in response.json()["detail"]


def test_named_where_they_already_play_under_that_account_the_refusal_is_said_once(known_player):
    """Both the Wizards Account and the account behind it are on a team of the event."""
    victim, wizards_id = known_player
    earlier = Player.objects.get(user=victim).tournament
    typed = wizards_id.upper()
    response = _create(earlier, UserFactory(), {"name": "Vic", "wizards_id": typed})
    assert response.status_code == 400
    assert "q1" not in response.content.decode()
    assert [e["field"] for e in response.json()["errors"]] == ["players[1].wizards_id"]
    assert response.json()["detail"].count(typed) == 1


def test_an_account_named_by_login_is_still_shown_by_it():
    tournament = event_with_teams(0)
    mate = UserFactory()
    response = _create(
        tournament, UserFactory(), {"name": "Mate", "wizards_id": "mate@x.example", "username": mate.username}
    )
    assert [i["username"] for i in response.json()["pending_invitations"]] == [mate.username]
