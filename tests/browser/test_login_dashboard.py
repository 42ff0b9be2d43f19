"""A real browser logs in as an organizer and sees the dashboard listing their event."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tournaments.management.commands.setup_demo import DEMO_PASSWORD, DEMO_USERNAME

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_organizer_logs_in_and_sees_dashboard(live_server, page):
    call_command("setup_demo")
    page.goto(f"{live_server.url}/")
    assert page.locator("h2", has_text="Demo Friday Night Two-Headed Giant").is_visible()
    page.click("text=Log in")
    page.fill("#id_username", DEMO_USERNAME)
    page.fill("#id_password", DEMO_PASSWORD)
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/dashboard/")
    assert page.locator("h1").inner_text() == "Organizer dashboard"
    row = page.locator("tr", has_text="Demo Friday Night Two-Headed Giant")
    assert row.locator("td").nth(3).inner_text() == "8"
    assert row.locator("td").nth(5).inner_text() == "Organizer"
