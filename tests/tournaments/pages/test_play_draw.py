"""Who chooses to play or draw in the playoff, on the public page (MTR 9.3, docs/rules.md#play-or-draw):
the higher Swiss seed when the event announces it, else a team drawn from the round's seed."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.factories import event_with_teams
from tournaments.domain.play_draw import play_draw_chooser
from tournaments.models import Match, Round, Tournament
from tournaments.services.cut import cut_build
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair, round_publish
from tournaments.standings import play_draw_choosers, standings_for

pytestmark = pytest.mark.django_db

CHOOSER = re.compile(r"Chooses play or draw: <strong>([^<]+)</strong>")


def _report_a_wins(match: Match, actor) -> None:
    match.refresh_from_db()
    match_result_report(
        match=match, actor=actor, team_a_wins=1, team_b_wins=0, draws=0, version=match.version
    )


def _event_at_the_cut(policy: str, teams: int = 8, swiss_rounds: int = 3, top_cut: int = 4):
    """Swiss rounds played out (team A wins every match), then the cut built and published."""
    tournament = event_with_teams(teams, swiss_rounds=swiss_rounds, top_cut=top_cut, playoff_play_draw=policy)
    organizer = tournament.created_by
    for _ in range(swiss_rounds):
        round_obj = round_pair(tournament=tournament, actor=organizer)
        round_publish(round_row=round_obj, actor=organizer)
        for match in round_obj.matches.exclude(team_b=None):
            _report_a_wins(match, organizer)
    semifinals = cut_build(tournament=tournament, actor=organizer)
    round_publish(round_row=semifinals, actor=organizer)
    tournament.refresh_from_db()
    return tournament, semifinals


def _choosers_shown(client, tournament: Tournament) -> list[str]:
    response = client.get(reverse("tournament-public", args=[tournament.id]))
    assert response.status_code == 200
    assert "{#" not in response.text  # the pairings table's comments stay comments
    return CHOOSER.findall(response.text)


def _semifinals(semifinals: Round) -> list[Match]:
    return list(semifinals.matches.select_related("team_a", "team_b").order_by("bracket_slot"))


def test_higher_seed_the_better_ranked_team_chooses_in_each_semifinal(client):
    tournament, semifinals = _event_at_the_cut("higher_seed")
    rank = {line.team_id: line.rank for line in standings_for(tournament, through_round=3)}
    matches = _semifinals(semifinals)
    # The bracket puts seed 1 and seed 2 on side A; the chooser must follow the ranks, not the side.
    expected = [min((m.team_a, m.team_b), key=lambda team: rank[team.id]).name for m in matches]
    assert [rank[m.team_a_id] for m in matches] == [1, 2]

    assert _choosers_shown(client, tournament) == expected


def test_random_the_chooser_is_drawn_from_the_round_seed_and_stable_across_reloads(client):
    tournament, semifinals = _event_at_the_cut("random")
    matches = _semifinals(semifinals)
    names = {team.id: team.name for m in matches for team in (m.team_a, m.team_b)}
    expected = [
        names[
            play_draw_chooser(
                team_a=m.team_a_id, team_b=m.team_b_id, swiss_rank={}, policy="random", seed=semifinals.seed
            )
        ]
        for m in matches
    ]

    first = _choosers_shown(client, tournament)
    assert first == expected
    assert _choosers_shown(client, tournament) == first


def test_a_swiss_round_shows_no_chooser(client):
    tournament = event_with_teams(7, swiss_rounds=3, top_cut=4, playoff_play_draw="higher_seed")
    round_obj = round_pair(tournament=tournament, actor=tournament.created_by)
    round_publish(round_row=round_obj, actor=tournament.created_by)

    assert _choosers_shown(client, tournament) == []
    assert play_draw_choosers(round_obj) == {}


def _queries(round_id: int) -> tuple[dict[int, int], int]:
    round_obj = Round.objects.select_related("tournament").get(pk=round_id)
    with CaptureQueriesContext(connection) as queries:
        choosers = play_draw_choosers(round_obj)
    return choosers, len(queries)


@pytest.mark.parametrize("policy", ["higher_seed", "random"])
def test_the_selector_names_a_team_of_each_match_in_a_fixed_number_of_queries(policy):
    _, top_4 = _event_at_the_cut(policy)
    _, top_8 = _event_at_the_cut(policy, teams=16, swiss_rounds=4, top_cut=8)

    (small, small_count), (big, big_count) = _queries(top_4.pk), _queries(top_8.pk)

    for round_obj, choosers in ((top_4, small), (top_8, big)):
        matches = _semifinals(round_obj)
        assert set(choosers) == {m.id for m in matches}
        assert all(choosers[m.id] in (m.team_a_id, m.team_b_id) for m in matches)
    assert len(big) == 4
    assert small_count == big_count
    if policy == "random":
        assert small_count == 1
