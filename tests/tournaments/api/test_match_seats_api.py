"""PUT /api/v1/matches/{id}/seats/: a team's seat order for one match, primary (on the right) first."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import UserFactory
from tests.tournaments.factories import add_staff, client_for, event_with_teams, register_team
from tournaments.enums import StaffRole
from tournaments.models import AuditEntry, Match
from tournaments.services.manual_pairing import round_pair_manual
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_publish

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    """Four teams; ``player`` is Team 1's second player, ``other_player`` on Team 3; round 1 is
    paired by hand 1v2, 3v4 and published."""
    organizer = UserFactory()
    tournament = event_with_teams(0, organizer=organizer, swiss_rounds=3)
    player, other_player = UserFactory(), UserFactory()
    teams = [
        register_team(tournament, "Team 1", actor=organizer, usernames=(None, player.username)),
        register_team(tournament, "Team 2", actor=organizer),
        register_team(tournament, "Team 3", actor=organizer, usernames=(other_player.username,)),
        register_team(tournament, "Team 4", actor=organizer),
    ]
    round_one = round_pair_manual(
        tournament=tournament,
        actor=organizer,
        matches=[(teams[0].pk, teams[1].pk), (teams[2].pk, teams[3].pk)],
        reason="seating tests",
    )
    round_publish(round_row=round_one, actor=organizer)
    return {
        "tournament": tournament,
        "teams": teams,
        "match": Match.objects.get(round=round_one, team_a=teams[0]),
        "player": player,
        "other_player": other_player,
        "organizer": organizer,
    }


def members(team) -> list[int]:
    return list(team.players.order_by("position").values_list("pk", flat=True))


def put_seats(user, match, body):
    return client_for(user).put(f"/api/v1/matches/{match.pk}/seats/", body, format="json")


def test_a_player_makes_their_teammate_primary(event):
    team_1, team_2 = event["teams"][0], event["teams"][1]
    first, second = members(team_1)

    response = put_seats(event["player"], event["match"], {"team": team_1.pk, "players": [second, first]})

    assert response.status_code == 200
    assert response.json()["seats"] == {"A": [second, first]}
    assert Match.objects.get(pk=event["match"].pk).seats == {"A": [second, first]}
    entry = AuditEntry.objects.get(action="match_seats_set")
    assert (entry.actor, entry.object_id, entry.before, entry.after) == (
        event["player"],
        str(event["match"].pk),
        {"side": "A", "players": [first, second]},
        {"side": "A", "players": [second, first]},
    )
    other = put_seats(
        event["organizer"], event["match"], {"team": team_2.pk, "players": members(team_2)[::-1]}
    )
    assert other.json()["seats"] == {"A": [second, first], "B": members(team_2)[::-1]}


@pytest.mark.parametrize("role", [StaffRole.SCOREKEEPER, StaffRole.JUDGE, StaffRole.HEAD_JUDGE])
def test_any_staff_role_sets_seats(event, role):
    team_2 = event["teams"][1]
    user = add_staff(event["tournament"], role)

    response = put_seats(user, event["match"], {"team": team_2.pk, "players": members(team_2)[::-1]})

    assert (response.status_code, response.json()["seats"]) == (200, {"B": members(team_2)[::-1]})


def test_a_player_cannot_seat_the_opponents(event):
    team_2 = event["teams"][1]

    response = put_seats(
        event["player"], event["match"], {"team": team_2.pk, "players": members(team_2)[::-1]}
    )

    assert response.status_code == 403
    assert Match.objects.get(pk=event["match"].pk).seats == {}


@pytest.mark.parametrize("who,status", [("anonymous", 401), ("other_player", 403)])
def test_outsiders_are_refused(event, who, status):
    team_1 = event["teams"][0]
    user = None if who == "anonymous" else event[who]

    response = put_seats(user, event["match"], {"team": team_1.pk, "players": members(team_1)[::-1]})

    assert response.status_code == status


@pytest.mark.parametrize(
    "players,message",
    [
        ("first_only", "expected each of the team's players"),
        ("twice", "expected each of the team's players"),
        ("stranger", "expected each of the team's players"),
    ],
)
def test_the_list_must_be_exactly_the_team(event, players, message):
    team_1, team_3 = event["teams"][0], event["teams"][2]
    first, second = members(team_1)
    body_players = {
        "first_only": [first],
        "twice": [first, first],
        "stranger": [first, members(team_3)[0]],
    }[players]

    response = put_seats(event["organizer"], event["match"], {"team": team_1.pk, "players": body_players})

    assert response.status_code == 400
    assert [error["field"] for error in response.json()["errors"]] == ["players"]
    assert message in response.json()["errors"][0]["message"]


def test_a_team_not_in_the_match_is_400(event):
    team_3 = event["teams"][2]

    response = put_seats(event["organizer"], event["match"], {"team": team_3.pk, "players": members(team_3)})

    assert response.status_code == 400
    assert [error["field"] for error in response.json()["errors"]] == ["team"]


def test_seats_are_fixed_once_a_result_is_reported(event):
    team_1 = event["teams"][0]
    match_result_report(
        match=event["match"], actor=event["player"], team_a_wins=1, team_b_wins=0, draws=0, version=1
    )

    response = put_seats(
        event["player"], event["match"], {"team": team_1.pk, "players": members(team_1)[::-1]}
    )

    assert response.status_code == 409
    assert Match.objects.get(pk=event["match"].pk).seats == {}
    assert not AuditEntry.objects.filter(action="match_seats_set").exists()


def test_seats_are_fixed_once_time_is_called(event):
    team_1 = event["teams"][0]
    Match.objects.filter(pk=event["match"].pk).update(time_called_at=timezone.now(), active_team="A")

    response = put_seats(
        event["organizer"], event["match"], {"team": team_1.pk, "players": members(team_1)[::-1]}
    )

    assert response.status_code == 409


def test_unpublished_round_is_not_for_players(event):
    teams = event["teams"]
    Match.objects.filter(round=event["match"].round).update(
        result_kind="played", team_a_wins=1, confirmed=True
    )
    round_two = round_pair_manual(
        tournament=event["tournament"],
        actor=event["organizer"],
        matches=[(teams[0].pk, teams[2].pk), (teams[1].pk, teams[3].pk)],
        reason="seating tests",
    )
    match = Match.objects.get(round=round_two, team_a=teams[0])

    refused = put_seats(event["player"], match, {"team": teams[0].pk, "players": members(teams[0])[::-1]})
    staff = put_seats(event["organizer"], match, {"team": teams[0].pk, "players": members(teams[0])[::-1]})

    assert (refused.status_code, staff.status_code) == (403, 200)


def test_recorded_seats_show_on_the_public_page(event, client):
    team_1 = event["teams"][0]
    first, second = team_1.players.order_by("position")
    put_seats(event["player"], event["match"], {"team": team_1.pk, "players": [second.pk, first.pk]})

    response = client.get(f"/events/{event['tournament'].pk}/")

    side_a = response.context["pairings"]["rows"][0].side_a
    assert [(seat.player.name, seat.primary) for seat in side_a.seats] == [
        (second.name, True),
        (first.name, False),
    ]
