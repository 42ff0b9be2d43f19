"""The organizer's path in a real browser: log in, pair, publish, key in every result, read the standings."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.tournaments.pages.builders import TEAMS, build_event
from tournaments.models import Match, Round
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair, round_publish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Key typed per table, and the match points it gives (left team, right team).
KEYS = {1: ("1", 3, 0), 2: ("2", 0, 3), 3: ("d", 1, 1), 4: ("i", 1, 1)}
GAMES = {"1": (1, 0, 0), "2": (0, 1, 0), "d": (0, 0, 1), "i": (0, 0, 3)}


def log_in(page, live_server, username: str, next_path: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/?next={next_path}")
    page.fill("#id_username", username)
    page.fill("#id_password", DEFAULT_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}{next_path}")


def test_organizer_pairs_publishes_keys_results_and_public_standings_match(live_server, page):
    organizer = UserFactory(username="orga")
    event = build_event(organizer, TEAMS)  # nine teams: four tables and a bye
    manage = f"/events/{event.id}/manage/"

    log_in(page, live_server, "orga", manage)
    with page.expect_navigation():
        page.click("#pair-round")
    expect(page.locator(".messages")).to_contain_text("Round 1 paired. Check it, then publish it.")
    with page.expect_navigation():
        page.click("#publish-round")
    expect(page.locator(".messages")).to_contain_text("Round 1 published")
    expect(page.locator("#results-count")).to_have_text("0 of 4 reported")

    page.locator("#results-grid input.key").first.focus()
    for table in (1, 2, 3, 4):
        row = page.locator(f'#results-grid form.result-row:has(.table-no:text-is("{table}"))')
        expect(row.locator("input.key")).to_be_focused()
        page.keyboard.press(KEYS[table][0])
        page.keyboard.press("Enter")
        a_wins, b_wins, draws = GAMES[KEYS[table][0]]
        # The last result finishes the round, and embedded mode renders the standings PDF inside
        # that request: seconds on a loaded machine, past expect's 5 s default.
        expect(row.locator(".row-message")).to_have_text(f"Saved {a_wins}-{b_wins}-{draws}", timeout=30_000)
        expect(row.locator(".row-status")).to_have_text("Reported by orga, confirmed")
    expect(page.locator("#results-count")).to_have_text("4 of 4 reported")

    matches = Match.objects.filter(round__tournament=event).select_related("team_a", "team_b")
    expected = {}
    for match in matches:
        if match.team_b is None:
            expected[match.team_a.name] = 3
            continue
        assert (match.team_a_wins, match.team_b_wins, match.draws) == GAMES[KEYS[match.table][0]]
        expected[match.team_a.name] = KEYS[match.table][1]
        expected[match.team_b.name] = KEYS[match.table][2]
    assert Round.objects.get(tournament=event, number=1).phase == "finished"

    page.goto(f"{live_server.url}/events/{event.id}/")
    expect(page.locator("h2", has_text="Standings after round 1")).to_be_visible()
    shown = {
        row.locator(".team-name").inner_text(): int(row.locator("td.mp").inner_text())
        for row in page.locator("#standings tbody tr").all()
    }
    assert shown == expected
    assert sorted(shown.values()) == [0, 0, 1, 1, 1, 1, 3, 3, 3]


def test_stale_row_shows_the_current_result_and_a_message(live_server, page):
    organizer = UserFactory(username="orga")
    event = build_event(organizer, TEAMS[:8])
    manage = f"/events/{event.id}/manage/"
    log_in(page, live_server, "orga", manage)
    with page.expect_navigation():
        page.click("#pair-round")
    with page.expect_navigation():
        page.click("#publish-round")
    first = Match.objects.get(round__tournament=event, table=1)
    match_result_report(match=first, actor=organizer, team_a_wins=0, team_b_wins=1, draws=0, version=1)

    row = page.locator('#results-grid form.result-row:has(.table-no:text-is("1"))')
    row.locator("input.key").focus()
    page.keyboard.press("1")
    page.keyboard.press("Enter")

    expect(row.locator(".row-message")).to_have_text(
        "Someone else changed this result: it is now 0-1-0. Check it, then save again."
    )
    expect(row.locator("select[name=result]")).to_have_value("b")
    expect(row.locator("input[name=version]")).to_have_value("2")
    first.refresh_from_db()
    assert (first.team_a_wins, first.team_b_wins) == (0, 1)


def test_manage_page_fits_a_phone(live_server, page):
    organizer = UserFactory(username="orga")
    event = build_event(organizer, TEAMS[:7])
    page.set_viewport_size({"width": 375, "height": 812})
    log_in(page, live_server, "orga", f"/events/{event.id}/manage/")
    with page.expect_navigation():
        page.click("#pair-round")
    with page.expect_navigation():
        page.click("#publish-round")

    page.screenshot(path="/tmp/manage-375.png", full_page=True)

    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def test_results_entered_with_javascript_off_change_the_standings(live_server, browser):
    """Issue 14: the manage page's per-table forms work with JavaScript disabled."""
    organizer = UserFactory(username="orga")
    event = build_event(organizer, TEAMS[:8])
    round_one = round_publish(round_row=round_pair(tournament=event, actor=organizer), actor=organizer)
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    log_in(page, live_server, "orga", f"/events/{event.id}/manage/")

    for match in round_one.matches.order_by("table"):
        form = page.locator(f'form[data-match-id="{match.id}"]')
        form.locator("select[name=result]").select_option("a" if match.table % 2 else "draw")
        with page.expect_navigation():
            form.locator("button[type=submit]").click()
        expect(page.locator(".messages")).to_contain_text(f"Table {match.table}: Saved")

    expect(page.locator("#results-count")).to_have_text("4 of 4 reported")
    page.goto(f"{live_server.url}/events/{event.id}/")
    shown = sorted(int(cell.inner_text()) for cell in page.locator("#standings td.mp").all())
    assert shown == [0, 0, 1, 1, 1, 1, 3, 3]
    context.close()
