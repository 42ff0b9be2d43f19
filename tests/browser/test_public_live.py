"""Open public pages follow the event without a reload: a result confirmed at the scorekeepers'
table shows on a player's phone within seconds (public_live.js polls the event's generation)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_event_organizer import log_in
from tests.factories import UserFactory
from tests.tournaments.pages.builders import TEAMS, build_event
from tournaments.models import Match
from tournaments.services.rounds import round_pair, round_publish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_result_confirmed_on_the_manage_page_appears_on_an_open_public_page(live_server, browser):
    organizer = UserFactory(username="orga")
    event = build_event(organizer, TEAMS)
    published = round_publish(round_row=round_pair(tournament=event, actor=organizer), actor=organizer)
    match = Match.objects.select_related("team_a").get(round=published, table=1)
    player = match.team_a.players.order_by("position").first()

    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(f"{live_server.url}/events/{event.id}/?q={player.name}")
    answer = phone.locator("#find-results li").first
    expect(answer).to_contain_text("Record 0-0-0")
    round_page = browser.new_context().new_page()
    round_page.goto(f"{live_server.url}/events/{event.id}/rounds/1/")
    result_cell = round_page.locator(f'#round-results tr[data-match-id="{match.id}"] td.result')
    expect(result_cell).to_have_text("Not reported yet")
    phone.evaluate("window.__notReloaded = true")

    scorekeeper = browser.new_context().new_page()
    log_in(scorekeeper, live_server, "orga", f"/events/{event.id}/manage/")
    form = scorekeeper.locator(f'form[data-match-id="{match.id}"]')
    form.locator('select[name="result"]').select_option("a")
    form.locator("button[type=submit]").click()
    expect(form.locator(".row-status")).to_have_text("Reported by orga, confirmed")

    expect(answer).to_contain_text("Record 1-0-0 · 3 MP", timeout=5_000)
    expect(result_cell).to_have_text(f"{match.team_a.name} won 1-0", timeout=5_000)
    assert phone.evaluate("window.__notReloaded") is True  # swapped in place, not reloaded
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
