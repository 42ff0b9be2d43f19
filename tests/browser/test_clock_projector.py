"""A real browser shows the projector clock counting down between polls of the clock API."""

from __future__ import annotations

import datetime
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from tests.clock.factories import MatchFactory, RoundFactory, TimeExtensionFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def seconds(clock_text: str) -> int:
    """'39:58' or '1:29:58' as seconds."""
    total = 0
    for part in clock_text.strip().split(":"):
        total = total * 60 + int(part)
    return total


def test_projector_counts_down(live_server, page):
    round_row = RoundFactory(
        number=3, started_at=timezone.now() - datetime.timedelta(minutes=10), length_minutes=50
    )
    extended = MatchFactory(round=round_row, table=12)
    MatchFactory(round=round_row, table=13)
    TimeExtensionFactory(match=extended, minutes=9, reason="deck check (6 + 3)")

    page.goto(f"{live_server.url}/events/{round_row.tournament_id}/clock/")
    clock = page.locator("#clock-remaining")
    page.wait_for_function(
        "document.querySelector('#clock-tables [data-table-remaining]').textContent !== ''"
    )
    first = seconds(clock.inner_text())
    page.wait_for_timeout(2200)
    second = seconds(clock.inner_text())

    assert 38 * 60 < first <= 40 * 60
    assert 1 <= first - second <= 4
    assert page.locator("[data-clock-round]").inner_text() == "3"
    table = page.locator("#clock-tables li", has_text="Table 12")
    assert "+9 min" in table.inner_text()
    # Read a moment after ``second``: the page may have ticked once in between on a loaded machine.
    table_remaining = seconds(table.locator("[data-table-remaining]").inner_text().removesuffix(" left"))
    assert second + 9 * 60 - 1 <= table_remaining <= second + 9 * 60
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.screenshot(path="/tmp/clock_projector.png")


def test_projector_is_bare_and_shows_times_in_the_events_time_zone(live_server, page, settings):
    """No site navigation on the hall's screen, and the end times the script renders after a poll
    are in settings.TIME_ZONE whatever zone the browser runs in."""
    settings.TIME_ZONE = "Pacific/Auckland"
    started = timezone.now().replace(microsecond=0) - datetime.timedelta(minutes=10)
    round_row = RoundFactory(number=1, started_at=started, length_minutes=50)
    extended = MatchFactory(round=round_row, table=4)
    TimeExtensionFactory(match=extended, minutes=9, reason="deck check (6 + 3)")
    table_end = (started + datetime.timedelta(minutes=59)).astimezone(ZoneInfo("Pacific/Auckland"))

    page.goto(f"{live_server.url}/events/{round_row.tournament_id}/clock/")
    page.wait_for_function(
        "document.querySelector('#clock-tables [data-table-remaining]').textContent !== ''"
    )

    assert page.locator("header.site").count() == 0
    assert page.get_by_text("Log in").count() == 0
    info = page.locator("#clock-tables li", has_text="Table 4").locator(".clock-table-info").inner_text()
    assert info == f"+9 min · ends {table_end:%H:%M}"
