"""Who may call what: every role against every endpoint, with the exact status.

The event: four teams; ``player`` plays on team 1, ``other_player`` on team 3 (not team 1's
opponent in round 1: the round is paired by hand 1v2, 3v4). 401 is DRF's answer to anonymous
users on the token-authenticated API; 409 or 400 means the permission check passed and the
event's state then refused.
"""

from __future__ import annotations

import pytest

from tests.factories import OrganizerFactory, UserFactory
from tests.tournaments.factories import add_staff, client_for, event_with_teams, register_team
from tournaments.enums import StaffRole
from tournaments.models import Match, Team
from tournaments.services.manual_pairing import round_pair_manual
from tournaments.services.rounds import round_publish

pytestmark = pytest.mark.django_db

ROLES = (
    "anonymous",
    "player",
    "other_player",
    "scorekeeper",
    "judge",
    "head_judge",
    "organizer",
    "other_organizer",
)


@pytest.fixture
def event():
    organizer = OrganizerFactory()
    tournament = event_with_teams(0, organizer=organizer, swiss_rounds=3)
    player, other_player = UserFactory(), UserFactory()
    teams = [
        register_team(tournament, "Team 1", actor=organizer, usernames=(player.username,)),
        register_team(tournament, "Team 2", actor=organizer),
        register_team(tournament, "Team 3", actor=organizer, usernames=(other_player.username,)),
        register_team(tournament, "Team 4", actor=organizer),
    ]
    users = {
        "anonymous": None,
        "player": player,
        "other_player": other_player,
        "scorekeeper": add_staff(tournament, StaffRole.SCOREKEEPER),
        "judge": add_staff(tournament, StaffRole.JUDGE),
        "head_judge": add_staff(tournament, StaffRole.HEAD_JUDGE),
        "organizer": organizer,
        "other_organizer": event_with_teams(0, name="Another event").created_by,
    }
    return {
        "tournament": tournament,
        "teams": teams,
        "users": users,
        "base": f"/api/v1/tournaments/{tournament.pk}",
    }


def paired(event, *, publish: bool) -> Match:
    """Round 1 paired by hand (1v2, 3v4); returns team 1's match."""
    teams = event["teams"]
    round_obj = round_pair_manual(
        tournament=event["tournament"],
        actor=event["users"]["organizer"],
        matches=[(teams[0].pk, teams[1].pk), (teams[2].pk, teams[3].pk)],
        reason="test seating",
    )
    if publish:
        round_publish(round_row=round_obj, actor=event["users"]["organizer"])
    return Match.objects.get(round=round_obj, team_a=teams[0])


def call(event, role: str, method: str, path: str, data=None):
    client = client_for(event["users"][role])
    return (
        getattr(client, method)(path, data, format="json")
        if data is not None
        else getattr(client, method)(path)
    )


def expect(*codes: int) -> list[tuple[str, int]]:
    return list(zip(ROLES, codes, strict=True))


@pytest.mark.parametrize("role,status", expect(200, 200, 200, 200, 200, 200, 200, 200))
def test_event_detail_is_public(event, role, status):
    assert call(event, role, "get", f"{event['base']}/").status_code == status


@pytest.mark.parametrize("role,status", expect(401, 200, 200, 200, 200, 200, 200, 403))
def test_team_list(event, role, status):
    response = call(event, role, "get", f"{event['base']}/teams/")
    assert response.status_code == status
    if status == 200:
        names = [team["name"] for team in response.json()]
        expected = {"player": ["Team 1"], "other_player": ["Team 3"]}.get(
            role, ["Team 1", "Team 2", "Team 3", "Team 4"]
        )
        assert names == expected


@pytest.mark.parametrize("role,status", expect(401, 200, 403, 200, 200, 200, 200, 403))
def test_team_detail(event, role, status):
    assert call(event, role, "get", f"{event['base']}/teams/{event['teams'][0].pk}/").status_code == status


def test_unknown_team_is_404_for_staff(event):
    assert call(event, "organizer", "get", f"{event['base']}/teams/999999/").status_code == 404


@pytest.mark.parametrize("role,status", expect(401, 403, 403, 403, 403, 403, 201, 403))
def test_staff_add_is_organizer_only(event, role, status):
    newcomer = UserFactory()
    response = call(
        event, role, "post", f"{event['base']}/staff/", {"username": newcomer.username, "role": "judge"}
    )
    assert response.status_code == status


@pytest.mark.parametrize("role,status", expect(401, 403, 403, 409, 403, 409, 409, 403))
def test_pair_next_round_needs_scorekeeping_staff(event, role, status):
    paired(event, publish=False)  # round 1 has no results yet: allowed callers get 409
    assert call(event, role, "post", f"{event['base']}/rounds/", {}).status_code == status


@pytest.mark.parametrize("role,status", expect(401, 403, 403, 403, 403, 403, 201, 403))
def test_manual_pairing_is_organizer_only(event, role, status):
    teams = event["teams"]
    body = {
        "matches": [
            {"team_a": teams[0].pk, "team_b": teams[2].pk},
            {"team_a": teams[1].pk, "team_b": teams[3].pk},
        ],
        "reason": "family members",
    }
    assert call(event, role, "post", f"{event['base']}/rounds/", body).status_code == status


@pytest.mark.parametrize("role,status", expect(404, 404, 404, 200, 200, 200, 200, 404))
def test_unpublished_round_is_staff_only(event, role, status):
    paired(event, publish=False)
    assert call(event, role, "get", f"{event['base']}/rounds/1/").status_code == status


@pytest.mark.parametrize("role,status", expect(200, 200, 200, 200, 200, 200, 200, 200))
def test_published_round_is_public(event, role, status):
    paired(event, publish=True)
    response = call(event, role, "get", f"{event['base']}/rounds/1/")
    assert (response.status_code, len(response.json()["matches"])) == (status, 2)


@pytest.mark.parametrize("role,status", expect(401, 403, 403, 200, 403, 200, 200, 403))
def test_publish_needs_scorekeeping_staff(event, role, status):
    paired(event, publish=False)
    assert call(event, role, "post", f"{event['base']}/rounds/1/publish/").status_code == status


@pytest.mark.parametrize("role,status", expect(401, 403, 403, 204, 403, 204, 204, 403))
def test_repair_delete_needs_scorekeeping_staff(event, role, status):
    paired(event, publish=True)
    assert call(event, role, "delete", f"{event['base']}/rounds/1/").status_code == status


@pytest.mark.parametrize("role,status", expect(404, 404, 404, 200, 200, 200, 200, 404))
def test_match_of_unpublished_round_is_staff_only(event, role, status):
    match = paired(event, publish=False)
    assert call(event, role, "get", f"/api/v1/matches/{match.pk}/").status_code == status


@pytest.mark.parametrize("role,status", expect(200, 200, 200, 200, 200, 200, 200, 200))
def test_match_of_published_round_is_public(event, role, status):
    match = paired(event, publish=True)
    assert call(event, role, "get", f"/api/v1/matches/{match.pk}/").status_code == status


@pytest.mark.parametrize(
    "role,status,confirmed",
    [
        ("anonymous", 401, None),
        ("player", 200, False),
        ("other_player", 403, None),
        ("scorekeeper", 200, True),
        ("judge", 403, None),
        ("head_judge", 200, True),
        ("organizer", 200, True),
        ("other_organizer", 403, None),
    ],
)
def test_result_report(event, role, status, confirmed):
    match = paired(event, publish=True)
    body = {"team_a_wins": 1, "team_b_wins": 0, "draws": 0, "version": 1}
    response = call(event, role, "put", f"/api/v1/matches/{match.pk}/result/", body)
    assert response.status_code == status
    if confirmed is not None:
        assert (response.json()["confirmed"], response.json()["version"]) == (confirmed, 2)


@pytest.mark.parametrize("role,status", expect(401, 200, 403, 200, 403, 200, 200, 403))
def test_drop(event, role, status):
    response = call(
        event, role, "post", f"{event['base']}/teams/{event['teams'][0].pk}/drop/", {"reason": "tired"}
    )
    assert response.status_code == status
    assert Team.objects.get(pk=event["teams"][0].pk).dropped_after_round == (0 if status == 200 else None)


@pytest.mark.parametrize("role,status", expect(401, 403, 403, 403, 403, 200, 403, 403))
def test_disqualify_is_head_judge_only(event, role, status):
    response = call(
        event,
        role,
        "post",
        f"{event['base']}/teams/{event['teams'][0].pk}/disqualify/",
        {"reason": "cheating"},
    )
    assert response.status_code == status


@pytest.mark.parametrize("role,status", expect(401, 403, 403, 409, 403, 409, 409, 403))
def test_cut_needs_scorekeeping_staff(event, role, status):
    assert call(event, role, "post", f"{event['base']}/cut/").status_code == status


@pytest.mark.parametrize("role,status", expect(200, 200, 200, 200, 200, 200, 200, 200))
def test_standings_are_public(event, role, status):
    match = paired(event, publish=False)
    Match.objects.filter(round=match.round, team_b__isnull=False).update(
        team_a_wins=1, result_kind="played", confirmed=True
    )
    response = call(event, role, "get", f"{event['base']}/standings/")
    staff = role in ("scorekeeper", "judge", "head_judge", "organizer")
    assert (response.status_code, len(response.json())) == (status, 4 if staff else 0)


def test_player_registers_own_team_but_not_someone_elses():
    """A player registers a team they are on; a teammate without an account cannot be listed
    (it would block that person's own registration): they join with the team's code."""
    tournament = event_with_teams(0)
    newcomer, stranger = UserFactory(), UserFactory()
    body = {
        "name": "Newcomers",
        "players": [
            {"name": "New One", "wizards_id": "new1@example.org", "username": newcomer.username},
            {"name": "New Two", "wizards_id": "new2@example.org"},
        ],
    }
    path = f"/api/v1/tournaments/{tournament.pk}/teams/"
    assert client_for(stranger).post(path, body, format="json").status_code == 403
    refused = client_for(newcomer).post(path, body, format="json")
    assert refused.status_code == 400
    assert [e["field"] for e in refused.json()["errors"]] == ["players[1].username"]
    body["players"] = body["players"][:1]
    response = client_for(newcomer).post(path, body, format="json")
    assert response.status_code == 201
    assert [p["name"] for p in response.json()["players"]] == ["New One"]
    assert response.json()["status"] == "forming"
    own = client_for(newcomer).get(path).json()
    assert [team["name"] for team in own] == ["Newcomers"]


def test_invalid_bodies_name_each_field(event):
    organizer = client_for(event["users"]["organizer"])
    response = organizer.post("/api/v1/tournaments/", {"name": "", "format": "chess"}, format="json")
    assert response.status_code == 400
    fields = {error["field"] for error in response.json()["errors"]}
    assert fields == {"name", "format"}
    match = paired(event, publish=True)
    bad = organizer.put(
        f"/api/v1/matches/{match.pk}/result/", {"team_a_wins": -1, "version": 1}, format="json"
    )
    assert bad.status_code == 400
    assert {error["field"] for error in bad.json()["errors"]} == {"team_a_wins", "team_b_wins", "draws"}
