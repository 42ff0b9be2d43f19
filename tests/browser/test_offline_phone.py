"""Issue 27 part 1 in Chromium at 390 px: a player's page survives the network dropping.

Over a secure context (http://localhost, as the HTTPS site) the service worker keeps the pages: the
player's page reloads offline with the table, the opponents and the clock, marked "as of HH:MM
(offline)", as does a find-my-table answer seen before, and a "We won" and a judge call tapped
offline wait in IndexedDB and reach the server once the network is back, once each.
Over plain http at a LAN name (no service worker: not a secure context) the open page keeps its
table and clock, keeps the report in localStorage and sends it when the network returns, once,
even when the answer to the first try is lost on the way back.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError
from django.utils import timezone
from playwright.sync_api import expect

from clock.services import round_start
from common.public_address import lan_address
from floor.models import JudgeCall
from tests.browser.test_event_organizer import log_in
from tests.browser.test_player_reporting import PHONE, two_tables
from tests.conftest import CHROMIUM, CHROMIUM_ARGS, IN_CI
from tests.factories import DEFAULT_PASSWORD
from tournaments.models import Match, ResultReport, Round
from tournaments.services.results import match_result_report

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAN_NAME = "hall-laptop.test"
ROOT = Path(__file__).resolve().parents[2]
User = get_user_model()


def started_tables():
    """Round 1 published and its clock running."""
    event, tables = two_tables()
    round_start(round_row=tables[1].round, actor=event.created_by, at=timezone.now())
    return event, tables


def reports(match) -> int:
    return ResultReport.objects.filter(match=match).count()


def calls(match) -> int:
    return JudgeCall.objects.filter(match=match).count()


def wait_for(page, predicate, seconds: float) -> bool:
    """Poll ``predicate`` while the page runs (Playwright's sync API serves routes only meanwhile).

    A read that meets the live server's write on the test's shared in-memory SQLite ("table is
    locked") is read again at the next poll."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if predicate():
                return True
        except OperationalError:
            pass
        page.wait_for_timeout(250)
    return predicate()


def worker_controls(page) -> bool:
    """The service worker controls the page, as it does a phone's next page once installed: a
    page open while it activated is taken over (``clients.claim``), and on a loaded machine the
    page is loaded again if that has not happened within 15 s."""
    for _attempt in range(3):
        if wait_for(page, lambda: page.evaluate("navigator.serviceWorker.controller !== null"), 15):
            return True
        page.reload()
    return False


def open_players_page_over_plain_http(context, laptop: str, me: str):
    """Player t1a signs in at the laptop's plain-http address and lands on their page, where the
    browser gives no service worker (not a secure context)."""
    page = context.new_page()
    page.goto(f"{laptop}/accounts/login/?next={me}")
    page.fill("#id_username", "t1a")
    page.fill("#id_password", DEFAULT_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{laptop}{me}")
    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("'serviceWorker' in navigator") is False
    return page


def clock_counts(page) -> None:
    """The table clock shows a countdown, and it moves."""
    remaining = page.locator("#table-clock-remaining")
    expect(remaining).to_have_text(re.compile(r"^\d+:\d\d left$"))
    first = remaining.text_content()
    page.wait_for_timeout(1600)
    assert remaining.text_content() != first


def test_a_kept_page_reloads_offline_and_a_report_made_offline_is_sent_once_back_online(live_server, browser):
    event, tables = started_tables()
    match = tables[1]
    me = f"/events/{event.id}/me/"
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    log_in(page, live_server, "t1a", me)
    assert worker_controls(page)
    page.reload()  # now through the worker, which keeps the page
    # Chromium would offer to install it (a test's browser context is always an incognito one).
    installability = context.new_cdp_session(page).send("Page.getInstallabilityErrors")
    assert [e["errorId"] for e in installability["installabilityErrors"]] == ["in-incognito"]
    kept = "caches.open('pages').then(c => c.match(location.href)).then(r => !!r)"
    assert wait_for(page, lambda: page.evaluate(kept), 10)
    player = match.team_a.players.order_by("position").first().name
    find = f"{live_server.url}/events/{event.id}/?q={player.split()[0]}"
    page.goto(find)  # a find-my-table answer seen once
    expect(page.locator("#find-results")).to_contain_text(match.team_a.name)
    assert wait_for(page, lambda: page.evaluate(kept), 10)
    page.goto(f"{live_server.url}{me}")
    assert wait_for(page, lambda: page.evaluate(kept), 10)

    context.set_offline(True)
    page.goto(find)
    expect(page.locator("#find-results .found-table").first).to_have_attribute("data-table", str(match.table))
    expect(page.locator("#offline-banner")).to_contain_text("(offline)")
    page.screenshot(path="/tmp/offline-find-my-table.png", full_page=True)
    page.goto(f"{live_server.url}/events/{event.id}/standings/")  # never opened on this phone
    expect(page.locator("h1")).to_have_text("No connection")
    expect(page.locator("header.site")).not_to_contain_text("t1a")  # the offline page names no one
    page.screenshot(path="/tmp/offline-never-seen.png", full_page=True)
    page.goto(f"{live_server.url}{me}")
    page.reload()

    expect(page.locator("#my-match")).to_contain_text(f"Table {match.table}")
    expect(page.locator("#my-match")).to_contain_text(match.team_b.name)
    expect(page.locator("#my-team")).to_contain_text(match.team_a.name)
    expect(page.locator("#offline-banner")).to_have_text(re.compile(r"^As of \d\d:\d\d \(offline\)$"))
    clock_counts(page)
    # The kept copy counts on from the table's end time, not from when the copy was made.
    minutes, seconds = page.locator("#table-clock-remaining").text_content().split()[0].split(":")
    started = Round.objects.get(pk=match.round_id)
    ends_at = started.started_at + timedelta(minutes=started.length_minutes)
    expected = (ends_at - timezone.now()).total_seconds()
    assert abs(int(minutes) * 60 + int(seconds) - expected) <= 3

    page.locator(f'form[data-report-match-id="{match.id}"]').get_by_role("button", name="We won").click()
    expect(page.locator("[data-outbox-pending]")).to_have_text(
        "Your report (We won) will be sent when you are back online."
    )
    page.get_by_role("button", name="Call a judge").click()
    expect(page.locator('[data-outbox-pending="call"]')).to_have_text(
        "Your judge call will be sent when you are back online."
    )
    queued = page.evaluate(
        """() => new Promise(resolve => { const open = indexedDB.open('twohg');
             open.onsuccess = () => { const get = open.result.transaction('outbox').objectStore('outbox').getAll();
             get.onsuccess = () => resolve(get.result.map(e => e.kind + ':' + e.match)); }; })"""
    )
    assert sorted(queued) == [f"call:{match.id}", f"report:{match.id}"]
    assert page.evaluate("localStorage.getItem('twohg-outbox')") is None
    page.screenshot(path="/tmp/offline-kept-page-queued.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert reports(match) == 0

    context.set_offline(False)

    assert wait_for(page, lambda: reports(match) == 1 and calls(match) == 1, 30)
    expect(page.locator("#report-state")).to_contain_text("Waiting for", timeout=30_000)
    expect(page.locator("#judge-call")).to_contain_text("waiting for a judge")
    expect(page.locator("#offline-banner")).to_be_hidden(timeout=15_000)  # the live page again
    # What the server answered to each is still said on the live page.
    expect(page.locator("main > ul.messages").first).to_contain_text("Result sent.")
    expect(page.locator("main > ul.messages").last).to_contain_text(
        f"A judge has been called to table {match.table}."
    )
    page.wait_for_timeout(6000)  # the retry timer has run: nothing was sent twice
    assert (reports(match), calls(match)) == (1, 1)
    page.screenshot(path="/tmp/offline-back-online.png", full_page=True)
    context.close()


def test_on_plain_http_the_open_page_keeps_its_table_and_clock_and_sends_the_report_once(
    live_server, playwright, settings
):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, LAN_NAME]
    # The laptop's embedded mode on plain http: its cookies are not Secure (production's are, and a
    # browser keeps a Secure cookie only from localhost or HTTPS).
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False
    event, tables = started_tables()
    match = tables[1]
    me = f"/events/{event.id}/me/"
    port = live_server.url.rsplit(":", 1)[1]
    laptop = f"http://{LAN_NAME}:{port}"
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"]
    )
    context = browser.new_context(viewport=PHONE)
    page = open_players_page_over_plain_http(context, laptop, me)

    context.set_offline(True)
    page.wait_for_timeout(5000)  # several polls of the clock and the report block fail meanwhile

    expect(page.locator("#offline-banner")).to_have_text(re.compile(r"^As of \d\d:\d\d \(offline\)$"))
    expect(page.locator("#my-match")).to_contain_text(f"Table {match.table}")
    clock_counts(page)
    page.locator(f'form[data-report-match-id="{match.id}"]').get_by_role("button", name="We won").click()
    expect(page.locator("[data-outbox-pending]")).to_contain_text("will be sent when you are back online")
    stored = page.evaluate("JSON.parse(localStorage.getItem('twohg-outbox'))")
    assert [(e["kind"], e["match"], e["label"]) for e in stored] == [("report", str(match.id), "We won")]
    page.screenshot(path="/tmp/offline-plain-http-queued.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # Back online, the first try reaches the server but its answer is lost on the way back.
    lost = []

    def lose_first_answer(route):
        if not lost:
            # The request reaches the laptop (sent here: the LAN name is only the browser's) ...
            sent = route.request
            path = sent.url.removeprefix(laptop)
            headers = {**sent.headers, "host": f"{LAN_NAME}:{port}"}
            request = urllib.request.Request(
                live_server.url + path, data=sent.post_data_buffer, headers=headers, method="POST"
            )
            with urllib.request.urlopen(request) as answer:
                assert answer.status == 200
            lost.append(sent.headers.get("idempotency-key"))
            # ... and the phone never gets the answer.
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route(re.compile(r".*/report/$"), lose_first_answer)
    context.set_offline(False)

    assert wait_for(page, lambda: reports(match) == 1, 30)
    expect(page.locator("#report-state")).to_contain_text("Waiting for", timeout=30_000)
    assert lost and lost[0] == stored[0]["key"]
    page.wait_for_timeout(6000)
    assert reports(match) == 1
    assert page.evaluate("localStorage.getItem('twohg-outbox')") == "[]"
    browser.close()


def test_a_report_queued_while_the_other_team_reported_is_refused_and_the_player_sees_why(
    live_server, browser
):
    event, tables = started_tables()
    match = tables[1]
    me = f"/events/{event.id}/me/"
    context = browser.new_context(viewport=PHONE, service_workers="block")  # the page alone
    page = context.new_page()
    log_in(page, live_server, "t1a", me)

    context.set_offline(True)
    page.locator(f'form[data-report-match-id="{match.id}"]').get_by_role("button", name="We won").click()
    expect(page.locator("[data-outbox-pending]")).to_contain_text("will be sent when you are back online")
    # Meanwhile the other team reports that they won.
    match_result_report(
        match=Match.objects.get(pk=match.pk),
        actor=User.objects.get(username="t1b"),
        team_a_wins=0,
        team_b_wins=1,
        draws=0,
        version=1,
    )
    context.set_offline(False)

    expect(page.locator("#me-report .report-message")).to_contain_text(
        "The result changed while you were looking", timeout=30_000
    )
    expect(page.locator("#report-state")).to_contain_text(f"{match.team_b.name} reported")
    expect(page.locator("[data-outbox-pending]")).to_have_count(0)
    page.screenshot(path="/tmp/offline-report-refused.png", full_page=True)
    assert page.evaluate("localStorage.getItem('twohg-outbox')") == "[]"
    assert wait_for(page, lambda: reports(match) == 1, 5)
    context.close()


def test_the_players_page_open_when_the_worker_arrives_comes_back_offline_without_a_second_visit(
    live_server, browser
):
    """The page a phone opened before the worker was installed (its first visit, or a slow hall
    network that held up the install) was fetched without it; once the worker takes the page
    over, the page's own re-read of its live blocks (floor_live.js) goes through it and is kept,
    so the page comes back offline although the player never opened it again."""
    event, tables = started_tables()
    match = tables[1]
    me = f"/events/{event.id}/me/"
    context = browser.new_context(viewport=PHONE)
    context.route(re.compile(r".*/sw\.js$"), lambda route: route.abort("connectionreset"))
    page = context.new_page()
    log_in(page, live_server, "t1a", me)  # no worker yet: the page came from the network alone
    context.unroute(re.compile(r".*/sw\.js$"))
    page.evaluate("navigator.serviceWorker.register('/sw.js', {scope: '/'})")  # what pwa.js does next
    assert wait_for(page, lambda: page.evaluate("navigator.serviceWorker.controller !== null"), 30)
    kept = "caches.open('pages').then(c => c.match(location.href)).then(r => !!r)"
    assert wait_for(page, lambda: page.evaluate(kept), 15)

    context.set_offline(True)
    page.reload()

    expect(page.locator("#my-match")).to_contain_text(f"Table {match.table}")
    expect(page.locator("#my-team")).to_contain_text(match.team_a.name)
    expect(page.locator("#offline-banner")).to_have_text(re.compile(r"^As of \d\d:\d\d \(offline\)$"))
    context.close()


def test_with_the_worker_a_report_made_on_the_kept_page_is_refused_once_a_judge_entered_the_result(
    live_server, browser
):
    """The secure context's own path: the page reloaded from the phone's copy, the report kept in
    IndexedDB, and a judge's result entered at the desk meanwhile (the match moved on)."""
    event, tables = started_tables()
    match = tables[1]
    me = f"/events/{event.id}/me/"
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    log_in(page, live_server, "t1a", me)
    assert worker_controls(page)
    page.reload()
    kept = "caches.open('pages').then(c => c.match(location.href)).then(r => !!r)"
    assert wait_for(page, lambda: page.evaluate(kept), 10)

    context.set_offline(True)
    page.reload()
    expect(page.locator("#offline-banner")).to_have_text(re.compile(r"^As of \d\d:\d\d \(offline\)$"))
    page.locator(f'form[data-report-match-id="{match.id}"]').get_by_role("button", name="We won").click()
    expect(page.locator("[data-outbox-pending]")).to_contain_text("will be sent when you are back online")
    assert page.evaluate("localStorage.getItem('twohg-outbox')") is None  # kept in IndexedDB
    match_result_report(
        match=Match.objects.get(pk=match.pk),
        actor=event.created_by,
        team_a_wins=0,
        team_b_wins=1,
        draws=0,
        version=1,
    )
    context.set_offline(False)

    # The kept copy gives way to the live page, and what the server said about the report stays.
    expect(page.locator("#offline-banner")).to_be_hidden(timeout=30_000)
    assert page.evaluate("document.documentElement.hasAttribute('data-offline-as-of')") is False
    expect(page.locator("#me-report .report-message")).to_contain_text(
        "The result changed while you were looking"
    )
    expect(page.locator("#report-state")).to_contain_text("Confirmed")
    expect(page.locator("[data-outbox-pending]")).to_have_count(0)
    outbox = """() => new Promise(resolve => { const open = indexedDB.open('twohg');
        open.onsuccess = () => { const count = open.result.transaction('outbox').objectStore('outbox').count();
        count.onsuccess = () => resolve(count.result); }; })"""
    assert page.evaluate(outbox) == 0
    page.screenshot(path="/tmp/offline-kept-page-refused.png", full_page=True)
    page.wait_for_timeout(6000)  # the retry timer has run: the refused report is not sent again
    match.refresh_from_db()
    assert (match.team_a_wins, match.team_b_wins, reports(match)) == (0, 1, 1)
    context.close()


def test_a_file_lost_while_the_worker_installs_costs_the_phone_nothing(live_server, browser):
    """On a congested hall network one precache request can fail: the worker still takes the page,
    and fetches what it missed after the next page the phone loads."""
    event, _tables = started_tables()
    me = f"/events/{event.id}/me/"
    context = browser.new_context(viewport=PHONE)
    network = {"up": False}
    lost = []

    def lose_while_down(route):
        if network["up"]:
            route.continue_()
        else:
            lost.append(route.request.url)
            route.abort("connectionreset")

    context.route(re.compile(r".*/offline/$"), lose_while_down)
    page = context.new_page()
    log_in(page, live_server, "t1a", me)
    assert worker_controls(page)
    assert lost, "the worker's install did not fetch the offline page"
    has_offline_page = "caches.keys().then(ks => Promise.all(ks.map(k => caches.open(k).then(c => c.match('/offline/'))))).then(rs => rs.some(r => !!r))"
    assert page.evaluate(has_offline_page) is False
    network["up"] = True
    page.goto(f"{live_server.url}/events/{event.id}/")  # a page loaded through the worker
    assert wait_for(page, lambda: page.evaluate(has_offline_page), 15)

    context.set_offline(True)
    page.goto(f"{live_server.url}/events/{event.id}/standings/")  # never opened on this phone
    expect(page.locator("h1")).to_have_text("No connection")
    context.close()


HALL_EVENT = """
from django.utils import timezone
from clock.services import round_start
from tests.browser.test_player_reporting import two_tables
event, tables = two_tables()
round_start(round_row=tables[1].round, actor=event.created_by, at=timezone.now())
print(event.id, tables[1].id, tables[1].table)
"""


def hall_environment(folder: Path) -> dict[str, str]:
    """Embedded mode in ``folder``, configured by nothing but what ``make run HOST=0.0.0.0`` gives."""
    drop = {"DATABASE_URL", "REDIS_URL", "PUBLIC_URL", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "DEBUG"}
    env = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("CELERY")}
    env.update(
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        CELERY_DATA_DIR=str(folder / "celery"),
        MEDIA_ROOT=str(folder / "media"),
        CACHE_DIR=str(folder / "cache"),
        SECRET_KEY="test-only-hall-laptop",
        DEBUG="false",  # what the Makefile gives a server bound to every interface
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    return env


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except (OSError, urllib.error.URLError):
        return False


def test_a_laptop_on_every_interface_keeps_a_report_made_at_its_lan_address_and_sends_it_once(
    browser, tmp_path
):
    """The laptop as an organizer starts it for the hall (``runembedded`` on 0.0.0.0, not on port
    8000, settings from the environment alone) and a phone at the machine's LAN address over plain
    http: no service worker; the report tapped during the drop is sent once the network is back."""
    address = lan_address()
    if address is None:
        message = "this machine has no LAN address"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    with socket.socket() as probe:
        probe.bind(("0.0.0.0", 0))
        port = probe.getsockname()[1]
    env = hall_environment(tmp_path)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    made = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", HALL_EVENT],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    event_id, match_id, table = made.stdout.split()[-3:]
    laptop = f"http://{address}:{port}"
    log = tmp_path / "runembedded.log"
    with open(log, "wb") as out:
        runner = subprocess.Popen(
            [sys.executable, "manage.py", "runembedded", f"0.0.0.0:{port}", "--concurrency", "1"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def laptop_reports() -> int:
        with sqlite3.connect(tmp_path / "db.sqlite3", timeout=20) as db:
            return db.execute(
                "SELECT COUNT(*) FROM tournaments_resultreport WHERE match_id = ?", [match_id]
            ).fetchone()[0]

    try:
        deadline = time.monotonic() + 60
        while not answers(f"{laptop}/healthz") and time.monotonic() < deadline:
            time.sleep(0.5)
        assert answers(f"{laptop}/healthz"), log.read_text()[-3000:]
        context = browser.new_context(viewport=PHONE)
        page = open_players_page_over_plain_http(context, laptop, f"/events/{event_id}/me/")

        context.set_offline(True)
        expect(page.locator("#offline-banner")).to_have_text(
            re.compile(r"^As of \d\d:\d\d \(offline\)$"), timeout=15_000
        )
        expect(page.locator("#my-match")).to_contain_text(f"Table {table}")
        clock_counts(page)
        page.locator(f'form[data-report-match-id="{match_id}"]').get_by_role("button", name="We won").click()
        expect(page.locator("[data-outbox-pending]")).to_contain_text("will be sent when you are back online")
        assert laptop_reports() == 0

        context.set_offline(False)

        assert wait_for(page, lambda: laptop_reports() == 1, 30)
        expect(page.locator("#report-state")).to_contain_text("Waiting for", timeout=30_000)
        page.wait_for_timeout(6000)  # the retry timer has run: nothing was sent twice
        assert laptop_reports() == 1
        assert page.evaluate("localStorage.getItem('twohg-outbox')") == "[]"
        context.close()
    finally:
        os.killpg(runner.pid, signal.SIGTERM)
        runner.wait(timeout=30)
