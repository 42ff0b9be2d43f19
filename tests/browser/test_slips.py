"""Issue 15 in Chromium: the QR code printed on a result slip opens a page (390 px, JS off) that
reports that match; a scorekeeper keys slips in by code, one key per result."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from documents.enums import DocumentKind
from documents.models import DocumentJob
from documents.services import document_render
from tests.browser.test_event_organizer import log_in
from tests.documents.test_slip_qr import decoded_codes
from tests.factories import UserFactory
from tests.tournaments.pages.builders import TEAMS, build_event
from tournaments.models import Match
from tournaments.services.rounds import round_pair, round_publish
from tournaments.slips import slip_code, slip_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_printed_qr_opens_a_page_that_reports_that_match_without_javascript(
    live_server, browser, pdftoppm, tmp_path
):
    organizer = UserFactory(username="orga")
    event = build_event(organizer, TEAMS[:8])
    round_one = round_publish(round_row=round_pair(tournament=event, actor=organizer), actor=organizer)
    job = DocumentJob.objects.filter(round=round_one, kind=DocumentKind.RESULT_SLIPS).first()
    document_render(job_id=job.id)
    job.refresh_from_db()
    pdf = tmp_path / "slips.pdf"
    pdf.write_bytes(Path(job.file.path).read_bytes())
    match = Match.objects.select_related("round__tournament", "team_a", "team_b").get(
        round=round_one, table=2
    )

    codes = decoded_codes(pdf, pdftoppm, tmp_path)

    assert slip_url(match) in codes
    page = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False).new_page()
    page.goto(slip_url(match).replace(settings.PUBLIC_URL, live_server.url))
    form = page.locator(f'form[data-report-match-id="{match.id}"]')
    form.get_by_label(match.team_a.name).check()
    with page.expect_navigation():
        form.get_by_role("button", name="We won").click()
    expect(page.locator("#report-state")).to_contain_text(f"Waiting for {match.team_b.name} to confirm")
    page.screenshot(path="/tmp/slip-page-390.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    row = Match.objects.get(pk=match.pk)
    assert (row.team_a_wins, row.reported_side, row.confirmed) == (1, "A", False)


def test_a_scorekeeper_keys_slips_in_with_the_keyboard(live_server, page):
    organizer = UserFactory(username="orga")
    event = build_event(organizer, TEAMS[:8])
    round_one = round_publish(round_row=round_pair(tournament=event, actor=organizer), actor=organizer)
    log_in(page, live_server, "orga", f"/events/{event.id}/slips/")
    keys = {1: "1", 2: "2", 3: "d", 4: "i"}
    for match in Match.objects.filter(round=round_one).select_related("round").order_by("table"):
        page.locator("#slip-code").fill(slip_code(match))
        with page.expect_navigation():
            page.locator("#slip-code").press("Enter")
        expect(page.locator("#slip-match")).to_contain_text(f"Table {match.table}")
        with page.expect_navigation():
            page.keyboard.press(keys[match.table])
        expect(page.locator(".messages")).to_contain_text(f"Table {match.table}:")
        expect(page.locator("#slip-code")).to_be_focused()
    page.screenshot(path="/tmp/slip-entry.png", full_page=True)
    records = list(
        Match.objects.filter(round=round_one)
        .order_by("table")
        .values_list("team_a_wins", "team_b_wins", "draws")
    )
    assert records == [(1, 0, 0), (0, 1, 0), (0, 0, 1), (0, 0, 3)]


def test_one_slip_on_two_cookie_less_phones_without_javascript_cannot_confirm(
    live_server, browser, pdftoppm, tmp_path
):
    """Issue 30: the printed code, scanned by one phone for team A and by a second, cookie-less
    phone as team B: the match stays unconfirmed, and the second phone is told why."""
    organizer = UserFactory(username="orga")
    event = build_event(organizer, TEAMS[:8])
    round_one = round_publish(round_row=round_pair(tournament=event, actor=organizer), actor=organizer)
    job = DocumentJob.objects.filter(round=round_one, kind=DocumentKind.RESULT_SLIPS).first()
    document_render(job_id=job.id)
    job.refresh_from_db()
    pdf = tmp_path / "slips.pdf"
    pdf.write_bytes(Path(job.file.path).read_bytes())
    match = Match.objects.select_related("round__tournament", "team_a", "team_b").get(
        round=round_one, table=1
    )
    scanned = next(code for code in decoded_codes(pdf, pdftoppm, tmp_path) if code == slip_url(match))
    address = scanned.replace(settings.PUBLIC_URL, live_server.url)
    phones = [
        browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False).new_page()
        for _ in range(2)
    ]

    phones[0].goto(address)
    form = phones[0].locator(f'form[data-report-match-id="{match.id}"]')
    form.get_by_label(match.team_a.name).check()
    with phones[0].expect_navigation():
        form.get_by_role("button", name="We won").click()
    phones[1].goto(address)

    expect(phones[1].locator("#slip-note")).to_contain_text("a slip counts for one team only")
    expect(phones[1].locator(f'form[data-report-match-id="{match.id}"]')).to_have_count(0)
    expect(phones[1].get_by_role("link", name="Sign in")).to_be_visible()
    phones[1].screenshot(path="/tmp/i30-slip-second-phone-390.png", full_page=True)
    assert phones[1].evaluate("document.documentElement.scrollWidth") <= 390
    row = Match.objects.get(pk=match.pk)
    assert (row.confirmed, row.reported_side, row.team_a_wins) == (False, "A", 1)
