"""The end of the event and the past on the web (issue 19): the winner and the final standings on
the public page, each published round's page, a team's page, dropped teams marked."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.factories import event_with_teams
from tournaments.models import Match, Round, Team, Tournament
from tournaments.read_models import final_standings
from tournaments.services.cut import cut_build
from tournaments.services.participation import team_drop
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair, round_publish

pytestmark = pytest.mark.django_db


def report(match: Match, actor, *, a_wins: bool) -> None:
    match.refresh_from_db()
    match_result_report(
        match=match,
        actor=actor,
        team_a_wins=1 if a_wins else 0,
        team_b_wins=0 if a_wins else 1,
        draws=0,
        version=match.version,
    )


def play_round(round_obj: Round, actor, *, a_wins=lambda match: True) -> Round:
    round_publish(round_row=round_obj, actor=actor)
    for match in round_obj.matches.exclude(team_b=None):
        report(match, actor, a_wins=a_wins(match))
    return round_obj


@pytest.fixture
def finished_event() -> Tournament:
    """Six teams, two Swiss rounds, a Top 4 played to the end; the final's team B wins."""
    tournament = event_with_teams(6, swiss_rounds=2, top_cut=4)
    organizer = tournament.created_by
    for _ in range(2):
        play_round(round_pair(tournament=tournament, actor=organizer), organizer)
    play_round(cut_build(tournament=tournament, actor=organizer), organizer)
    play_round(round_pair(tournament=tournament, actor=organizer), organizer, a_wins=lambda match: False)
    tournament.refresh_from_db()
    return tournament


def test_public_page_names_the_winner_and_shows_the_final_standings_and_bracket(client, finished_event):
    final = Round.objects.get(tournament=finished_event, number=4)
    final_match = final.matches.get()

    page = client.get(reverse("tournament-public", args=[finished_event.id]))

    assert page.status_code == 200
    assert finished_event.status == "finished"
    assert f"Winner: <strong>{final_match.team_b.name}</strong>" in page.text
    assert f"Finalist: <strong>{final_match.team_a.name}</strong>" in page.text
    shown = [row["team_name"] for row in page.context["final"]["rows"]]
    assert shown == [line.team_name for line in final_standings(finished_event, final)]
    assert shown[:2] == [final_match.team_b.name, final_match.team_a.name]
    assert "Round 4 pairings" not in page.text
    assert "Standings after round 2" not in page.text
    assert "Round 4: Final" in page.text and "Round 3: Semifinals" in page.text
    assert f"{final_match.team_b.name} won 1-0" in page.text


@pytest.mark.parametrize("first", ["en", "es", "ja"])
def test_the_bracket_reads_in_each_readers_language_whoever_asked_first(finished_event, first):
    """The page's parts kept for every reader of the event (its frame) must not keep one reader's
    language: the bracket's stages and results are in the language of whoever reads them."""
    final_match = (
        Round.objects.get(tournament=finished_event, number=4).matches.select_related("team_b").get()
    )
    winner = final_match.team_b.name
    expected = {
        "en": ("Round 4: Final", "Round 3: Semifinals", f"{winner} won 1-0"),
        "es": ("Ronda 4: Final", "Ronda 3: Semifinales", f"{winner} ganó 1-0"),
        "ja": ("第4ラウンド: 決勝", "第3ラウンド: 準決勝", f"{winner}の勝ち 1-0"),
    }
    url = reverse("tournament-public", args=[finished_event.id])
    for language in [first, *(other for other in expected if other != first)]:
        page = Client(headers={"accept-language": language}).get(url)
        bracket = page.text[page.text.index('id="bracket"') :]
        bracket = bracket[: bracket.index("</section>")]
        for text in expected[language]:
            assert text in bracket, (first, language, text)


def test_round_one_page_still_shows_its_results_after_the_final(client, finished_event):
    round_one = Round.objects.get(tournament=finished_event, number=1)

    page = client.get(reverse("tournament-round", args=[finished_event.id, 1]))

    assert page.status_code == 200
    for match in round_one.matches.exclude(team_b=None).select_related("team_a"):
        assert f"{match.team_a.name} won 1-0" in page.text
    assert "Standings after round 1" in page.text


def test_an_unpublished_round_page_is_a_404_for_the_public(client):
    tournament = event_with_teams(4, swiss_rounds=2, top_cut=0)
    round_pair(tournament=tournament, actor=tournament.created_by)

    response = client.get(reverse("tournament-round", args=[tournament.id, 1]))

    assert response.status_code == 404
    assert "Page not found" in response.text


def test_team_page_lists_its_matches_opponents_and_results(client, finished_event):
    final_match = (
        Round.objects.get(tournament=finished_event, number=4).matches.select_related("team_b").get()
    )
    winner = final_match.team_b

    page = client.get(reverse("tournament-team", args=[finished_event.id, winner.id]))

    assert page.status_code == 200
    rows = page.context["rows"]
    assert [row["match"].round.number for row in rows] == [1, 2, 3, 4]
    assert rows[-1]["verdict"] == "Win"
    assert rows[-1]["opponent"] == final_match.team_a


def test_a_team_page_reads_its_results_the_right_way_never_won_0_1(client, finished_event):
    """The final's team B won 0-1 in A-B order: its page reads "won 1-0", the loser's "lost 0-1"."""
    final_match = (
        Round.objects.get(tournament=finished_event, number=4)
        .matches.select_related("team_a", "team_b")
        .get()
    )
    winner, loser = final_match.team_b, final_match.team_a

    won = client.get(reverse("tournament-team", args=[finished_event.id, winner.id])).text
    lost = client.get(reverse("tournament-team", args=[finished_event.id, loser.id])).text

    assert f"{winner.name} won 1-0" in won and f"{loser.name} lost 0-1" in lost
    for page in (won, lost):
        assert "won 0-1" not in page and "lost 1-0" not in page


def test_a_dropped_team_is_marked_in_the_web_standings(client):
    tournament = event_with_teams(4, swiss_rounds=3, top_cut=0)
    organizer = tournament.created_by
    play_round(round_pair(tournament=tournament, actor=organizer), organizer)
    dropped = Team.objects.filter(tournament=tournament).order_by("id").first()
    team_drop(team=dropped, actor=organizer, reason="went home")

    page = client.get(reverse("tournament-public", args=[tournament.id]))

    row = next(row for row in page.context["standings"]["rows"] if row["team_id"] == dropped.id)
    assert row["dropped"] is True
    assert f'data-team-id="{dropped.id}" class="dropped"' in page.text
    assert page.text.count('<span class="badge dropped">dropped</span>') == 1


def test_the_players_page_shows_the_final_result_after_the_event(finished_event):
    final_match = (
        Round.objects.get(tournament=finished_event, number=4).matches.select_related("team_b").get()
    )
    user = UserFactory()
    player = final_match.team_b.players.first()
    player.user = user
    player.save(update_fields=["user"])
    client = Client()
    client.force_login(user)

    page = client.get(reverse("tournament-me", args=[finished_event.id]))

    assert "No published round yet" not in page.text
    assert "Your team won the event." in page.text
