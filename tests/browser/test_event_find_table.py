"""A player on a phone finds their table on the public page by typing their name."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import UserFactory
from tests.tournaments.pages.builders import TEAMS, build_event
from tournaments.models import Match
from tournaments.services.rounds import round_pair, round_publish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_typing_a_name_leaves_only_that_teams_table(live_server, page):
    organizer = UserFactory()
    event = build_event(organizer, TEAMS)
    published = round_publish(round_row=round_pair(tournament=event, actor=organizer), actor=organizer)
    match = Match.objects.select_related("team_b").get(round=published, table=2)
    secondary = match.team_b.players.order_by("position").last()
    page.set_viewport_size({"width": 390, "height": 844})

    page.goto(f"{live_server.url}/events/{event.id}/")
    rows = page.locator("#pairings tbody tr")
    expect(rows).to_have_count(5)
    page.locator("#pairing-search").press_sequentially(secondary.name.lower())

    visible = page.locator("#pairings tbody tr:visible")
    expect(visible).to_have_count(1)
    expect(visible.locator("td.table-no")).to_have_text("2")
    expect(visible).to_contain_text(secondary.name)
    expect(visible).to_contain_text(match.team_b.name)
    expect(page.locator("#pairings-empty")).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    page.locator("#pairing-search").fill("zzz")
    expect(page.locator("#pairings tbody tr:visible")).to_have_count(0)
    expect(page.locator("#pairings-empty")).to_be_visible()


@pytest.mark.parametrize("javascript", [True, False], ids=["js-on", "js-off"])
def test_a_player_on_the_stored_page_switches_it_to_japanese(live_server, browser, javascript):
    """The public page a hall of phones reads is stored bytes (no CSRF token of anyone's): a player
    with no cookie yet still switches its language, and then reads the stored Japanese page."""
    organizer = UserFactory()
    event = build_event(organizer, TEAMS)
    round_publish(round_row=round_pair(tournament=event, actor=organizer), actor=organizer)
    url = f"{live_server.url}/events/{event.id}/"
    first = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    first.goto(url)  # the first reader stores the page
    page = browser.new_context(
        viewport={"width": 390, "height": 844}, java_script_enabled=javascript
    ).new_page()
    page.goto(url)

    page.select_option("#language-select", "ja")
    with page.expect_navigation():
        page.locator(".language-switcher input[type=submit]").click()

    assert page.url == url
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator("#pairing-search")).to_be_visible()
    page.screenshot(path=f"/tmp/public-ja-{'js' if javascript else 'nojs'}.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
