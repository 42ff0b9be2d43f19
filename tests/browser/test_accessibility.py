"""Accessibility: axe-core (from npm, tests/browser/axe/package.json, installed by ``make test``)
audits the public, player, judge and staff pages a hall uses, in Japanese at phone width, and fails
on any serious or critical violation; the results grid, the player's report and the judge-call
queue work from the keyboard alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from floor.services.calls import judge_call_raise
from tests.floor.conftest import build_floor_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}


def signed_in_page(browser, live_server, user, *, bypass_csp: bool = False, locale: str = "ja-JP"):
    """A Chromium page as ``user`` (None: signed out) with a Japanese browser; ``bypass_csp`` lets
    the audit inject axe-core into pages whose policy allows only the site's own scripts."""
    context = browser.new_context(viewport=PHONE, locale=locale, bypass_csp=bypass_csp)
    if user is not None:
        client = Client()
        client.force_login(user)
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


def serious_violations(page) -> list[str]:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `make test` (npm ci --prefix tests/browser/axe)")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))}))"
    )
    return [
        f"{v['id']} ({v['impact']}): {', '.join(v['nodes'][:3])}"
        for v in result
        if v["impact"] in ("serious", "critical")
    ]


def test_axe_finds_no_serious_or_critical_violation_on_the_halls_pages(live_server, browser):
    ev = build_floor_event()
    judge_call_raise(
        tournament=ev.tournament, match=ev.matches[1], actor=ev.players[2], reason="rules question"
    )
    t = ev.tournament.pk
    pages = [
        (None, f"/events/{t}/"),
        (None, f"/events/{t}/pairings/"),
        (None, f"/events/{t}/standings/"),
        (None, f"/events/{t}/clock/"),
        (ev.players[0], f"/events/{t}/me/"),
        (ev.players[0], f"/events/{t}/decklists/"),
        (ev.judge, f"/events/{t}/floor/calls/"),
        (ev.judge, f"/events/{t}/floor/end-of-round/?zone="),
        (ev.judge, f"/events/{t}/floor/deck-checks/"),
        (ev.judge, f"/events/{t}/penalties/new/"),
        (ev.organizer, f"/events/{t}/manage/"),
        (ev.organizer, f"/events/{t}/print/"),
    ]
    found = {}
    for user, path in pages:
        page = signed_in_page(browser, live_server, user, bypass_csp=True)
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        violations = serious_violations(page)
        if violations:
            found[path] = violations
        page.context.close()
    assert found == {}


def test_the_results_grid_the_players_report_and_the_call_queue_work_from_the_keyboard(live_server, browser):
    ev = build_floor_event()
    t = ev.tournament.pk
    table = ev.matches[0]

    player = signed_in_page(browser, live_server, ev.players[0], locale="en-US")
    player.goto(f"{live_server.url}/events/{t}/me/")
    report = player.locator(f'form[data-report-match-id="{table.pk}"]').get_by_role("button", name="We won")
    for _ in range(60):
        player.keyboard.press("Tab")
        if report.evaluate("element => element === document.activeElement"):
            break
    else:
        pytest.fail("Tab never reached the report button")
    player.keyboard.press("Enter")
    expect(player.locator("#report-state")).to_contain_text("Waiting for")

    judge_call_raise(tournament=ev.tournament, match=ev.matches[2], actor=ev.players[4], reason="")
    judge = signed_in_page(browser, live_server, ev.judge, locale="en-US")
    judge.goto(f"{live_server.url}/events/{t}/floor/calls/")
    claim = judge.get_by_role("button", name="Claim").first
    for _ in range(60):
        judge.keyboard.press("Tab")
        if claim.evaluate("element => element === document.activeElement"):
            break
    else:
        pytest.fail("Tab never reached the Claim button")
    judge.keyboard.press("Enter")
    judge.wait_for_load_state("networkidle")
    expect(judge.locator("body")).to_contain_text(f"Claimed by {ev.judge.username}")

    organizer = signed_in_page(browser, live_server, ev.organizer, locale="en-US")
    organizer.goto(f"{live_server.url}/events/{t}/manage/")
    key = organizer.locator(f'[data-match-id="{ev.matches[1].pk}"] input.key')
    for _ in range(120):
        organizer.keyboard.press("Tab")
        if key.evaluate("element => element === document.activeElement"):
            break
    else:
        pytest.fail("Tab never reached the results grid's key box")
    organizer.keyboard.type("2")
    organizer.keyboard.press("Enter")
    expect(organizer.locator(f'[data-match-id="{ev.matches[1].pk}"] .row-status')).to_contain_text(
        "confirmed"
    )
