"""Penalty pages: the judge's form, the head judge's list with appeals, a player's history."""

from __future__ import annotations

import pytest
from django.test import Client

from penalties.models import Penalty
from penalties.services import penalty_issue
from tests.factories import MatchFactory, RoundFactory
from tournaments.models import Match
from tournaments.services.results import match_result_report


def login(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def new_url(table) -> str:
    return f"/events/{table.tournament.pk}/penalties/new/"


def form(player, **extra) -> dict:
    return {"round": 1, "player": player.pk, "infraction": "TE-SP", "description": "long pauses", **extra}


def test_judge_page_lists_tables_players_with_seats_and_infractions(table):
    response = login(table.judge).get(new_url(table))

    assert response.status_code == 200
    page = response.content.decode()
    assert f"{table.match.team_a.name} vs {table.match.team_b.name}" in page
    assert f'<span class="badge">B2</span> {table.b2.name}' in page
    assert "<strong>GPE-GRV</strong> Game Rule Violation" in page
    assert 'id="step-deviation"' not in page


def test_head_judge_sees_the_deviation_fields(table):
    page = login(table.head_judge).get(new_url(table)).content.decode()

    assert 'id="step-deviation"' in page


def test_judge_page_issues_and_shows_the_result(table):
    response = login(table.judge).post(new_url(table), form(table.a1, found_during_deck_check="on"))

    penalty = Penalty.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"{new_url(table)}?round=1&issued={penalty.pk}"
    assert (penalty.player_id, penalty.penalty, penalty.judge_id) == (table.a1.pk, "warning", table.judge.pk)
    assert penalty.context == {"found_during_deck_check": True}
    shown = login(table.judge).get(response["Location"]).content.decode()
    assert f"Recorded: Warning to {table.a1.name}" in shown


def test_judge_page_grv_offers_ftmgs_to_each_other_player_one_by_one(table):
    client = login(table.judge)
    client.post(new_url(table), form(table.a1, infraction="GPE-GRV"))
    grv = Penalty.objects.get()
    page = client.get(f"{new_url(table)}?round=1&issued={grv.pk}").content.decode()
    assert [name in page for name in (f"FtMGS to {table.a2.name}", f"FtMGS to {table.b1.name}")] == [
        True,
        True,
    ]

    response = client.post(
        new_url(table),
        form(table.b1, infraction="GPE-FTMGS", offer_from=grv.pk, description="let it happen"),
    )

    assert response["Location"] == f"{new_url(table)}?round=1&issued={grv.pk}"
    page = client.get(response["Location"]).content.decode()
    assert f"FtMGS to {table.b1.name}" not in page
    assert f"FtMGS to {table.b2.name}" in page


def test_judge_page_shows_a_refusal_and_saves_nothing(table):
    response = login(table.judge).post(
        new_url(table), form(table.a1, penalty="game_loss", deviation_reason="twice")
    )

    assert response.status_code == 400
    assert "Only the head judge may deviate from the proposed penalty" in response.content.decode()
    assert Penalty.objects.count() == 0


@pytest.mark.parametrize("who", ["player_user", "scorekeeper"])
def test_judge_page_is_for_judges(table, who):
    response = login(getattr(table, who)).get(new_url(table))

    assert response.status_code == 403


def test_anonymous_is_sent_to_log_in(table):
    response = login(None).get(f"/events/{table.tournament.pk}/penalties/")

    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=/events/{table.tournament.pk}/penalties/"


def test_list_highlights_deviations_and_lets_the_head_judge_overturn(table):
    penalty_issue(
        tournament=table.tournament,
        actor=table.head_judge,
        player=table.a1,
        round_row=table.round,
        infraction="GPE-LEC",
        description="looked at two cards",
        penalty="game_loss",
        deviation_reason="second time this match",
    )
    client = login(table.head_judge)

    page = client.get(f"/events/{table.tournament.pk}/penalties/").content.decode()
    assert 'class="deviated"' in page
    assert "deviation from Warning" in page
    penalty = Penalty.objects.get()

    response = client.post(
        f"/events/{table.tournament.pk}/penalties/{penalty.pk}/overturn/", {"reason": "misread the video"}
    )

    assert response.status_code == 302
    penalty.refresh_from_db()
    assert (penalty.overturned, penalty.overturn_reason) == (True, "misread the video")
    assert Match.objects.get(pk=table.match.pk).result_kind == "pending"


def test_judge_cannot_overturn_from_the_page(table):
    penalty = penalty_issue(
        tournament=table.tournament,
        actor=table.judge,
        player=table.a1,
        round_row=table.round,
        infraction="TE-SP",
        description="slow",
    )
    client = login(table.judge)

    assert "Overturn" not in client.get(f"/events/{table.tournament.pk}/penalties/").content.decode()
    response = client.post(
        f"/events/{table.tournament.pk}/penalties/{penalty.pk}/overturn/", {"reason": "x"}, follow=True
    )
    assert "Only the head judge may overturn a penalty" in response.content.decode()
    assert Penalty.objects.get().overturned is False


def test_player_history_lists_only_that_players_penalties(table):
    for player in (table.a1, table.a1, table.b1):
        penalty_issue(
            tournament=table.tournament,
            actor=table.judge,
            player=player,
            round_row=table.round,
            infraction="GPE-MT",
            description=f"missed trigger by {player.name}",
        )

    page = login(table.scorekeeper).get(f"/events/{table.tournament.pk}/penalties/player/{table.a1.pk}/")

    text = page.content.decode()
    assert text.count(f"missed trigger by {table.a1.name}") == 2
    assert f"missed trigger by {table.b1.name}" not in text


def test_player_cannot_read_a_history(table):
    response = login(table.player_user).get(f"/events/{table.tournament.pk}/penalties/player/{table.a1.pk}/")

    assert response.status_code == 403


def test_judge_page_offers_the_current_day_and_a_new_one(table):
    penalty_issue(
        tournament=table.tournament,
        actor=table.judge,
        player=table.b1,
        round_row=table.round,
        infraction="GPE-LEC",
        description="saw two cards",
        day=2,
    )

    page = login(table.judge).get(new_url(table)).content.decode()

    assert (
        '<option value="1">Day 1</option><option value="2" selected>Day 2 (current)</option>'
        '<option value="3">Day 3 (new day)</option>'
    ) in page


def test_judge_page_day_keeps_yesterdays_warning_from_upgrading_todays(table):
    client = login(table.judge)
    client.post(new_url(table), form(table.a1))

    response = client.post(new_url(table), form(table.a1, day="2"))

    assert response.status_code == 302
    assert list(Penalty.objects.order_by("pk").values_list("day", "penalty", "upgraded")) == [
        (1, "warning", False),
        (2, "warning", False),
    ]
    third = client.post(new_url(table), form(table.a1))
    assert third.status_code == 302
    assert Penalty.objects.order_by("pk").values_list("day", "penalty").last() == (2, "match_loss")


def test_list_shows_a_loss_that_landed_on_the_next_match(table):
    match = Match.objects.get(pk=table.match.pk)
    match_result_report(
        match=match, actor=table.scorekeeper, team_a_wins=1, team_b_wins=0, draws=0, version=match.version
    )
    MatchFactory(round=RoundFactory(tournament=table.tournament, number=2), table=7, team_a=match.team_a)
    penalty_issue(
        tournament=table.tournament,
        actor=table.judge,
        player=table.a1,
        round_row=table.round,
        infraction="TE-OA",
        description="notes on the phone",
    )

    page = login(table.head_judge).get(f"/events/{table.tournament.pk}/penalties/").content.decode()

    assert "loss in round 2 · T7</span>" in page
