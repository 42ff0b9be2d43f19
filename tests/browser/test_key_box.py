"""Issue 30 in Chromium: on a confirmed table the manage page's Key box asks for a reason to change
the result and keeps the scorekeeper's choice while it asks, so the reason and Enter save that
choice; a playoff row's Key box takes no draw key."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_event_organizer import log_in
from tests.factories import UserFactory
from tests.tournaments.pages.builders import TEAMS, build_event
from tournaments.models import Match
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair, round_publish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_key_box_keeps_the_chosen_result_while_it_asks_for_the_reason(live_server, page):
    organizer = UserFactory(username="orga")
    event = build_event(organizer, TEAMS[:8])
    round_one = round_publish(round_row=round_pair(tournament=event, actor=organizer), actor=organizer)
    match = Match.objects.get(round=round_one, table=1)
    match_result_report(match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=1)
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server, "orga", f"/events/{event.id}/manage/")
    row = page.locator(f"#result-{match.id}")

    row.locator("input.key").fill("")
    row.locator("input.key").press("2")
    row.locator("input.key").press("Enter")

    row = page.locator(f"#result-{match.id}")
    expect(row.locator(".row-message")).to_contain_text("give a reason to change it")
    expect(row.locator("select[name=result]")).to_have_value("b")
    expect(row.locator("input.key")).to_have_value("2")
    expect(row.locator("input[name=reason]")).to_be_focused()
    page.screenshot(path="/tmp/i30-key-box-390.png", full_page=False)
    row.locator("input[name=reason]").fill("slip misread")
    row.locator("input[name=reason]").press("Enter")
    expect(page.locator(f"#result-{match.id} .row-message")).to_contain_text("Saved 0-1-0")
    saved = Match.objects.get(pk=match.pk)
    assert (saved.team_a_wins, saved.team_b_wins, saved.confirmed) == (0, 1, True)


def test_without_javascript_the_row_keeps_the_chosen_result_while_it_asks_for_the_reason(
    live_server, browser
):
    """With JavaScript off the Key box is hidden and the select is the control: the refused change
    comes back as a page whose row still has the chosen result, so the reason and Save save it."""
    organizer = UserFactory(username="orga")
    event = build_event(organizer, TEAMS[:8])
    round_one = round_publish(round_row=round_pair(tournament=event, actor=organizer), actor=organizer)
    match = Match.objects.get(round=round_one, table=1)
    match_result_report(match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=1)
    page = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False).new_page()
    log_in(page, live_server, "orga", f"/events/{event.id}/manage/")
    row = page.locator(f"#result-{match.id}")
    expect(row.locator("input.key")).to_be_hidden()

    row.locator("select[name=result]").select_option("b")
    with page.expect_navigation():
        row.get_by_role("button", name="Save").click()

    row = page.locator(f"#result-{match.id}")
    expect(row.locator(".row-message")).to_contain_text("give a reason to change it")
    expect(row.locator("select[name=result]")).to_have_value("b")
    row.locator("input[name=reason]").fill("slip misread")
    with page.expect_navigation():
        row.get_by_role("button", name="Save").click()
    saved = Match.objects.get(pk=match.pk)
    assert (saved.team_a_wins, saved.team_b_wins, saved.confirmed) == (0, 1, True)
