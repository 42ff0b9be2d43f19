"""Teams by invitation, with consent (issue 15; issue 12's "anyone can put another person's
account on their team"), the partner pool and check-in, through the API."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.tournaments.factories import client_for, event_with_teams, register_team
from tournaments.domain.team_forming import JOIN_CODE_ALPHABET, JOIN_CODE_LENGTH
from tournaments.models import AuditEntry, Match, Player, PoolEntry, Team, TeamInvitation
from tournaments.registration.desk import account_link_invite

pytestmark = pytest.mark.django_db


def own_entry(user, wizards_id: str | None = None) -> dict:
    return {
        "name": f"{user.username} Player",
        "wizards_id": wizards_id or f"{user.username}@wotc.example",
        "username": user.username,
    }


def create_team(tournament, captain, name="Dual Wield", *others) -> dict:
    response = client_for(captain).post(
        f"/api/v1/tournaments/{tournament.pk}/teams/",
        {"name": name, "players": [own_entry(captain), *others]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


def test_player_creates_a_team_and_the_teammate_joins_with_the_code():
    tournament = event_with_teams(0)
    captain, mate = UserFactory(), UserFactory()
    team = create_team(tournament, captain)
    assert team["status"] == "forming"
    assert team["checked_in_at"] is None
    code = team["join_code"]
    assert len(code) == JOIN_CODE_LENGTH and set(code) <= set(JOIN_CODE_ALPHABET)
    assert [p["name"] for p in team["players"]] == [f"{captain.username} Player"]

    joined = client_for(mate).post(
        f"/api/v1/invitations/{code.lower()}/accept/", {"wizards_id": "Mate@Wotc.example"}, format="json"
    )
    assert joined.status_code == 200, joined.json()
    assert joined.json()["status"] == "active"
    assert [p["wizards_id"] for p in joined.json()["players"]] == [
        f"{captain.username}@wotc.example",
        "mate@wotc.example",
    ]
    assert Player.objects.get(user=mate).team_id == team["id"]
    entry = AuditEntry.objects.get(action="invitation_accept")
    assert (entry.actor, entry.after["by"], entry.after["team_complete"]) == (mate, "join code", True)
    third = client_for(UserFactory()).post(f"/api/v1/invitations/{code}/accept/", {}, format="json")
    assert third.status_code == 409
    assert "full" in third.json()["detail"]


def test_an_account_named_directly_is_invited_not_added():
    tournament = event_with_teams(0)
    captain, victim = UserFactory(), UserFactory()
    team = create_team(
        tournament,
        captain,
        "Dual Wield",
        {"name": "Vic Tim", "wizards_id": "vic@wotc.example", "username": victim.username},
    )
    assert [p["name"] for p in team["players"]] == [f"{captain.username} Player"]
    assert [(i["username"], i["status"]) for i in team["pending_invitations"]] == [
        (victim.username, "pending")
    ]
    assert team["status"] == "forming"
    assert not Player.objects.filter(user=victim).exists()
    # The victim can still register their own team: nothing of theirs is taken.
    listed = client_for(victim).get(f"/api/v1/tournaments/{tournament.pk}/invitations/").json()
    assert [(i["team_name"], i["join_code"], i["status"]) for i in listed] == [
        ("Dual Wield", team["join_code"], "pending")
    ]
    declined = client_for(victim).post(f"/api/v1/invitations/{team['join_code']}/decline/", format="json")
    assert declined.status_code == 200
    assert declined.json()["status"] == "declined" and "players" not in declined.json()
    assert TeamInvitation.objects.get(invitee=victim).status == "declined"
    own = create_team(tournament, victim, "Victims Unite")
    assert own["players"][0]["wizards_id"] == f"{victim.username}@wotc.example"


def test_the_invited_player_accepts_under_the_name_the_captain_wrote():
    tournament = event_with_teams(0)
    captain, mate = UserFactory(), UserFactory()
    team = create_team(
        tournament,
        captain,
        "Dual Wield",
        {"name": "Mia Mate", "wizards_id": "mia@wotc.example", "username": mate.username},
    )
    response = client_for(mate).post(f"/api/v1/invitations/{team['join_code']}/accept/", {}, format="json")
    assert response.status_code == 200
    assert [p["name"] for p in response.json()["players"]] == [f"{captain.username} Player", "Mia Mate"]
    assert response.json()["pending_invitations"] == []
    assert TeamInvitation.objects.get(invitee=mate).status == "accepted"


def test_an_invitation_holds_the_seat_and_the_captain_may_cancel_it():
    tournament = event_with_teams(0)
    captain, invited, stranger = UserFactory(), UserFactory(), UserFactory()
    team = create_team(tournament, captain, "Dual Wield", own_entry(invited))
    code = team["join_code"]
    held = client_for(stranger).post(f"/api/v1/invitations/{code}/accept/", {}, format="json")
    assert held.status_code == 409
    invitation_id = team["pending_invitations"][0]["id"]
    path = f"/api/v1/tournaments/{tournament.pk}/teams/{team['id']}/invitations/{invitation_id}/"
    assert client_for(stranger).delete(path).status_code == 403
    assert client_for(captain).delete(path).status_code == 200
    assert AuditEntry.objects.filter(action="invitation_cancel").count() == 1
    assert client_for(invited).post(f"/api/v1/invitations/{code}/decline/").status_code == 404
    assert (
        client_for(stranger).post(f"/api/v1/invitations/{code}/accept/", {}, format="json").status_code == 200
    )


def test_unknown_code_is_404_and_a_bad_one_says_what_a_code_is():
    UserFactory()
    client = client_for(UserFactory())
    assert client.post("/api/v1/invitations/ACDEFGHJKMNP/accept/", {}, format="json").status_code == 404
    bad = client.post("/api/v1/invitations/x/accept/", {}, format="json")
    assert bad.status_code == 404
    assert "12 letters" in bad.json()["detail"]
    assert client_for(None).post("/api/v1/invitations/ACDEFG/accept/").status_code == 401


def test_a_forming_team_is_not_paired_and_joins_later_as_a_late_entry():
    tournament = event_with_teams(4, swiss_rounds=3)
    organizer = tournament.created_by
    captain, mate = UserFactory(), UserFactory()
    team = create_team(tournament, captain)
    paired = client_for(organizer).post(f"/api/v1/tournaments/{tournament.pk}/rounds/", {}, format="json")
    assert paired.status_code == 201
    in_round = {m["team_a"] for m in paired.json()["matches"]} | {
        m["team_b"] for m in paired.json()["matches"] if m["team_b"]
    }
    assert team["id"] not in in_round and len(in_round) == 4
    client_for(mate).post(f"/api/v1/invitations/{team['join_code']}/accept/", {}, format="json")
    late = Team.objects.get(pk=team["id"])
    assert late.registered_after_round == 1
    assert list(Match.objects.filter(team_a=late).values_list("round__number", "result_kind")) == [
        (1, "missed_round_loss")
    ]


def test_staff_at_the_desk_seat_the_player_and_the_account_is_linked_only_when_it_accepts():
    """docs/decisions.md "Team formation": even staff cannot put an account on a team without its
    player's consent; the player takes the seat at once, so the team is paired either way."""
    tournament = event_with_teams(0)
    organizer, victim = tournament.created_by, UserFactory()
    answer = client_for(organizer).post(
        f"/api/v1/tournaments/{tournament.pk}/teams/",
        {
            "name": "Desk Team",
            "players": [
                {"name": "Ana Souza", "wizards_id": "ana@x.example", "username": victim.username},
                {"name": "Ben Okafor", "wizards_id": "ben@x.example"},
            ],
        },
        format="json",
    )
    assert answer.status_code == 201, answer.content
    team = answer.json()
    assert team["status"] == "active"
    assert [p["name"] for p in team["players"]] == ["Ana Souza", "Ben Okafor"]
    ana = Player.objects.get(tournament=tournament, name="Ana Souza")
    assert ana.user is None
    assert [(i["username"], i["player"]) for i in team["pending_invitations"]] == [(victim.username, ana.pk)]
    assert client_for(victim).get(f"/api/v1/tournaments/{tournament.pk}/teams/").status_code == 403
    mine = client_for(victim).get(f"/api/v1/tournaments/{tournament.pk}/invitations/").json()
    assert [(i["team_name"], i["player"]) for i in mine] == [("Desk Team", ana.pk)]

    accepted = client_for(victim).post(
        f"/api/v1/invitations/{mine[0]['join_code']}/accept/", {}, format="json"
    )

    assert accepted.status_code == 200, accepted.content
    ana.refresh_from_db()
    assert ana.user == victim and Team.objects.get(pk=team["id"]).players.count() == 2
    seen = client_for(victim).get(f"/api/v1/tournaments/{tournament.pk}/teams/").json()
    assert [t["name"] for t in seen] == ["Desk Team"]


def test_an_account_staff_name_may_decline_and_stays_free_to_register():
    tournament = event_with_teams(0)
    organizer, victim = tournament.created_by, UserFactory()
    team = register_team(tournament, "Desk Team", actor=organizer, usernames=())
    player = team.players.first()
    account_link_invite(player=player, actor=organizer, username=victim.username)
    player.refresh_from_db()
    team.refresh_from_db()
    assert player.user is None
    declined = client_for(victim).post(f"/api/v1/invitations/{team.join_code}/decline/", {}, format="json")
    assert declined.status_code == 200
    player.refresh_from_db()
    assert player.user is None
    own = client_for(victim).post(
        f"/api/v1/tournaments/{tournament.pk}/teams/",
        {
            "name": "Mine",
            "players": [{"name": "Vic", "wizards_id": "vic@x.example", "username": victim.username}],
        },
        format="json",
    )
    assert own.status_code == 201, own.content


def test_registering_by_username_finds_the_account_through_its_spoof_key():
    tournament = event_with_teams(0)
    UserFactory(username="org")
    captain = UserFactory()
    team = create_team(
        tournament, captain, "Dual Wield", {"name": "O", "wizards_id": "o@x.example", "username": "ORG"}
    )
    assert [i["username"] for i in team["pending_invitations"]] == ["org"]


def test_the_partner_pool_forms_teams_the_organizer_previewed():
    tournament = event_with_teams(0)
    organizer = tournament.created_by
    solo = [UserFactory() for _ in range(5)]
    base = f"/api/v1/tournaments/{tournament.pk}/pool"
    for user in solo:
        joined = client_for(user).post(f"{base}/", {"name": f"{user.username} Solo"}, format="json")
        assert joined.status_code == 201
    assert client_for(UserFactory()).get(f"{base}/").status_code == 403
    names = [row["name"] for row in client_for(solo[0]).get(f"{base}/").json()]
    assert names == [f"{user.username} Solo" for user in solo]
    assert client_for(solo[0]).post(f"{base}/teams/", {"mode": "random"}, format="json").status_code == 403
    preview = client_for(organizer).post(
        f"{base}/teams/", {"mode": "random", "seed": 7, "preview": True}, format="json"
    )
    assert preview.status_code == 200
    assert not preview.json()["saved"] and Team.objects.count() == 0
    made = client_for(organizer).post(f"{base}/teams/", {"mode": "random", "seed": 7}, format="json")
    assert made.status_code == 201
    assert sorted(t["players"] for t in made.json()["teams"]) == sorted(
        t["players"] for t in preview.json()["teams"]
    )
    assert [t["status"] for t in made.json()["teams"]] == ["active", "active"]
    assert made.json()["waiting"] == preview.json()["waiting"] and len(made.json()["waiting"]) == 1
    assert PoolEntry.objects.count() == 1
    waiting = PoolEntry.objects.get().user
    other = next(u for u in solo if u != waiting)
    mine = client_for(other).get(f"/api/v1/tournaments/{tournament.pk}/teams/").json()
    assert len(mine) == 1 and len(mine[0]["players"]) == 2
    assert client_for(waiting).delete(f"{base}/").status_code == 204
    assert client_for(waiting).delete(f"{base}/").status_code == 204
    assert not PoolEntry.objects.exists()


def test_round_one_asks_about_teams_not_checked_in():
    tournament = event_with_teams(5, check_in_required=True, swiss_rounds=3)
    organizer = client_for(tournament.created_by)
    teams = list(Team.objects.filter(tournament=tournament).order_by("name"))
    player = UserFactory()
    Player.objects.filter(team=teams[0], position=0).update(user=player)
    checked = client_for(player).post(
        f"/api/v1/tournaments/{tournament.pk}/teams/{teams[0].pk}/check-in/", {}, format="json"
    )
    assert checked.status_code == 200 and checked.json()["checked_in_at"]
    for team in teams[1:3]:
        assert (
            organizer.post(
                f"/api/v1/tournaments/{tournament.pk}/teams/{team.pk}/check-in/", {}, format="json"
            ).status_code
            == 200
        )
    path = f"/api/v1/tournaments/{tournament.pk}/rounds/"
    asked = organizer.post(path, {}, format="json")
    assert asked.status_code == 409
    assert [t["name"] for t in asked.json()["unchecked_teams"]] == ["Team 04", "Team 05"]
    assert "Team 04, Team 05" in asked.json()["detail"]
    dropped = organizer.post(path, {"unchecked": "drop"}, format="json")
    assert dropped.status_code == 201
    assert len(dropped.json()["matches"]) == 2
    assert set(Team.objects.filter(dropped_after_round=0).values_list("name", flat=True)) == {
        "Team 04",
        "Team 05",
    }


def test_round_one_pairs_unchecked_teams_when_told_to():
    tournament = event_with_teams(4, check_in_required=True, swiss_rounds=3)
    organizer = client_for(tournament.created_by)
    paired = organizer.post(
        f"/api/v1/tournaments/{tournament.pk}/rounds/", {"unchecked": "pair"}, format="json"
    )
    assert paired.status_code == 201 and len(paired.json()["matches"]) == 2


def test_naming_a_wizards_account_invites_the_account_that_played_under_it():
    """Issue 12: a Wizards Account typed without a login used to block its owner's registration."""
    earlier = event_with_teams(0, name="Last week")
    victim = UserFactory()
    register_team(earlier, "Old Team", actor=earlier.created_by, usernames=(victim.username,))
    victim_id = Player.objects.get(user=victim).wizards_id
    tournament = event_with_teams(0)
    team = create_team(
        tournament, UserFactory(), "Dual Wield", {"name": "Vic", "wizards_id": victim_id.upper()}
    )
    # The captain typed no login, so none comes back (issue 24): the invitation names what they typed.
    assert [(i["username"], i["name"]) for i in team["pending_invitations"]] == [(None, "Vic")]
    assert not Player.objects.filter(tournament=tournament, wizards_id=victim_id).exists()
    own = client_for(victim).post(
        f"/api/v1/tournaments/{tournament.pk}/teams/",
        {"name": "Mine", "players": [{"name": "Vic", "wizards_id": victim_id, "username": victim.username}]},
        format="json",
    )
    assert own.status_code == 201


def test_a_three_headed_team_fills_its_seats_by_invitation_and_code():
    tournament = event_with_teams(0, team_size=3)
    captain, invited, walker, late = UserFactory(), UserFactory(), UserFactory(), UserFactory()
    team = create_team(tournament, captain, "Three Heads", own_entry(invited))
    code = team["join_code"]
    assert (
        client_for(walker).post(f"/api/v1/invitations/{code}/accept/", {}, format="json").status_code == 200
    )
    assert client_for(late).post(f"/api/v1/invitations/{code}/accept/", {}, format="json").status_code == 409
    done = client_for(invited).post(f"/api/v1/invitations/{code}/accept/", {}, format="json")
    assert done.status_code == 200
    assert done.json()["status"] == "active" and len(done.json()["players"]) == 3
    too_many = client_for(captain).post(
        f"/api/v1/tournaments/{tournament.pk}/teams/",
        {
            "name": "Four",
            "players": [
                own_entry(late),
                own_entry(UserFactory()),
                own_entry(UserFactory()),
                own_entry(UserFactory()),
            ],
        },
        format="json",
    )
    assert too_many.status_code == 403
    four = client_for(late).post(
        f"/api/v1/tournaments/{tournament.pk}/teams/",
        {
            "name": "Four",
            "players": [
                own_entry(late),
                own_entry(UserFactory()),
                own_entry(UserFactory()),
                own_entry(UserFactory()),
            ],
        },
        format="json",
    )
    assert four.status_code == 400
    assert "up to 2 teammate(s)" in four.json()["detail"]
