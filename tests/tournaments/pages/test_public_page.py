"""The public event page: pairings only once published, find-my-table search, standings."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from penalties.services import penalty_issue
from tests.tournaments.pages.builders import TEAMS, build_event
from tournaments.enums import Rel
from tournaments.models import Match, Team
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair, round_publish
from tournaments.standings import standings_for

pytestmark = pytest.mark.django_db


def public(client, event, **params):
    return client.get(reverse("tournament-public", args=[event.id]), params)


def test_public_page_before_pairing_lists_the_teams(client, event):
    response = public(client, event)

    assert response.status_code == 200
    assert "Teams (7)" in response.text
    assert "Pairings appear here when the next round is published." in response.text
    assert f'href="/events/{event.id}/clock/"' in response.text


@pytest.mark.parametrize(
    ("fmt", "team_size", "unsanctioned"),
    [("pauper", 2, True), ("modern", 2, False), ("draft", 2, False), ("pauper", 1, False)],
)
def test_a_2hg_event_outside_the_mtr_3_2_formats_says_it_is_unsanctioned(
    client, event, fmt, team_size, unsanctioned
):
    event.format, event.team_size = fmt, team_size
    event.save()

    response = public(client, event)

    notice = (
        "Pauper is not a sanctioned Two-Headed Giant format (MTR 3.2: Standard, Pioneer, Modern, "
        "Vintage, Legacy, Sealed, Booster Draft): this is an unsanctioned event."
    )
    assert (notice in response.text) is unsanctioned
    assert ('id="unsanctioned"' in response.text) is unsanctioned


def test_unpublished_pairings_are_not_shown(client, event, paired_round):
    first = paired_round.matches.exclude(table=None).order_by("table").first()

    response = public(client, event)

    assert response.status_code == 200
    assert "Round 1 pairings" not in response.text
    assert 'id="pairings"' not in response.text
    assert first.team_a.name in response.text  # still listed as a registered team
    assert "BYE" not in response.text


def test_published_pairings_show_tables_players_primary_and_bye(client, event, published_round):
    matches = list(published_round.matches.select_related("team_a", "team_b").order_by("table"))
    played = [m for m in matches if m.team_b_id]
    bye = next(m for m in matches if m.team_b_id is None)

    response = public(client, event)

    assert response.status_code == 200
    assert "Round 1 pairings" in response.text
    rows = response.context["pairings"]["rows"]
    assert [row.table for row in rows] == [m.table for m in played] + [None]
    first = rows[0]
    assert first.side_a.team == played[0].team_a
    assert [(seat.player.name, seat.primary) for seat in first.side_a.seats] == [
        (p.name, p.position == 0) for p in played[0].team_a.players.all()
    ]
    assert first.side_a.match_points == 0
    assert rows[-1].side_a.team == bye.team_a and rows[-1].side_b is None
    assert '<span class="bye">BYE</span>' in response.text
    assert response.text.count(">PRIMARY</span>") == 7


def test_match_seats_decide_who_is_primary(client, event, published_round):
    match = published_round.matches.exclude(table=None).order_by("table").first()
    first, second = match.team_a.players.all()
    Match.objects.filter(pk=match.pk).update(seats={"A": [second.id, first.id]})

    response = public(client, event)

    side = response.context["pairings"]["rows"][0].side_a
    assert [(seat.player.name, seat.primary) for seat in side.seats] == [
        (second.name, True),
        (first.name, False),
    ]


def test_search_without_js_answers_with_the_players_table_seats_and_opponents(client, event, published_round):
    team = Team.objects.get(tournament=event, name="Team Turn")
    match = published_round.matches.select_related("team_a", "team_b").get(Q(team_a=team) | Q(team_b=team))
    opponent = match.team_b if match.team_a == team else match.team_a

    response = public(client, event, q="jade WU")

    found = response.context["pairings"]["found"]
    assert [item.row.table for item in found] == [match.table]
    assert response.context["pairings"]["rows"] == []  # the answer replaces the full list
    answer = response.text[response.text.index('id="find-results"') :]
    assert f'data-table="{match.table or ""}"' in answer  # the round's seed may give them the bye
    assert "Jade Wu" in answer and (opponent.name if opponent else "BYE") in answer
    line = next(line for line in standings_for(event) if line.team_id == team.pk)
    # Round 1 is not played yet: 0-0-0, unless the seed gave this team the bye (a win already).
    assert (line.wins, line.losses, line.draws) == ((1, 0, 0) if match.team_b is None else (0, 0, 0))
    assert f"Record {line.wins}-{line.losses}-{line.draws} · {line.match_points} MP" in answer
    assert 'value="jade WU"' in response.text
    assert "No player or team matches your search." not in response.text


def test_search_that_matches_nobody_says_so(client, event, published_round):
    response = public(client, event, q="Nobody Here")

    assert response.context["pairings"]["found"] == []
    assert '<p id="pairings-empty" class="muted">No player or team matches your search.</p>' in response.text


def test_standings_after_results_show_record_and_match_points(client, event, organizer, published_round):
    for match in published_round.matches.exclude(table=None):
        match_result_report(
            match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=match.version
        )

    response = public(client, event)

    standings = response.context["standings"]
    assert standings["round_number"] == 1
    assert sorted(row["match_points"] for row in standings["rows"]) == [0, 0, 0, 3, 3, 3, 3]
    assert "Standings after round 1" in response.text
    assert '<th class="num">Penalty</th>' not in response.text
    winner = published_round.matches.exclude(table=None).order_by("table").first().team_a
    row = next(row for row in standings["rows"] if row["team_id"] == winner.id)
    assert (row["wins"], row["losses"], row["draws"]) == (1, 0, 0)


def test_standings_wait_until_every_result_of_the_round_is_in(client, event, organizer, published_round):
    first, *others = published_round.matches.exclude(table=None).order_by("table")
    match_result_report(match=first, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=1)

    response = public(client, event)

    assert response.context["standings"] is None
    assert "Standings after" not in response.text


def test_penalty_column_appears_only_with_a_penalty(client, organizer):
    """At Competitive REL a decklist error found at a deck check is a one match point penalty."""
    event = build_event(organizer, TEAMS[:6], rel=Rel.COMPETITIVE)
    published_round = round_publish(round_row=round_pair(tournament=event, actor=organizer), actor=organizer)
    for match in published_round.matches.exclude(table=None):
        match_result_report(match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=1)
    penalised = published_round.matches.get(table=1).team_a
    penalty_issue(
        tournament=event,
        actor=organizer,
        player=penalised.players.first(),
        round_row=published_round,
        infraction="TE-DLP",
        description="decklist error found at a deck check",
        context={"found_during_deck_check": True},
    )

    response = public(client, event)

    row = next(row for row in response.context["standings"]["rows"] if row["team_id"] == penalised.id)
    assert (row["match_points"], row["penalty_points"]) == (2, -1)
    assert '<th class="num">Penalty</th>' in response.text
    assert '<td class="num">-1</td>' in response.text


def count_public_page_queries(client, organizer, teams) -> int:
    event = build_event(organizer, teams)
    published_round = round_publish(round_row=round_pair(tournament=event, actor=organizer), actor=organizer)
    for match in published_round.matches.exclude(table=None):
        match_result_report(match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=1)
    with CaptureQueriesContext(connection) as queries:
        assert public(client, event).status_code == 200
    return len(queries)


def test_public_page_queries_do_not_grow_with_the_tables(client, organizer):
    small = count_public_page_queries(client, organizer, TEAMS[:4])
    large = count_public_page_queries(client, organizer, TEAMS)

    assert large == small


def test_find_my_table_shows_the_readers_team_first_marked_you_and_no_rank_before_a_result(
    client, event, organizer, published_round
):
    match = (
        published_round.matches.exclude(table=None).select_related("team_a", "team_b").order_by("table")[0]
    )
    player_b = match.team_b.players.order_by("position").first()

    before = public(client, event, q=player_b.name).text
    answer = before[before.index('id="find-results"') : before.index("</ol>")]
    assert answer.index(match.team_b.name) < answer.index(match.team_a.name)
    assert answer.count('<span class="badge you">you</span>') == 1
    assert answer.index('class="badge you"') < answer.index(match.team_b.name)
    assert "rank" not in answer and "Record 0-0-0 · 0 MP" in answer

    match_result_report(match=match, actor=organizer, team_a_wins=0, team_b_wins=1, draws=0, version=1)
    after = public(client, event, q=player_b.name).text
    answer = after[after.index('id="find-results"') : after.index("</ol>")]
    line = next(line for line in standings_for(event) if line.team_id == match.team_b_id)
    assert f"Record 1-0-0 · 3 MP · rank {line.rank}" in answer
