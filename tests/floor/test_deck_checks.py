"""The deck-check planner through the API: contenders checked against an independent computation
from the raw results, and plans that only propose unchecked teams, the same on every reload."""

from __future__ import annotations

import random

import pytest
from django.utils import timezone

from decklists.services import deck_check_finish, deck_check_start, decklist_submit
from tests.decklists.realdata import mtgo_text, real_decklists
from tests.factories import UserFactory
from tests.tournaments.factories import add_staff, client_for, event_with_teams
from tournaments.enums import ResultKind, StaffRole
from tournaments.models import Match, Player, Team
from tournaments.services.participation import team_drop
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db


def play_round(tournament, scorekeeper, rng: random.Random) -> None:
    number = round_pair(tournament=tournament, actor=tournament.created_by).number
    for match in Match.objects.filter(
        round__tournament=tournament, round__number=number, team_b__isnull=False
    ):
        outcome = rng.choice(["a", "a", "b", "b", "draw"])
        wins = {"a": (1, 0, 0), "b": (0, 1, 0), "draw": (0, 0, 1)}[outcome]
        match_result_report(
            match=match, actor=scorekeeper, team_a_wins=wins[0], team_b_wins=wins[1], draws=wins[2], version=1
        )


def independent_contenders(tournament, *, cut: int, swiss_rounds: int) -> list[int]:
    """From the stored matches alone: 3 points a win or bye, 1 a draw; the cut line is the
    ``cut``-th best points among active teams (a points value, so no tiebreaker is needed)."""
    points = dict.fromkeys(Team.objects.filter(tournament=tournament).values_list("pk", flat=True), 0)
    played_rounds = set()
    for match in Match.objects.filter(round__tournament=tournament, confirmed=True):
        played_rounds.add(match.round.number)
        if match.result_kind == ResultKind.BYE:
            points[match.team_a_id] += 3
        elif match.team_a_wins > match.team_b_wins:
            points[match.team_a_id] += 3
        elif match.team_b_wins > match.team_a_wins:
            points[match.team_b_id] += 3
        else:
            points[match.team_a_id] += 1
            points[match.team_b_id] += 1
    active = set(
        Team.objects.filter(
            tournament=tournament, dropped_after_round__isnull=True, disqualified=False
        ).values_list("pk", flat=True)
    )
    checked = {
        team
        for pair in Match.objects.filter(round__tournament=tournament, deck_checks__isnull=False).values_list(
            "team_a_id", "team_b_id"
        )
        for team in pair
    }
    line = sorted((points[t] for t in active), reverse=True)[cut - 1]
    remaining = swiss_rounds - max(played_rounds)
    return sorted(t for t in active if t not in checked and points[t] + 3 * remaining >= line)


@pytest.mark.parametrize("seed", [7, 2026])
def test_contenders_late_in_the_event_match_an_independent_computation(seed):
    rng = random.Random(seed)
    organizer = UserFactory()
    tournament = event_with_teams(16, organizer=organizer, swiss_rounds=5, top_cut=8)
    scorekeeper = add_staff(tournament, StaffRole.SCOREKEEPER)
    judge = add_staff(tournament, StaffRole.JUDGE)
    client = client_for(judge)
    url = f"/api/v1/tournaments/{tournament.pk}/deck-checks/contenders/"
    for number in range(1, 5):
        play_round(tournament, scorekeeper, rng)
        if number == 2:
            team_drop(
                team=Team.objects.filter(tournament=tournament).order_by("name")[3],
                actor=organizer,
                reason="home",
            )
        # Two tables of each round were deck checked.
        for match in Match.objects.filter(
            round__tournament=tournament, round__number=number, team_b__isnull=False
        ).order_by("?")[:2]:
            check = deck_check_start(match=match, actor=judge, at=timezone.now())
            deck_check_finish(deck_check=check, actor=judge, at=timezone.now())
        if number >= 3:
            body = client.get(url).json()
            expected = independent_contenders(tournament, cut=8, swiss_rounds=5)
            assert (body["cut"], body["remaining_rounds"]) == (8, 5 - number)
            assert sorted(body["teams"]) == expected
            assert expected  # the scenario keeps someone to check


def test_contenders_follow_standings_order_and_exclude_checked_teams(floor_event):
    ev = floor_event
    body = ev.client(ev.judge).get(f"/api/v1/tournaments/{ev.tournament.pk}/deck-checks/contenders/").json()
    # Before any result: everyone is still in it.
    assert sorted(body["teams"]) == sorted(t.pk for t in ev.teams)
    check = deck_check_start(match=ev.matches[0], actor=ev.judge, at=timezone.now())
    deck_check_finish(deck_check=check, actor=ev.judge, at=timezone.now())
    body = ev.client(ev.judge).get(f"/api/v1/tournaments/{ev.tournament.pk}/deck-checks/contenders/").json()
    assert set(body["teams"]) == {t.pk for t in ev.teams} - {ev.teams[0].pk, ev.teams[1].pk}


def register_lists(ev, *, skip=()) -> None:
    """Every player of the floor event has a real Modern list (the teams in ``skip`` none), entered
    by the head judge from the paper lists: the round has started, so the lists are locked."""
    modern = [record for record in real_decklists() if record["format"] == "modern"]
    players = Player.objects.filter(tournament=ev.tournament).exclude(team__in=skip).order_by("pk")
    for player, record in zip(players, modern, strict=False):
        decklist_submit(
            tournament=ev.tournament,
            actor=ev.head_judge,
            player=player,
            text=mtgo_text(record),
            reason="paper list handed in before round 1",
        )


def test_plan_proposes_only_unchecked_teams_the_same_every_time(floor_event):
    ev = floor_event
    register_lists(ev)
    check = deck_check_start(match=ev.matches[1], actor=ev.judge, at=timezone.now())
    deck_check_finish(deck_check=check, actor=ev.judge, at=timezone.now())
    url = f"/api/v1/tournaments/{ev.tournament.pk}/deck-checks/plan/?round=1&count=3"
    first = ev.client(ev.judge).get(url)
    assert first.status_code == 200
    checks = first.json()["checks"]
    assert len(checks) == 3
    assert 2 not in [c["table"] for c in checks]
    by_table = {m.table: m for m in ev.matches}
    for proposal in checks:
        match = by_table[proposal["table"]]
        assert proposal["match"] == match.pk
        assert proposal["team"] in (match.team_a_id, match.team_b_id)
    assert ev.client(ev.head_judge).get(url).json() == first.json()
    everything = ev.client(ev.judge).get(url.replace("count=3", "count=10")).json()["checks"]
    assert [c["table"] for c in everything] == [1, 3, 4]


def test_plan_never_names_a_finished_table_nor_a_team_without_a_list(floor_event):
    """Round 1: table 1 has its result, Team 3 (table 2) registered no list, so the plan is
    tables 2 (for Team 4 only), 3 and 4, whatever the count."""
    ev = floor_event
    register_lists(ev, skip=[ev.teams[2]])
    finished = ev.matches[0]
    match_result_report(
        match=finished, actor=ev.scorekeeper, team_a_wins=1, team_b_wins=0, draws=0, version=1
    )
    url = f"/api/v1/tournaments/{ev.tournament.pk}/deck-checks/plan/?round=1&count=10"
    checks = ev.client(ev.judge).get(url).json()["checks"]
    assert [c["table"] for c in checks] == [2, 3, 4]
    assert checks[0]["team"] == ev.teams[3].pk
    page = ev.client(ev.judge).get(f"/events/{ev.tournament.pk}/floor/deck-checks/?round=1&count=10")
    assert f'/deckchecks/{finished.pk}/"' not in page.content.decode()


def test_plan_refuses_bad_queries_and_outsiders(floor_event):
    ev = floor_event
    base = f"/api/v1/tournaments/{ev.tournament.pk}/deck-checks/plan/"
    assert ev.client(ev.judge).get(base + "?round=9&count=2").status_code == 400
    zero = ev.client(ev.judge).get(base + "?round=1&count=0")
    assert (zero.status_code, zero.json()["errors"][0]["field"]) == (400, "count")
    assert ev.client(ev.judge).get(base).status_code == 400
    assert ev.client(ev.players[0]).get(base + "?round=1").status_code == 403
    assert ev.client(ev.scorekeeper).get(base + "?round=1").status_code == 403
