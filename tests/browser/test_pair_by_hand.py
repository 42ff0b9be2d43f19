"""Issue 30 in Chromium: the organizer pairs round 1 by hand on a phone (390 px) with JavaScript
off, giving two byes (one in a table's row, one in the byes list), with a reason."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_accessibility import serious_violations, signed_in_page
from tests.browser.test_event_organizer import log_in
from tests.factories import UserFactory
from tests.tournaments.factories import event_with_teams
from tournaments.models import AuditEntry, Round, Team
from tournaments.standings import standings_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_round_paired_by_hand_at_phone_width_without_javascript_with_two_byes(live_server, browser):
    organizer = UserFactory(username="pairer")
    tournament = event_with_teams(6, organizer=organizer, swiss_rounds=3)
    page = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False).new_page()
    log_in(page, live_server, "pairer", f"/events/{tournament.pk}/manage/")

    with page.expect_navigation():
        page.click("#pair-by-hand")
    expect(page.locator("h1")).to_have_text("Pair round 1 by hand")
    expect(page.locator("fieldset.pair-row")).to_have_count(5)  # three tables proposed, two empty rows
    moved = page.locator("#table-3-b").input_value()
    page.select_option("#table-3-b", "")  # "— bye —"
    page.select_option("#byes", [moved])
    page.fill("#reason", "Two teams arrived after the round began")
    page.screenshot(path="/tmp/i30-pair-by-hand-390.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    with page.expect_navigation():
        page.click("#pair-by-hand-submit")

    expect(page.locator(".messages")).to_contain_text("Round 1 paired by hand.")
    page.screenshot(path="/tmp/i30-pair-by-hand-done-390.png", full_page=True)
    round_obj = Round.objects.get(tournament=tournament, number=1)
    byes = {m.team_a_id for m in round_obj.matches.filter(team_b__isnull=True)}
    assert len(byes) == 2 and int(moved) in byes
    points = {line.team_id: line.match_points for line in standings_for(tournament)}
    assert [points[team] for team in byes] == [3, 3]
    assert (
        AuditEntry.objects.get(action="round_pair_manual").reason == "Two teams arrived after the round began"
    )
    names = dict(Team.objects.filter(pk__in=byes).values_list("pk", "name"))
    for name in names.values():
        expect(page.locator("main")).to_contain_text(name)


def test_a_refusal_at_phone_width_names_the_table_and_the_team(live_server, browser):
    organizer = UserFactory(username="pairer2")
    tournament = event_with_teams(6, organizer=organizer, swiss_rounds=3)
    page = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False).new_page()
    log_in(page, live_server, "pairer2", f"/events/{tournament.pk}/rounds/by-hand/")
    first = page.locator("#table-1-a").input_value()
    page.select_option("#table-2-a", first)
    page.fill("#reason", "Seating")

    with page.expect_navigation():
        page.click("#pair-by-hand-submit")

    name = Team.objects.get(pk=first).name
    expect(page.locator("#pairing-refused")).to_contain_text("The pairing was not saved")
    expect(page.locator("#table-2-problems")).to_contain_text(f"{name} is paired twice")
    page.locator("#table-2").screenshot(path="/tmp/i30-pair-by-hand-refused-390.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert not Round.objects.filter(tournament=tournament).exists()


def test_axe_finds_no_serious_violation_on_the_page_or_its_refusal_in_japanese(live_server, browser):
    tournament = event_with_teams(5, swiss_rounds=3)
    page = signed_in_page(browser, live_server, tournament.created_by, bypass_csp=True)
    page.goto(f"{live_server.url}/events/{tournament.pk}/rounds/by-hand/")
    expect(page.locator("h1")).to_have_text("第1ラウンドを手動で組む")
    assert serious_violations(page) == []
    with page.expect_navigation():
        page.click("#pair-by-hand-submit")  # no reason: refused
    expect(page.locator("#reason-problem")).to_be_visible()
    assert serious_violations(page) == []
