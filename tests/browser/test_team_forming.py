"""Issue 15's teams on a phone (390 px), with JavaScript on and off: a player creates a team and
the teammate signs up from the invite link and joins; an account named directly is invited, not
added; two solo players in the partner pool are formed into a team by the organizer; round 1
asks about a team that did not check in. Screenshots go to /tmp/teams-*.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.tournaments.pages.builders import TEAMS, build_event
from tournaments.models import Player, Team, TeamInvitation

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture(params=[True, False], ids=["js", "no-js"])
def phone(request, browser):
    """A new phone (its own cookies) per player; JavaScript on or off for the whole test."""
    contexts = []

    def make():
        context = browser.new_context(viewport=PHONE, java_script_enabled=request.param)
        contexts.append(context)
        return context.new_page()

    make.js = request.param
    yield make
    for context in contexts:
        context.close()


def log_in(page, live_server, username: str, next_path: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/?next={next_path}")
    page.fill("#id_username", username)
    page.fill("#id_password", DEFAULT_PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert page.url == f"{live_server.url}{next_path}"


def fits(page, name: str) -> None:
    page.screenshot(path=f"/tmp/teams-{name}.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_team_by_join_code_and_a_named_account_only_invited(live_server, phone):
    organizer = UserFactory(username="orga")
    event = build_event(organizer, TEAMS[:4])
    UserFactory(username="ana")
    UserFactory(username="carol")
    suffix = "js" if phone.js else "nojs"
    me = f"/events/{event.id}/me/"

    ana = phone()
    log_in(ana, live_server, "ana", me)
    ana.fill("#team-name", "Dual Wield")
    ana.fill("#my-name", "Ana Alves")
    ana.fill("#my-wizards-id", "ana@wotc.example")
    with ana.expect_navigation():
        ana.click("#team-create-form button[type=submit]")
    expect(ana.locator("#team-forming")).to_contain_text("Your team is forming")
    code = ana.locator("#join-code").inner_text()
    assert re.fullmatch(r"[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}", code)
    fits(ana, f"captain-{suffix}")

    # The teammate has no account yet: the invite link sends them to log in, they sign up and
    # land back on the invite.
    ben = phone()
    ben.goto(f"{live_server.url}/join/{code}/")
    with ben.expect_navigation():
        ben.click("#signup-link")
    ben.fill("#id_username", "ben")
    ben.fill("#id_password", "a long enough password 15")
    with ben.expect_navigation():
        ben.click("main button[type=submit]")
    assert ben.url == f"{live_server.url}/join/{code}/"
    expect(ben.locator("h1")).to_have_text("Join “Dual Wield”")
    ben.fill("#join-name", "Ben Brand")
    ben.fill("#join-wizards-id", "ben@wotc.example")
    fits(ben, f"invite-{suffix}")
    with ben.expect_navigation():
        ben.click("#join-accept")
    expect(ben.locator(".messages")).to_contain_text("You joined “Dual Wield”")
    expect(ben.locator("#my-team")).to_contain_text("Ana Alves, Ben Brand (you)")
    assert list(Team.objects.get(name="Dual Wield").players.values_list("name", flat=True)) == [
        "Ana Alves",
        "Ben Brand",
    ]

    # The team is full: a stranger holding its link sees nothing of it (issue 24).
    UserFactory(username="eve")
    eve = phone()
    log_in(eve, live_server, "eve", f"/join/{code}/")
    expect(eve.locator("#page-error")).to_contain_text("this invitation is not open")
    assert "Dual Wield" not in eve.content() and "Ana Alves" not in eve.content()
    fits(eve, f"not-open-{suffix}")

    # Dora names Carol's account: Carol is invited, not added, and answers on her own page.
    UserFactory(username="dora")
    dora = phone()
    log_in(dora, live_server, "dora", me)
    dora.fill("#team-name", "Carol Who")
    dora.fill("#my-name", "Dora Diaz")
    dora.fill("#my-wizards-id", "dora@wotc.example")
    dora.fill("#invite-1", "carol")
    with dora.expect_navigation():
        dora.click("#team-create-form button[type=submit]")
    expect(dora.locator("#pending-invitations")).to_contain_text("carol")
    assert not Player.objects.filter(user__username="carol").exists()
    carol = phone()
    log_in(carol, live_server, "carol", me)
    card = carol.locator("[data-invitation]")
    expect(card).to_contain_text("dora invites you to the team Carol Who")
    fits(carol, f"invited-{suffix}")
    with carol.expect_navigation():
        card.locator("button[value=decline]").click()
    assert TeamInvitation.objects.get(invitee__username="carol").status == "declined"
    expect(carol.locator("#not-on-team")).to_be_visible()


def test_the_pool_forms_a_team_and_round_one_asks_about_check_in(live_server, phone):
    organizer = UserFactory(username="orga")
    event = build_event(organizer, TEAMS[:3])
    event.check_in_required = True
    event.save(update_fields=["check_in_required"])
    suffix = "js" if phone.js else "nojs"
    me = f"/events/{event.id}/me/"
    solos = []
    for username, name in (("sam", "Sam Solo"), ("tia", "Tia Solo")):
        UserFactory(username=username)
        solo = phone()
        log_in(solo, live_server, username, me)
        solo.fill("#pool-name", name)
        solo.fill("#pool-wizards-id", f"{username}@wotc.example")
        with solo.expect_navigation():
            solo.click("#pool-join")
        solos.append(solo)
    solos[0].reload()
    expect(solos[0].locator("#pool-members")).to_contain_text("Tia Solo")
    fits(solos[0], f"pool-{suffix}")

    orga = phone()
    log_in(orga, live_server, "orga", f"/events/{event.id}/manage/")
    orga.fill("#pool-seed", "2026")
    with orga.expect_navigation():
        orga.click("#pool-preview")
    expect(orga.locator("#pool-seed-used")).to_have_text("2026")
    expect(orga.locator("#pool-plan li")).to_have_count(1)
    fits(orga, f"pool-preview-{suffix}")
    with orga.expect_navigation():
        orga.click("#pool-confirm")
    expect(orga.locator(".messages")).to_contain_text("1 team(s) formed from the partner pool")
    formed = Team.objects.get(players__user__username="sam")
    assert set(formed.players.values_list("name", flat=True)) == {"Sam Solo", "Tia Solo"}

    solos[1].goto(f"{live_server.url}{me}")
    expect(solos[1].locator("#my-team")).to_contain_text(formed.name)
    with solos[1].expect_navigation():
        solos[1].click("#check-in-button")
    expect(solos[1].locator("#check-in")).to_contain_text("Your team is checked in")

    orga.goto(f"{live_server.url}/events/{event.id}/manage/")
    for team in Team.objects.filter(tournament=event).exclude(pk=formed.pk).order_by("name")[:2]:
        with orga.expect_navigation():
            orga.locator(f'form[data-check-in="{team.pk}"] button').click()
    with orga.expect_navigation():
        orga.click("#pair-round")
    question = orga.locator("#unchecked-question")
    expect(question).to_contain_text("This team has not checked in: Two Heads Are Better")
    fits(orga, f"check-in-question-{suffix}")
    question.locator("input[value=drop]").check()
    with orga.expect_navigation():
        orga.click("#pair-round-unchecked")
    expect(orga.locator(".messages")).to_contain_text("Round 1 paired")
    assert event.rounds.get().matches.filter(team_b__isnull=False).count() == 1
    assert Team.objects.get(pk=formed.pk).checked_in_at is not None


def test_an_account_staff_name_at_the_desk_is_linked_once_its_player_says_yes(live_server, phone):
    """docs/decisions.md "Team formation": the desk seats the player, the account joins by consent."""
    from tournaments.registration.planner import PlayerEntry
    from tournaments.registration.register import team_register

    organizer = UserFactory(username="orga")
    event = build_event(organizer, TEAMS[:4])
    ana_user = UserFactory(username="ana")
    team = team_register(
        tournament=event,
        actor=organizer,
        name="Desk Duo",
        players=[
            PlayerEntry(name="Ana Lima", wizards_id="ana@wotc.example", username="ana"),
            PlayerEntry(name="Bo Chen", wizards_id="bo@wotc.example"),
        ],
    )
    assert Player.objects.get(team=team, name="Ana Lima").user is None
    me = f"/events/{event.id}/me/"

    ana = phone()
    log_in(ana, live_server, "ana", me)
    card = ana.locator(f'[data-invitation="{Team.objects.get(pk=team.pk).join_code}"]')
    expect(card).to_contain_text("as Ana Lima")
    expect(ana.locator("#not-linked")).to_be_visible()
    expect(ana.locator("#not-on-team")).to_have_count(0)
    fits(ana, f"desk-link-{'js' if phone.js else 'nojs'}")
    with ana.expect_navigation():
        card.get_by_role("button", name="Yes, link my account").click()

    expect(ana.locator("main")).to_contain_text("Desk Duo")
    assert Player.objects.get(team=team, name="Ana Lima").user == ana_user
    assert TeamInvitation.objects.get(team=team).status == "accepted"
