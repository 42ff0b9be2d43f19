"""Issue 30 in Chromium at phone width, JavaScript off: find-my-table puts the reader's team first,
marked "you", with no rank before a result; a dispute shows in the judges' queue with its zone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from floor.services.zones import zone_create
from tests.browser.test_event_organizer import log_in
from tests.factories import UserFactory
from tests.tournaments.pages.builders import TEAMS, build_event
from tournaments.enums import StaffRole
from tournaments.models import Match, Player, Staff
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair, round_publish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_find_my_table_puts_the_readers_team_first_marked_you(live_server, browser):
    organizer = UserFactory(username="orga")
    event = build_event(organizer, TEAMS[:8])
    round_one = round_publish(round_row=round_pair(tournament=event, actor=organizer), actor=organizer)
    match = Match.objects.select_related("team_a", "team_b").get(round=round_one, table=1)
    player = match.team_b.players.order_by("position").first()
    page = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False).new_page()

    page.goto(f"{live_server.url}/events/{event.id}/?q={player.name}")

    first = page.locator("#find-results .found-side").first
    expect(first.locator(".badge.you")).to_have_text("you")
    expect(first.locator(".team-name")).to_have_text(match.team_b.name)
    expect(page.locator("#find-results")).not_to_contain_text("rank")
    page.screenshot(path="/tmp/i30-find-my-table-390.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_dispute_is_in_the_judges_queue_with_its_zone(live_server, browser):
    organizer = UserFactory(username="orga")
    event = build_event(organizer, TEAMS[:8])
    round_one = round_publish(round_row=round_pair(tournament=event, actor=organizer), actor=organizer)
    zone_create(tournament=event, actor=organizer, name="Front", first_table=1, last_table=2)
    match = Match.objects.select_related("team_a", "team_b").get(round=round_one, table=1)
    users = []
    for team in (match.team_a, match.team_b):
        player = Player.objects.filter(team=team).order_by("position").first()
        player.user = UserFactory()
        player.save(update_fields=["user"])
        users.append(player.user)
    match_result_report(match=match, actor=users[0], team_a_wins=1, team_b_wins=0, draws=0, version=1)
    match_result_report(match=match, actor=users[1], team_a_wins=0, team_b_wins=1, draws=0, version=2)
    Staff.objects.create(tournament=event, user=UserFactory(username="judge"), role=StaffRole.JUDGE)
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()

    log_in(page, live_server, "judge", f"/events/{event.id}/floor/calls/")

    card = page.locator("#live-calls article.call").first
    expect(card).to_contain_text("Table 1 · zone Front")
    expect(card).to_contain_text(
        f"dispute: {match.team_a.name} reported 1-0, {match.team_b.name} reported 0-1"
    )
    page.screenshot(path="/tmp/i30-judge-queue-390.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
