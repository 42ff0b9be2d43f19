"""In Chromium with a Japanese browser at 390 px: a player saves a list with JavaScript off; the
desk types a team's check-in code into the manage page's form (JavaScript on: no reload) and the
team is checked in; the end-of-round console shows both forms for an open table."""

from __future__ import annotations

import datetime
import shutil
import subprocess

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from decklists.services import deck_check_finding_record, deck_check_start
from tests.browser.test_accessibility import signed_in_page
from tests.decklists.realdata import mtgo_text, real_decklists
from tests.factories import UserFactory
from tests.floor.conftest import build_floor_event
from tests.tournaments.factories import event_with_teams
from tournaments.domain.check_in import check_in_code
from tournaments.models import Player, Round, Team

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_saves_a_list_with_javascript_off(live_server, browser):
    organizer = UserFactory(is_staff=True)
    tournament = event_with_teams(2, organizer=organizer, format="modern", rel="competitive")
    user = UserFactory()
    player = Player.objects.filter(tournament=tournament).order_by("pk").first()
    Player.objects.filter(pk=player.pk).update(user=user)
    record = next(r for r in real_decklists() if r["format"] == "modern")
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="ja-JP", java_script_enabled=False
    )
    context.add_cookies(_session_cookie(live_server, user))
    page = context.new_page()
    page.goto(f"{live_server.url}/events/{tournament.pk}/decklists/")
    page.fill("#decklist-text", mtgo_text(record))
    with page.expect_navigation():
        page.locator("form.paste button[type=submit]").click()
    expect(page.locator("body")).to_contain_text("リストを保存しました (バージョン 1")
    page.screenshot(path="/tmp/i29-decklists-nojs.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert Player.objects.get(pk=player.pk).decklist.current.text == mtgo_text(record)


def _session_cookie(live_server, user) -> list[dict]:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return [
        {
            "name": settings.SESSION_COOKIE_NAME,
            "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            "url": live_server.url,
        }
    ]


def test_the_desk_types_a_check_in_code_and_the_team_is_checked_in_without_a_reload(live_server, browser):
    organizer = UserFactory(is_staff=True)
    tournament = event_with_teams(4, organizer=organizer, check_in_required=True, swiss_rounds=3)
    team = Team.objects.get(tournament=tournament, name="Team 03")
    page = signed_in_page(browser, live_server, organizer)
    page.goto(f"{live_server.url}/events/{tournament.pk}/manage/")
    page.evaluate("window.__stayed = true")
    form = page.locator("form[data-check-in-code]")
    form.locator("input[name=code]").fill(check_in_code(team.pk).lower())
    form.locator("input[name=code]").press("Enter")
    expect(page.locator("#check-in-status")).to_contain_text("Team 03")
    expect(page.locator(f'[data-checked-in="{team.pk}"]')).to_be_visible()
    expect(form.locator("input[name=code]")).to_have_value("")
    assert page.evaluate("window.__stayed") is True
    page.screenshot(path="/tmp/i29-manage-check-in.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    team.refresh_from_db()
    assert team.checked_in_at is not None


def test_the_console_has_both_forms_for_an_open_table_in_japanese(live_server, browser):
    ev = build_floor_event()
    Round.objects.filter(pk=ev.round.pk).update(started_at=timezone.now() - datetime.timedelta(minutes=90))
    page = signed_in_page(browser, live_server, ev.organizer)
    page.goto(f"{live_server.url}/events/{ev.tournament.pk}/floor/end-of-round/?zone=")
    table = ev.matches[0]
    expect(page.locator(f'form[data-eor-call-time="{table.pk}"]')).to_be_visible()
    expect(page.locator(f'form[data-eor-result="{table.pk}"]')).to_be_visible()
    expect(page.locator("h1")).to_have_text("第1ラウンド終了")
    page.screenshot(path="/tmp/i29-console.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_deck_check_page_does_not_scroll_sideways_at_phone_width(live_server, browser):
    ev = build_floor_event()
    table = ev.matches[0]
    check = deck_check_start(match=table, actor=ev.judge, at=timezone.now())
    deck_check_finding_record(
        deck_check=check,
        actor=ev.judge,
        player=ev.player_row(0),
        kind="missing",
        card="Ragavan, Nimble Pilferer",
        count=1,
        note="found in the sideboard pocket of the deck box",
    )
    page = signed_in_page(browser, live_server, ev.judge)
    page.goto(f"{live_server.url}/events/{ev.tournament.pk}/deckchecks/{table.pk}/")
    expect(page.locator("body")).to_contain_text("Ragavan, Nimble Pilferer")
    expect(page.locator("body")).to_contain_text("デッキにない")
    page.screenshot(path="/tmp/i29-deck-check.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_with_javascript_the_list_gets_live_feedback_and_saves_in_the_background(live_server, browser):
    organizer = UserFactory(is_staff=True)
    tournament = event_with_teams(2, organizer=organizer, format="modern", rel="competitive")
    user = UserFactory()
    player = Player.objects.filter(tournament=tournament).order_by("pk").first()
    Player.objects.filter(pk=player.pk).update(user=user)
    page = signed_in_page(browser, live_server, user, locale="en-US")
    page.goto(f"{live_server.url}/events/{tournament.pk}/decklists/")
    page.fill("#decklist-text", "4 Lightnig Bolt\n56 Mountain")
    feedback = page.locator("form.paste .feedback")
    expect(feedback).to_contain_text("Lightnig Bolt", timeout=10_000)
    feedback.get_by_role("button", name="use Lightning Bolt").click()
    expect(page.locator("#decklist-text")).to_have_value("4 Lightning Bolt\n56 Mountain")
    page.locator("form.paste button[type=submit]").click()
    expect(page.locator(f'article[data-player="{player.pk}"]')).to_contain_text("Version 1", timeout=10_000)
    assert Player.objects.get(pk=player.pk).decklist.current.text == "4 Lightning Bolt\n56 Mountain"


def test_the_players_page_shows_a_check_in_qr_code_a_scanner_reads(live_server, browser, tmp_path):
    organizer = UserFactory(is_staff=True)
    tournament = event_with_teams(2, organizer=organizer, check_in_required=True)
    user = UserFactory()
    team = Team.objects.get(tournament=tournament, name="Team 01")
    Player.objects.filter(team=team, position=0).update(user=user)
    page = signed_in_page(browser, live_server, user)
    page.goto(f"{live_server.url}/events/{tournament.pk}/me/")
    expect(page.locator("#check-in-code")).to_have_text(check_in_code(team.pk))
    page.screenshot(path="/tmp/i29-me-check-in.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot = tmp_path / "qr.png"
    page.locator(".check-in-qr svg").screenshot(path=str(shot))
    zbarimg = shutil.which("zbarimg")
    assert zbarimg, "zbarimg (Debian zbar-tools) is needed: scripts/system-packages.sh installs it"
    decoded = subprocess.run(
        [zbarimg, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(shot)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert decoded == [check_in_code(team.pk)]
