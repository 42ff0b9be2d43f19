"""An individual event's standings on a phone: the event's four tiebreakers as columns, as printed,
and the page still 390 px wide (the table scrolls inside its frame, not the page)."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from tests.tournaments.factories import event_with_teams
from tests.tournaments.pages.test_standings_columns import play_first_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_individual_events_standings_show_its_tiebreakers_at_phone_width(live_server, page):
    tournament = event_with_teams(
        6,
        name="Thursday Modern",
        team_size=1,
        swiss_rounds=3,
        tiebreakers=["match_points", "omw", "gw", "ogw"],
    )
    play_first_round(tournament)
    page.set_viewport_size({"width": 390, "height": 844})

    page.goto(f"{live_server.url}/events/{tournament.id}/standings/")

    headings = page.locator("#standings thead th:visible")
    expect(headings).to_contain_text(["Rank", "Team", "Record", "MP", "OMW%", "GW%", "OGW%"])
    expect(page.locator("#standings tbody tr")).to_have_count(6)
    expect(page.locator("#standings td.tb-gw").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    if shots := os.environ.get("SCREENSHOT_DIR"):
        page.screenshot(path=f"{shots}/standings-individual-390.png", full_page=True)
