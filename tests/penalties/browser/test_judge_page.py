"""A judge on a phone: table → player → searched infraction → the proposal appears → confirm."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from penalties.models import Penalty

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_judge_picks_table_player_infraction_sees_the_proposal_and_confirms(live_server, browser, table):
    client = Client()
    client.force_login(table.judge)
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
    page = context.new_page()
    page.goto(f"{live_server.url}/events/{table.tournament.pk}/penalties/new/")

    assert page.locator(".player-group").first.is_hidden()
    page.click(".table-pick")
    page.check(f"input[name=player][value='{table.b1.pk}']")
    page.fill("#infraction-search", "slow")
    shown = page.locator("#infraction-list .infraction:visible").all_inner_texts()
    assert [" ".join(text.split()) for text in shown] == ["TE-SP Slow Play · Warning"]
    page.check("input[name=infraction][value='TE-SP']")
    page.wait_for_selector("#proposal-penalty:has-text('Proposed: Warning')")
    assert page.inner_text("#proposal-explanation") == "Competitive, TE-SP (Slow Play): Warning"
    page.fill("#id_description", "long pauses every turn")
    page.click("#confirm")

    page.wait_for_selector("#issued")
    assert page.inner_text("#issued h2") == f"Recorded: Warning to {table.b1.name}"
    assert Penalty.objects.get().player_id == table.b1.pk
    context.close()
