"""Players report their match on their own page; the other team confirms; staff settle disputes."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.pages.builders import client_for
from tournaments.models import AuditEntry, Match, Player, ResultReport, Tournament
from tournaments.services.results import match_penalty_result_clear, match_penalty_result_set
from tournaments.standings import standings_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(event, published_round):
    """Table 1 of round 1, with one logged-in player on each team."""
    match = Match.objects.filter(round=published_round, table=1).select_related("team_a", "team_b").get()
    players = {}
    for side, team in (("A", match.team_a), ("B", match.team_b)):
        player = Player.objects.filter(team=team).order_by("position").first()
        player.user = UserFactory()
        player.save(update_fields=["user"])
        players[side] = client_for(player.user)
    return match, players


def report_url(match):
    return reverse("tournament-me-report", args=[match.round.tournament_id, match.id])


def post(client, match, result, version, **extra):
    return client.post(report_url(match), {"result": result, "version": version, **extra})


def points(match, team_id):
    row = next(
        r for r in standings_for(Tournament.objects.get(pk=match.round.tournament_id)) if r.team_id == team_id
    )
    return row.match_points


def test_the_player_page_shows_the_report_form_for_the_current_match(event, table):
    match, players = table
    page = players["A"].get(reverse("tournament-me", args=[event.id]))
    assert f'data-report-match-id="{match.id}"' in page.text
    assert 'name="result" value="ours"' in page.text and 'name="result" value="theirs"' in page.text
    assert "No result yet" in page.text


def test_a_report_counts_only_once_the_other_team_confirms_it(event, table):
    match, players = table
    before = points(match, match.team_a_id)

    sent = post(players["A"], match, "ours", 1)

    assert sent.status_code == 302 and sent.url.endswith("#me-report")
    assert points(match, match.team_a_id) == before
    waiting = players["A"].get(reverse("tournament-me", args=[event.id]))
    assert "Waiting for" in waiting.text and f"{match.team_a.name} won" in waiting.text
    other = players["B"].get(reverse("tournament-me", args=[event.id]))
    assert f"{match.team_a.name} reported: {match.team_a.name} won" in other.text
    assert (
        'id="report-confirm"' in other.text
        and 'name="result" value="theirs" class="big confirm"' in other.text
    )

    confirmed = post(players["B"], match, "theirs", 2)

    assert confirmed.status_code == 302
    assert points(match, match.team_a_id) == before + 3
    row = Match.objects.get(pk=match.pk)
    assert (row.confirmed, row.team_a_wins, row.team_b_wins) == (True, 1, 0)
    assert "Confirmed" in players["A"].get(reverse("tournament-me", args=[event.id])).text


def test_different_reports_are_disputed_and_staff_settle_them_with_both_reports_audited(
    event, table, organizer_client
):
    match, players = table
    post(players["A"], match, "ours", 1)
    post(players["B"], match, "ours", 2)

    page = players["B"].get(reverse("tournament-me", args=[event.id]))
    assert "a judge will come to your table" in page.text.lower()
    manage = organizer_client.get(reverse("tournament-manage", args=[event.id]))
    assert f'data-result-state="disputed" data-match-id="{match.id}"' in manage.text
    assert "Disputed: table 1" in manage.text

    decided = organizer_client.post(
        reverse("tournament-match-result", args=[event.id, match.id]), {"result": "b", "version": 3}
    )

    assert decided.status_code == 302
    entry = AuditEntry.objects.get(action="match_result_decide")
    assert [(r["side"], r["result"]) for r in entry.before["reports"]] == [("A", "1-0-0"), ("B", "0-1-0")]
    assert Match.objects.get(pk=match.pk).confirmed


def test_a_draw_is_a_time_draw_or_an_intentional_draw(table):
    match, players = table
    post(players["A"], match, "draw", 1, draw_kind="intentional")
    post(players["B"], match, "draw", 2, draw_kind="intentional")
    row = Match.objects.get(pk=match.pk)
    assert (row.confirmed, row.team_a_wins, row.team_b_wins, row.draws) == (True, 0, 0, 3)


def test_a_stale_report_answers_409_on_the_page_and_saves_nothing(event, table):
    match, players = table
    post(players["A"], match, "ours", 1)
    stale = post(players["B"], match, "ours", 1)
    assert stale.status_code == 409
    assert "The result changed while you were looking" in stale.text
    assert ResultReport.objects.filter(match=match).count() == 1


def test_with_htmx_the_block_is_swapped_and_the_poll_answers_204_until_the_match_changes(table):
    match, players = table
    htmx = {"HTTP_HX_REQUEST": "true"}
    unchanged = players["B"].get(report_url(match) + "?v=1", **htmx)
    assert unchanged.status_code == 204
    sent = players["A"].post(report_url(match), {"result": "theirs", "version": 1}, **htmx)
    assert sent.status_code == 200 and 'id="me-report"' in sent.text and "Result sent." in sent.text
    changed = players["B"].get(report_url(match) + "?v=1", **htmx)
    assert changed.status_code == 200
    assert f"{match.team_a.name} reported: {match.team_b.name} won" in changed.text


def test_when_player_reporting_is_off_players_hand_in_slips(event, table):
    match, players = table
    Tournament.objects.filter(pk=event.pk).update(player_reporting=False)
    page = players["A"].get(reverse("tournament-me", args=[event.id]))
    assert "data-report-match-id" not in page.text
    assert "Hand in your result slip" in page.text
    refused = post(players["A"], match, "ours", 1)
    assert refused.status_code == 403
    assert not ResultReport.objects.filter(match=match).exists()


def test_a_player_cannot_report_another_tables_match(event, table, published_round):
    _, players = table
    other = Match.objects.filter(round=published_round, table=2).get()
    assert post(players["A"], other, "ours", 1).status_code == 403


def test_a_report_a_cleared_penalty_gave_back_is_shown_again(event, table):
    """A penalty set and cleared leaves the teams' reports standing (result_state); the page named
    the state ("waiting") but had forgotten the report at the penalty: "You reported: ." """
    match, players = table
    assert post(players["A"], match, "ours", 1).status_code == 302
    match = Match.objects.get(pk=match.pk)
    match = match_penalty_result_set(
        match=match, actor=event.created_by, losing_team_id=match.team_b_id, reason="TE-DLP upgraded"
    )
    match_penalty_result_clear(match=match, actor=event.created_by, reason="appeal upheld")

    page = players["A"].get(reverse("tournament-me", args=[event.id]))
    theirs = players["B"].get(reverse("tournament-me", args=[event.id]))

    assert f"You reported: {match.team_a.name} won." in page.text
    assert f"{match.team_a.name} reported: {match.team_a.name} won. Confirm it" in theirs.text
