"""One source for the standings' tiebreaker columns: the public page, the printed standings and the
API show the event's own tiebreakers after match points, in its order, with the same values.

An individual event ranked by match points, OMW%, GW% and OGW% printed GW% and OGW% but its page
showed only OMW% (the template hard-coded the column)."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from documents.models import DocumentJob
from documents.services import document_render
from tests.documents.conftest import pages_text, pdf_of
from tests.tournaments.factories import event_with_teams
from tournaments.models import Match, Round, Tournament
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair, round_publish
from tournaments.standings import standings_for

pytestmark = pytest.mark.django_db

#: Games won by team A and team B at each table of round 1, best of three: GW% tells them apart.
SCORES = [(2, 0), (2, 1), (1, 2)]


def play_first_round(tournament: Tournament) -> Round:
    organizer = tournament.created_by
    round_obj = round_pair(tournament=tournament, actor=organizer)
    round_publish(round_row=round_obj, actor=organizer)
    matches = round_obj.matches.exclude(team_b=None).order_by("table")
    for match, (a_wins, b_wins) in zip(matches, SCORES, strict=True):
        match_result_report(
            match=match,
            actor=organizer,
            team_a_wins=a_wins,
            team_b_wins=b_wins,
            draws=0,
            version=match.version,
        )
    round_obj.refresh_from_db()
    assert round_obj.finished_at is not None
    return round_obj


def page_table(html: str) -> tuple[list[str], dict[int, list[str]]]:
    """The standings table's headings, and each team's tiebreaker cells by team id, in rank order."""
    table = html[html.index('<table id="standings">') : html.index("</table>")]
    headings = [unescape(h) for h in re.findall(r"<th[^>]*>([^<]*)</th>", table)]
    cells = {
        int(team): re.findall(r'<td class="num tb-\w+">([^<]*)</td>', row)
        for team, row in re.findall(r'<tr data-team-id="(\d+)"[^>]*>(.*?)</tr>', table, re.S)
    }
    return headings, cells


def printed_standings(round_obj: Round) -> str:
    job = DocumentJob.objects.create(
        kind="standings", tournament=round_obj.tournament, round=round_obj, paper="A4"
    )
    document_render(job_id=job.id)
    return " ".join(" ".join(pages_text(pdf_of(job))).split())


def test_an_individual_event_shows_gw_and_ogw_on_its_standings_page_as_printed():
    tournament = event_with_teams(
        6,
        name="Thursday Modern",
        team_size=1,
        swiss_rounds=3,
        tiebreakers=["match_points", "omw", "gw", "ogw"],
    )
    round_obj = play_first_round(tournament)
    lines = standings_for(tournament, through_round=1)

    page = Client().get(reverse("tournament-standings", args=[tournament.id]))
    headings, cells = page_table(page.content.decode())
    printed = printed_standings(round_obj)

    assert page.status_code == 200
    assert headings[-3:] == ["OMW%", "GW%", "OGW%"]
    assert "OMW% GW% OGW%" in printed
    expected = {line.team_id: [f"{v * 100:.2f}" for v in (line.omw, line.gw, line.ogw)] for line in lines}
    assert cells == expected
    # Round 1 of 2-0, 2-1, 1-2: game-win percentages 100, 66.67 and 33.33 (the 1/3 floor) on both.
    assert {values[1] for values in cells.values()} == {"100.00", "66.67", "33.33"}
    # The PDF prints each column as one block, rows in rank order, as the page lists them.
    for column in range(3):
        assert " ".join(values[column] for values in cells.values()) in printed


def test_a_2hg_event_shows_only_omw_after_match_points():
    tournament = event_with_teams(6, swiss_rounds=3)
    round_obj = play_first_round_2hg(tournament)

    page = Client().get(reverse("tournament-standings", args=[tournament.id]))
    headings, cells = page_table(page.content.decode())
    printed = printed_standings(round_obj)

    assert headings[-2:] == ["MP", "OMW%"]
    assert all(len(values) == 1 for values in cells.values())
    assert "OMW%" in printed and "GW%" not in printed


def test_the_api_lists_the_event_tiebreaker_columns_in_its_order():
    tournament = event_with_teams(6, team_size=1, swiss_rounds=3, tiebreakers=["match_points", "ogw", "omw"])
    play_first_round(tournament)
    url = f"/api/v1/tournaments/{tournament.id}/standings/"

    rows = Client().get(url).json()

    assert [[(c["name"], c["label"]) for c in row["tiebreakers"]] for row in rows] == [
        [("ogw", "OGW%"), ("omw", "OMW%")]
    ] * 6
    assert [c["value"] for c in rows[0]["tiebreakers"]] == [rows[0]["ogw"], rows[0]["omw"]]


def play_first_round_2hg(tournament: Tournament) -> Round:
    organizer = tournament.created_by
    round_obj = round_pair(tournament=tournament, actor=organizer)
    round_publish(round_row=round_obj, actor=organizer)
    for match in Match.objects.filter(round=round_obj).exclude(team_b=None):
        match_result_report(
            match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=match.version
        )
    round_obj.refresh_from_db()
    return round_obj
