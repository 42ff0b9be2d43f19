"""The penalties API: issue, list, preview, overturn, catalogue; roles, errors and query counts."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from penalties.models import Penalty
from tests.factories import MatchFactory, RoundFactory
from tournaments.models import Match


def url(table, suffix: str = "") -> str:
    return f"/api/v1/tournaments/{table.tournament.pk}/penalties/{suffix}"


def body(player, **extra) -> dict:
    return {"player": player.pk, "round": 1, "infraction": "TE-SP", "description": "long pauses", **extra}


def test_judge_issues_a_penalty(table, client_for):
    response = client_for(table.judge).post(url(table), body(table.a1), format="json")

    assert response.status_code == 201
    penalty = Penalty.objects.get()
    assert response.json() == {
        "id": penalty.pk,
        "infraction": "TE-SP",
        "base_penalty": "warning",
        "proposed_penalty": "warning",
        "penalty": "warning",
        "upgraded": False,
        "deviated": False,
        "explanation": "Competitive, TE-SP (Slow Play): Warning",
        "steps": ["Competitive, TE-SP (Slow Play): Warning"],
        "notes": ["+2 turns at the end of the round for this table"],
        "team_effect": "none",
        "match_point_adjustment": 0,
        "extra_turns": 2,
        "offer_ftmgs_to": [],
        "review": "",
    }


def test_context_flags_reach_the_rules(table, client_for):
    response = client_for(table.judge).post(
        url(table), body(table.a1, infraction="TE-DLP", found_during_deck_check=True), format="json"
    )

    assert response.status_code == 201
    assert (response.json()["penalty"], response.json()["match_point_adjustment"]) == ("match_point", -1)
    assert Penalty.objects.get().context == {"found_during_deck_check": True}


def test_grv_lists_the_three_players_to_offer_ftmgs(table, client_for):
    response = client_for(table.judge).post(url(table), body(table.a1, infraction="GPE-GRV"), format="json")

    assert response.json()["offer_ftmgs_to"] == [table.a2.pk, table.b1.pk, table.b2.pk]


def test_simultaneous_with_names_an_earlier_penalty(table, client_for):
    client = client_for(table.judge)
    first = client.post(url(table), body(table.a1, infraction="GPE-LEC"), format="json").json()["id"]

    response = client.post(
        url(table), body(table.b1, infraction="GPE-LEC", simultaneous_with=first), format="json"
    )

    assert response.status_code == 201
    assert Penalty.objects.get(pk=response.json()["id"]).simultaneous_with_id == first


def test_two_match_losses_in_one_ruling_give_both_teams_zero_points(table, client_for):
    client = client_for(table.judge)
    first = client.post(url(table), body(table.a1, infraction="USC-IDW"), format="json").json()["id"]

    response = client.post(
        url(table), body(table.b1, infraction="USC-IDW", simultaneous_with=first), format="json"
    )

    assert response.status_code == 201
    assert Match.objects.get(pk=table.match.pk).result_kind == "double_loss"
    standings = client.get(f"/api/v1/tournaments/{table.tournament.pk}/standings/").json()
    assert {row["team"]: row["match_points"] for row in standings} == {
        table.match.team_a_id: 0,
        table.match.team_b_id: 0,
    }


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"player": 999_999}, "player"),
        ({"round": 4}, "round"),
        ({"infraction": "GPE-XX"}, "infraction"),
        ({"description": ""}, "description"),
        ({"penalty": "caution"}, "penalty"),
        ({"minutes_late": -1}, "minutes_late"),
        ({"simultaneous_with": 999_999}, "simultaneous_with"),
    ],
)
def test_invalid_input_is_a_400_naming_the_field(table, client_for, change, field):
    response = client_for(table.judge).post(url(table), {**body(table.a1), **change}, format="json")

    assert response.status_code == 400
    assert [error["field"] for error in response.json()["errors"]] == [field]
    assert Penalty.objects.count() == 0


def test_player_of_another_event_is_a_400(table, client_for):
    stranger = MatchFactory().team_a.players.first()

    response = client_for(table.judge).post(url(table), body(stranger), format="json")

    assert (response.status_code, response.json()["errors"][0]["field"]) == (400, "player")


def test_unknown_event_is_a_404(table, client_for):
    response = client_for(table.judge).post(
        "/api/v1/tournaments/999999/penalties/", body(table.a1), format="json"
    )

    assert response.status_code == 404


@pytest.mark.parametrize("who", ["anonymous", "player_user", "scorekeeper"])
def test_only_judges_issue(table, client_for, who):
    user = None if who == "anonymous" else getattr(table, who)

    response = client_for(user).post(url(table), body(table.a1), format="json")

    assert response.status_code == 403
    assert Penalty.objects.count() == 0


@pytest.mark.parametrize("who", ["organizer", "head_judge", "judge"])
def test_every_judge_role_issues(table, client_for, who):
    response = client_for(getattr(table, who)).post(url(table), body(table.a1), format="json")

    assert response.status_code == 201


def test_judge_may_not_deviate(table, client_for):
    response = client_for(table.judge).post(
        url(table), body(table.a1, penalty="game_loss", deviation_reason="twice this round"), format="json"
    )

    assert response.status_code == 403
    assert response.json()["detail"] == "Only the head judge may deviate from the proposed penalty"


def test_head_judge_deviation_needs_a_reason(table, client_for):
    response = client_for(table.head_judge).post(
        url(table), body(table.a1, penalty="game_loss"), format="json"
    )

    assert response.status_code == 400
    assert response.json()["errors"] == [{"field": "reason", "message": "a deviation needs a reason"}]


def test_head_judge_deviates_with_a_reason(table, client_for):
    response = client_for(table.head_judge).post(
        url(table),
        body(table.a1, penalty="game_loss", deviation_reason="stalling warned twice"),
        format="json",
    )

    assert response.status_code == 201
    assert (response.json()["proposed_penalty"], response.json()["penalty"], response.json()["deviated"]) == (
        "warning",
        "game_loss",
        True,
    )


def test_preview_proposes_without_saving(table, client_for):
    client = client_for(table.judge)
    client.post(url(table), body(table.a1), format="json")

    response = client.post(url(table, "preview/"), body(table.a1), format="json")

    assert response.status_code == 200
    assert response.json()["penalty"] == "match_loss"
    assert response.json()["penalty_label"] == "Match Loss"
    assert response.json()["upgraded"] is True
    assert Penalty.objects.count() == 1


def test_preview_keeps_english_names_and_gives_the_readers_language_beside_them(table, client_for):
    response = client_for(table.judge).post(
        url(table, "preview/"), body(table.a1), format="json", HTTP_ACCEPT_LANGUAGE="ja"
    )

    answer = response.json()
    assert (answer["penalty_label"], answer["penalty_name"]) == ("Warning", "警告")
    assert answer["explanation"] == "Competitive, TE-SP (Slow Play): Warning"
    assert answer["explanation_text"] == "競技、TE-SP (Slow Play): 警告"


def test_preview_is_for_judges_only(table, client_for):
    response = client_for(table.player_user).post(url(table, "preview/"), body(table.a1), format="json")

    assert response.status_code == 403


def issue_three(table, client_for):
    client = client_for(table.judge)
    other = MatchFactory(round=table.round, table=2)
    client.post(url(table), body(table.a1), format="json")
    client.post(url(table), body(table.a2, infraction="GPE-LEC"), format="json")
    client.post(url(table), body(other.team_a.players.first(), infraction="GPE-MT"), format="json")
    return other


def test_list_shows_every_penalty_to_staff(table, client_for):
    issue_three(table, client_for)

    response = client_for(table.scorekeeper).get(url(table))

    assert response.status_code == 200
    rows = response.json()
    assert [(row["player"]["name"], row["infraction"], row["table"]) for row in rows] == [
        (table.a1.name, "TE-SP", 1),
        (table.a2.name, "GPE-LEC", 1),
        (rows[2]["player"]["name"], "GPE-MT", 2),
    ]
    assert rows[0]["team"] == {"id": table.a1.team_id, "name": table.a1.team.name}
    assert rows[0]["judge"] == table.judge.username
    assert (rows[0]["round"], rows[0]["overturned"], rows[0]["overturned_by"]) == (1, False, None)


@pytest.mark.parametrize(
    ("query", "expected"),
    [("round=1", 3), ("round=2", 0), ("team={team}", 2), ("player={player}", 1)],
)
def test_list_filters_by_round_team_and_player(table, client_for, query, expected):
    issue_three(table, client_for)
    query = query.format(team=table.a1.team_id, player=table.a2.pk)

    response = client_for(table.judge).get(url(table) + "?" + query)

    assert len(response.json()) == expected


def test_list_filter_must_be_a_number(table, client_for):
    response = client_for(table.judge).get(url(table) + "?team=abc")

    assert (response.status_code, response.json()["errors"][0]["field"]) == (400, "team")


@pytest.mark.parametrize("who", ["anonymous", "player_user"])
def test_players_and_anonymous_never_see_penalties(table, client_for, who):
    issue_three(table, client_for)
    user = None if who == "anonymous" else table.player_user

    response = client_for(user).get(url(table))

    assert response.status_code == 403
    assert "errors" in response.json()


@pytest.mark.parametrize("rows", [1, 3])
def test_list_queries_do_not_grow_with_rows(table, client_for, django_assert_num_queries, rows):
    client = client_for(table.judge)
    for _ in range(rows):
        client.post(url(table), body(table.a1, infraction="GPE-MT"), format="json")
    assert Penalty.objects.count() == rows

    fresh = client_for(get_user_model().objects.get(pk=table.judge.pk))

    # tournament, the user's staff role, the penalties with their round, match, player, team and judges
    with django_assert_num_queries(3):
        response = fresh.get(url(table))

    assert len(response.json()) == rows


def test_head_judge_overturns(table, client_for):
    penalty_id = (
        client_for(table.judge)
        .post(url(table), body(table.a1, infraction="TE-OA"), format="json")
        .json()["id"]
    )
    assert Match.objects.get(pk=table.match.pk).result_kind == "penalty_loss"

    response = client_for(table.head_judge).post(
        f"/api/v1/penalties/{penalty_id}/overturn/", {"reason": "no assistance after all"}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["overturned"] is True
    assert response.json()["overturned_by"] == table.head_judge.username
    assert response.json()["overturn_reason"] == "no assistance after all"
    assert Match.objects.get(pk=table.match.pk).result_kind == "pending"


@pytest.mark.parametrize(("who", "status"), [("judge", 403), ("player_user", 403), ("anonymous", 403)])
def test_only_the_head_judge_overturns(table, client_for, who, status):
    penalty_id = client_for(table.judge).post(url(table), body(table.a1), format="json").json()["id"]
    user = None if who == "anonymous" else getattr(table, who)

    response = client_for(user).post(
        f"/api/v1/penalties/{penalty_id}/overturn/", {"reason": "x"}, format="json"
    )

    assert response.status_code == status
    assert Penalty.objects.get().overturned is False


def test_overturn_needs_a_reason_and_a_real_penalty(table, client_for):
    penalty_id = client_for(table.judge).post(url(table), body(table.a1), format="json").json()["id"]
    client = client_for(table.head_judge)

    missing = client.post(f"/api/v1/penalties/{penalty_id}/overturn/", {}, format="json")
    unknown = client.post("/api/v1/penalties/999999/overturn/", {"reason": "x"}, format="json")

    assert (missing.status_code, missing.json()["errors"][0]["field"]) == (400, "reason")
    assert unknown.status_code == 404


def test_dq_overturn_after_a_later_round_was_paired_is_a_409_naming_re_entry(table, client_for):
    penalty_id = (
        client_for(table.head_judge)
        .post(url(table), body(table.b1, infraction="USC-C"), format="json")
        .json()["id"]
    )
    MatchFactory(round=RoundFactory(tournament=table.tournament, number=2), team_a=table.match.team_a)

    response = client_for(table.head_judge).post(
        f"/api/v1/penalties/{penalty_id}/overturn/", {"reason": "appeal"}, format="json"
    )

    assert response.status_code == 409
    assert response.json()["detail"] == (
        f"This Disqualification cannot be overturned here: round 2 was paired after it, without "
        f"{table.match.team_b.name}, so the team missed that match and an overturn cannot give it "
        "back. The head judge may let the team re-enter the event (MTR 2.10); the missed round stays lost."
    )
    assert Penalty.objects.get(pk=penalty_id).overturned is False


def test_dq_overturn_before_the_next_round_reinstates_the_team(table, client_for):
    penalty_id = (
        client_for(table.head_judge)
        .post(url(table), body(table.b1, infraction="USC-C"), format="json")
        .json()["id"]
    )

    response = client_for(table.head_judge).post(
        f"/api/v1/penalties/{penalty_id}/overturn/", {"reason": "appeal upheld"}, format="json"
    )

    assert response.status_code == 200
    team = table.match.team_b
    team.refresh_from_db()
    assert (team.disqualified, team.dropped_after_round) == (False, None)
    assert Match.objects.get(pk=table.match.pk).result_kind == "pending"


def test_infractions_list_gives_this_events_defaults(table, client_for):
    response = client_for(table.judge).get(f"/api/v1/tournaments/{table.tournament.pk}/infractions/")

    assert response.status_code == 200
    rows = {row["code"]: row for row in response.json()}
    assert len(rows) == 23
    assert (rows["TE-SP"]["name"], rows["TE-SP"]["default_penalty"]) == ("Slow Play", "warning")
    assert rows["USC-MAJOR"]["default_penalty_label"] == "Match Loss"


def test_infractions_list_is_staff_only(table, client_for):
    response = client_for(table.player_user).get(f"/api/v1/tournaments/{table.tournament.pk}/infractions/")

    assert response.status_code == 403


def test_schema_documents_the_penalty_endpoints(client_for, db):
    response = client_for(None).get("/api/schema/?format=json")

    paths = response.json()["paths"]
    assert set(paths["/api/v1/tournaments/{tournament_id}/penalties/"]) == {"get", "post"}
    assert "post" in paths["/api/v1/tournaments/{tournament_id}/penalties/preview/"]
    assert "post" in paths["/api/v1/penalties/{id}/overturn/"]
    assert "get" in paths["/api/v1/tournaments/{tournament_id}/infractions/"]
    issue = paths["/api/v1/tournaments/{tournament_id}/penalties/"]["post"]
    assert "201" in issue["responses"]


def test_day_in_the_body_keeps_yesterdays_warning_from_upgrading_todays(table, client_for):
    client = client_for(table.judge)
    client.post(url(table), body(table.a1, day=1), format="json")

    preview = client.post(url(table, "preview/"), body(table.a1, day=2), format="json")
    issued = client.post(url(table), body(table.a1, day=2), format="json")
    same_day = client.post(url(table, "preview/"), body(table.a1, day=2), format="json")

    assert (preview.json()["penalty"], preview.json()["upgraded"]) == ("warning", False)
    assert (issued.status_code, issued.json()["penalty"], issued.json()["upgraded"]) == (
        201,
        "warning",
        False,
    )
    assert Penalty.objects.get(pk=issued.json()["id"]).day == 2
    assert (same_day.json()["penalty"], same_day.json()["upgraded"]) == ("match_loss", True)
