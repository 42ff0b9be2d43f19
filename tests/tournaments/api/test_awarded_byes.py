"""Premier-style awarded byes through the REST API: registration, the byes themselves, the round chart."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.tournaments.factories import client_for, event_with_teams, register_team
from tournaments.models import Team

pytestmark = pytest.mark.django_db


def _team_body(name: str, awarded_byes: int | None = None) -> dict:
    slug = name.lower().replace(" ", "-")
    body: dict = {
        "name": name,
        "players": [
            {"name": f"{name} A", "wizards_id": f"{slug}-a@example.org"},
            {"name": f"{name} B", "wizards_id": f"{slug}-b@example.org"},
        ],
    }
    if awarded_byes is not None:
        body["awarded_byes"] = awarded_byes
    return body


def _report_round(organizer, round_json: dict) -> None:
    for match in round_json["matches"]:
        if match["team_b"] is None:
            continue
        response = organizer.put(
            f"/api/v1/matches/{match['id']}/result/",
            {"team_a_wins": 1, "team_b_wins": 0, "draws": 0, "version": match["version"]},
            format="json",
        )
        assert response.status_code == 200, response.json()


def test_a_two_round_awarded_bye_gives_six_points_and_no_opponents_after_round_two():
    tournament = event_with_teams(9, swiss_rounds=4)
    organizer = client_for(tournament.created_by)
    base = f"/api/v1/tournaments/{tournament.pk}"
    created = organizer.post(f"{base}/teams/", _team_body("Team Byes", 2), format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["awarded_byes"] == 2
    holder = created.json()["id"]
    assert organizer.get(f"{base}/teams/{holder}/").json()["awarded_byes"] == 2

    for number in (1, 2):
        paired = organizer.post(f"{base}/rounds/", {}, format="json")
        assert paired.status_code == 201, paired.json()
        mine = [m for m in paired.json()["matches"] if holder in (m["team_a"], m["team_b"])]
        assert [(m["team_a"], m["team_b"], m["result_kind"]) for m in mine] == [(holder, None, "bye")]
        assert any("Awarded bye" in line for line in paired.json()["explanation"])
        assert organizer.post(f"{base}/rounds/{number}/publish/").status_code == 200
        _report_round(organizer, paired.json())

    standings = organizer.get(f"{base}/standings/").json()
    rows = standings["rows"] if isinstance(standings, dict) else standings
    row = next(r for r in rows if r["team"] == holder)
    # A bye counts as a match win (MTR App. C).
    assert (row["match_points"], row["byes"], row["wins"], row["losses"]) == (6, 2, 2, 0)
    assert row["omw"] == pytest.approx(1 / 3, abs=1e-4), "no opponents: OMW% is the floor"

    third = organizer.post(f"{base}/rounds/", {}, format="json").json()
    assert any(holder in (m["team_a"], m["team_b"]) and m["team_b"] is not None for m in third["matches"])


def test_awarded_byes_count_two_four_eight_in_the_round_chart():
    # 30 teams alone would be 5 Swiss rounds; with a 3-round (8) and a 2-round (4) holder the chart
    # counts 28 + 8 + 4 = 40 players: 6 rounds.
    tournament = event_with_teams(28)
    organizer = client_for(tournament.created_by)
    base = f"/api/v1/tournaments/{tournament.pk}"
    assert organizer.post(f"{base}/teams/", _team_body("Team Three", 3), format="json").status_code == 201
    assert organizer.post(f"{base}/teams/", _team_body("Team Two", 2), format="json").status_code == 201
    assert organizer.post(f"{base}/rounds/", {}, format="json").status_code == 201
    event = organizer.get(f"{base}/").json()
    assert (event["swiss_rounds"], event["top_cut"]) == (6, 8)


@pytest.mark.parametrize("value", [-1, 4, "two"])
def test_awarded_byes_out_of_range_are_refused_with_the_field(value):
    tournament = event_with_teams(2)
    response = client_for(tournament.created_by).post(
        f"/api/v1/tournaments/{tournament.pk}/teams/", _team_body("Team Odd", value), format="json"
    )
    assert response.status_code == 400
    assert "awarded_byes" in str(response.json())
    assert not Team.objects.filter(name="Team Odd").exists()


def test_awarded_byes_are_entered_before_round_one_only():
    tournament = event_with_teams(4, swiss_rounds=3)
    organizer = client_for(tournament.created_by)
    base = f"/api/v1/tournaments/{tournament.pk}"
    assert organizer.post(f"{base}/rounds/", {}, format="json").status_code == 201
    late = organizer.post(f"{base}/teams/", _team_body("Team Late", 1), format="json")
    assert late.status_code == 400
    assert late.json()["errors"] == [
        {"field": "awarded_byes", "message": "awarded byes are entered before round 1"}
    ]
    register_team(tournament, "Team Late Plain", actor=tournament.created_by)
    assert Team.objects.get(name="Team Late Plain").awarded_byes == 0


def test_a_player_registering_their_own_team_cannot_award_it_byes():
    tournament = event_with_teams(2)
    player = UserFactory()
    body = _team_body("Team Self", 1)
    body["players"][0]["username"] = player.username
    base = f"/api/v1/tournaments/{tournament.pk}/teams/"

    refused = client_for(player).post(base, body, format="json")
    assert refused.status_code == 403
    assert "awarded_byes" in refused.json()["detail"]
    assert not Team.objects.filter(name="Team Self").exists()

    # The teammate has no account to invite: the player registers alone and shares the join code.
    own = {"awarded_byes": 0, "players": body["players"][:1]}
    accepted = client_for(player).post(base, body | own, format="json")
    assert accepted.status_code == 201, accepted.json()
    assert accepted.json()["awarded_byes"] == 0
