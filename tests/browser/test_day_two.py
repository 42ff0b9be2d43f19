"""The cut to day 2 in Chromium at 390 px: the organizer sets it on the settings page (a plain
form), and the public event page says who advanced and marks the others."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_event_organizer import log_in
from tests.browser.test_staff_pages import fits, play
from tests.factories import UserFactory
from tests.tournaments.factories import event_with_teams
from tests.tournaments.pages.builders import TEAMS, build_event
from tournaments.models import Tournament
from tournaments.services.rounds import round_pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("javascript", [True, False])
def test_the_organizer_sets_the_cut_and_the_public_page_shows_who_advanced(live_server, browser, javascript):
    context = browser.new_context(viewport={"width": 390, "height": 900}, java_script_enabled=javascript)
    page = context.new_page()
    organizer = UserFactory(username="orga")
    event = build_event(organizer, TEAMS[:8])
    log_in(page, live_server, "orga", f"/events/{event.id}/settings/")

    page.fill("[name=day_two_after_round]", "1")
    page.fill("[name=day_two_min_match_points]", "3")
    page.select_option("[name=day_two_tiebreakers]", "frozen")
    with page.expect_navigation():
        page.click("#event-settings-form button[type=submit]")
    fits(page, 390)
    event = Tournament.objects.get(pk=event.pk)
    assert (event.day_two, event.day_two_tiebreakers) == ({"after_round": 1, "min_match_points": 3}, "frozen")

    play(round_pair(tournament=event, actor=organizer), organizer)
    play(round_pair(tournament=event, actor=organizer), organizer)
    page.goto(f"{live_server.url}/events/{event.id}/")

    expect(page.locator("#day-two-line")).to_have_text(
        "Day 2: 4 of 8 teams advanced with 3+ points after round 1."
    )
    expect(page.locator("#standings .badge.eliminated")).to_have_count(4)
    fits(page, 390)
    page.goto(f"{live_server.url}/events/{event.id}/standings/")
    expect(page.locator("#day-two-line")).to_have_text(
        "Day 2: 4 of 8 teams advanced with 3+ points after round 1."
    )
    expect(page.locator("#standings tr.eliminated")).to_have_count(4)
    fits(page, 390)
    with page.expect_navigation():
        page.locator("#standings tr.eliminated a.team-name").first.click()
    expect(page.locator("#team-card .badge.eliminated")).to_have_text("did not advance")
    context.close()


@pytest.mark.parametrize("javascript", [True, False])
def test_the_organizer_is_warned_before_seating_five_teams_and_seats_one_pod(
    live_server, browser, javascript
):
    context = browser.new_context(viewport={"width": 390, "height": 900}, java_script_enabled=javascript)
    page = context.new_page()
    organizer = UserFactory(username="orga")
    event = event_with_teams(5, organizer=organizer, format="draft", swiss_rounds=3, top_cut=0)
    log_in(page, live_server, "orga", f"/events/{event.id}/manage/")

    expect(page.locator("#pod-rematch-warning")).to_contain_text(
        "5 teams make pods of 3 + 2 teams, and a pod of 2 teams cannot play the 3 Swiss rounds left"
    )
    fits(page, 390)
    with page.expect_navigation():
        page.click("#seat-one-pod")

    expect(page.locator("#draft-pods p strong")).to_have_count(1)
    expect(page.locator("#pod-rematch-warning")).to_have_count(0)
    assert [len(pod.team_ids) for pod in event.pods.all()] == [5]
    context.close()
