"""Issue 15: players report their result on a 390 px phone, with and without JavaScript; the other
team confirms; only then do the standings move; different reports show as disputed to staff."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_event_organizer import log_in
from tests.factories import UserFactory
from tests.tournaments.pages.builders import TEAMS, build_event
from tournaments.models import Match, Player
from tournaments.services.rounds import round_pair, round_publish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def two_tables():
    """Eight teams, round 1 published; one player with an account on each side of tables 1 and 2."""
    organizer = UserFactory(username="orga")
    event = build_event(organizer, TEAMS[:8])
    round_one = round_publish(round_row=round_pair(tournament=event, actor=organizer), actor=organizer)
    players = {}
    for table in (1, 2):
        match = Match.objects.select_related("team_a", "team_b").get(round=round_one, table=table)
        for side, team in (("a", match.team_a), ("b", match.team_b)):
            player = Player.objects.filter(team=team).order_by("position").first()
            player.user = UserFactory(username=f"t{table}{side}")
            player.save(update_fields=["user"])
        players[table] = match
    return event, players


def phone(browser, live_server, username: str, path: str, *, javascript: bool):
    context = browser.new_context(viewport=PHONE, java_script_enabled=javascript)
    page = context.new_page()
    log_in(page, live_server, username, path)
    return page


@pytest.mark.parametrize("javascript", [False, True], ids=["js-off", "js-on"])
def test_we_won_counts_once_the_other_team_confirms_and_a_conflict_is_disputed(
    live_server, browser, javascript
):
    event, tables = two_tables()
    me = f"/events/{event.id}/me/"
    match = tables[1]
    a = phone(browser, live_server, "t1a", me, javascript=javascript)
    b = phone(browser, live_server, "t1b", me, javascript=javascript)

    form = a.locator(f'form[data-report-match-id="{match.id}"]')
    if javascript:
        form.get_by_role("button", name="We won").click()
    else:
        with a.expect_navigation():
            form.get_by_role("button", name="We won").click()
    expect(a.locator("#report-state")).to_contain_text("Waiting for")
    expect(a.locator("#my-record")).to_contain_text("no results yet")  # a report alone counts nothing
    a.screenshot(path=f"/tmp/me-report-waiting-{'js' if javascript else 'nojs'}.png", full_page=True)
    assert a.evaluate("document.documentElement.scrollWidth") <= 390

    if not javascript:
        b.reload()
    # With JavaScript the block polls: the other team's report appears without a reload.
    expect(b.locator("#report-state")).to_contain_text(f"{match.team_a.name} won", timeout=15_000)
    confirm = b.locator("#report-confirm")
    expect(confirm).to_have_text(f"Confirm: {match.team_a.name} won")
    b.screenshot(path=f"/tmp/me-report-confirm-{'js' if javascript else 'nojs'}.png", full_page=True)
    if javascript:
        confirm.click()
    else:
        with b.expect_navigation():
            confirm.click()
    expect(b.locator("#report-state")).to_contain_text("Confirmed")

    if not javascript:
        a.reload()
    expect(a.locator("#report-state")).to_contain_text("Confirmed", timeout=15_000)
    a.reload()
    expect(a.locator("#my-record")).to_contain_text("1-0-0, 3 MP")

    # Table 2: both teams say they won.
    other = tables[2]
    for username in ("t2a", "t2b"):
        page = phone(browser, live_server, username, me, javascript=javascript)
        button = page.locator(f'form[data-report-match-id="{other.id}"]').get_by_role("button", name="We won")
        if javascript:
            button.click()
        else:
            with page.expect_navigation():
                button.click()
    expect(page.locator("#report-state")).to_contain_text("A judge will come to your table")
    page.screenshot(path=f"/tmp/me-report-disputed-{'js' if javascript else 'nojs'}.png", full_page=True)
    staff = phone(browser, live_server, "orga", f"/events/{event.id}/manage/", javascript=javascript)
    expect(staff.locator("#results-states")).to_contain_text("Disputed: table 2")
    expect(staff.locator(f'form[data-match-id="{other.id}"]')).to_have_attribute(
        "data-result-state", "disputed"
    )
