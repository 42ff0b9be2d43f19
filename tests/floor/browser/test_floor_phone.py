"""Phones at 390 px: a player's call reaches two judges live, the first claim wins and the second
judge sees it taken; a zone's console shows only its tables, the first to run out on top."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from clock.services import time_extension_grant
from floor.services.zones import zone_create
from tests.floor.conftest import build_floor_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def phone(browser, live_server, user):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    return context.new_page()


def test_a_players_call_reaches_two_judges_and_the_first_claim_wins(live_server, browser):
    ev = build_floor_event()
    player = phone(browser, live_server, ev.players[0])
    first = phone(browser, live_server, ev.judge)
    second = phone(browser, live_server, ev.other_judge)
    queue = f"{live_server.url}/events/{ev.tournament.pk}/floor/calls/"
    for judge in (first, second):
        judge.goto(queue)
        expect(judge.locator("#no-calls")).to_be_visible()

    player.goto(f"{live_server.url}/events/{ev.tournament.pk}/me/")
    player.fill("#judge-call-reason", "is the trigger mandatory?")
    player.get_by_role("button", name="Call a judge").click()
    expect(player.locator("#judge-call")).to_contain_text("waiting for a judge")

    for judge in (first, second):  # no reload: the queue refreshes itself
        card = judge.locator("#live-calls article", has_text="Table 1")
        expect(card).to_contain_text("is the trigger mandatory?", timeout=12_000)
        expect(card).to_contain_text("Waiting for a judge")
    second.screenshot(path="/tmp/floor_calls_two_judges.png", full_page=True)

    first.locator("#live-calls article", has_text="Table 1").get_by_role("button", name="Claim").click()
    expect(first.locator("#call-status")).to_contain_text(f"Claimed by {ev.judge.username}")

    taken = second.locator("#live-calls article", has_text="Table 1")
    expect(taken).to_contain_text(f"Claimed by {ev.judge.username}", timeout=12_000)
    expect(taken.get_by_role("button", name="Claim")).to_have_count(0)
    expect(player.locator("#judge-call")).to_contain_text("A judge is on the way to table 1.", timeout=12_000)
    assert second.evaluate("document.documentElement.scrollWidth") <= 390
    second.screenshot(path="/tmp/floor_calls_taken.png", full_page=True)
    player.screenshot(path="/tmp/floor_player_on_the_way.png", full_page=True)


def test_a_stale_claim_is_refused_with_the_judge_who_has_it(live_server, browser):
    ev = build_floor_event()
    from floor.services.calls import judge_call_claim, judge_call_raise

    call = judge_call_raise(tournament=ev.tournament, match=ev.matches[2], actor=ev.players[4])
    second = phone(browser, live_server, ev.other_judge)
    second.goto(f"{live_server.url}/events/{ev.tournament.pk}/floor/calls/{call.pk}/")
    judge_call_claim(call=call, actor=ev.judge)  # the first judge got there while this page was open
    second.get_by_role("button", name="Claim").click()
    expect(second.locator(".messages")).to_contain_text(f"claimed by {ev.judge.username}")


def test_a_zone_shows_only_its_tables_ordered_by_their_end(live_server, browser):
    ev = build_floor_event()
    zone_create(
        tournament=ev.tournament,
        actor=ev.organizer,
        name="Front",
        first_table=1,
        last_table=3,
        judges=[ev.judge.username],
    )
    zone_create(tournament=ev.tournament, actor=ev.organizer, name="Back", first_table=4, last_table=4)
    time_extension_grant(match=ev.matches[0], actor=ev.judge, minutes=9, reason="deck check")
    time_extension_grant(match=ev.matches[2], actor=ev.judge, minutes=3, reason="ruling")
    page = phone(browser, live_server, ev.judge)
    page.goto(f"{live_server.url}/events/{ev.tournament.pk}/floor/end-of-round/")
    expect(page.locator("h1")).to_contain_text("Front")
    rows = page.locator("#zone-tables li[data-table]")
    expect(rows).to_have_count(3)
    assert [rows.nth(i).get_attribute("data-table") for i in range(3)] == ["2", "3", "1"]
    expect(rows.nth(2)).to_contain_text("+9 min")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="/tmp/floor_zone_console.png", full_page=True)
    page.select_option("#console-zone", label="Back (4–4)")
    page.get_by_role("button", name="Show").click()
    expect(page.locator("#zone-tables li[data-table]")).to_have_count(1)
    expect(page.locator("#zone-tables li[data-table]")).to_have_attribute("data-table", "4")
