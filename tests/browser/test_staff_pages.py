"""Issue 19 in Chromium, at 1280 and 390 px: the staff's jobs from the pages alone, nothing shown
that isn't true, and no page that scrolls sideways on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_event_organizer import log_in
from tests.factories import UserFactory
from tests.tournaments.factories import event_with_teams
from tests.tournaments.pages.builders import TEAMS, build_event, wizards_id
from tournaments.models import Match, Player, Round, Team
from tournaments.services.cut import cut_build
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair, round_publish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = [1280, 390]


#: Tables inside a scrolling wrapper that is wider than the screen: content the person must scroll
#: sideways to reach (the page itself may still fit).
CLIPPED = """Array.from(document.querySelectorAll('.table-wrap, table, pre'))
  .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.id || e.className || e.tagName)"""


def sideways(page, width: int) -> list:
    """What scrolls sideways: the page itself, or a table the person must scroll to read."""
    wide = ["page"] if page.evaluate("document.documentElement.scrollWidth") > width else []
    return wide + page.evaluate(CLIPPED)


def fits(page, width: int) -> None:
    """No sideways scrolling: the page is no wider than the window, no table is clipped."""
    assert sideways(page, width) == [], page.url


@pytest.fixture
def sized(page, request):
    width = request.param
    page.set_viewport_size({"width": width, "height": 900})
    return page, width


def play(round_obj: Round, actor, *, a_wins=True) -> Round:
    round_publish(round_row=round_obj, actor=actor)
    for match in round_obj.matches.exclude(team_b=None):
        match.refresh_from_db()
        match_result_report(
            match=match,
            actor=actor,
            team_a_wins=1 if a_wins else 0,
            team_b_wins=0 if a_wins else 1,
            draws=0,
            version=match.version,
        )
    return round_obj


@pytest.mark.parametrize("sized", WIDTHS, indirect=True)
def test_judge_added_on_the_settings_page_opens_the_judges_clock(live_server, sized, browser):
    page, width = sized
    organizer = UserFactory(username="orga", is_staff=True)
    UserFactory(username="jules", email="jules@example.org")
    event = build_event(organizer, TEAMS[:4])
    log_in(page, live_server, "orga", f"/events/{event.id}/settings/")

    form = page.locator("form[data-staff-add]")
    form.locator("[name=username]").fill("jules@example.org")
    form.locator("[name=role]").select_option("judge")
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text("jules is now judge.")
    expect(page.locator("#staff-list")).to_contain_text("jules")
    fits(page, width)

    judge = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    log_in(judge, live_server, "jules", f"/events/{event.id}/clock/judge/")
    expect(judge.locator("h1")).to_be_visible()
    fits(judge, width)


@pytest.mark.parametrize("sized", WIDTHS, indirect=True)
def test_a_player_opening_the_manage_page_gets_a_styled_403_saying_why(live_server, sized):
    page, width = sized
    organizer = UserFactory(username="orga", is_staff=True)
    event = build_event(organizer, TEAMS[:4])
    player_user = UserFactory(username="alex")
    Player.objects.filter(tournament=event, name="Alex Moreau").update(user=player_user)
    log_in(page, live_server, "alex", f"/events/{event.id}/")

    response = page.goto(f"{live_server.url}/events/{event.id}/manage/")

    assert response.status == 403
    expect(page.locator("header.site .brand")).to_be_visible()
    expect(page.locator("#forbidden-reason")).to_contain_text("your account is not on its staff")
    expect(page.locator("#forbidden-help")).to_contain_text("ask its organizer")
    fits(page, width)


@pytest.mark.parametrize("sized", WIDTHS, indirect=True)
def test_a_csv_of_sixteen_teams_registers_them(live_server, sized):
    page, width = sized
    organizer = UserFactory(username="orga", is_staff=True)
    event = build_event(organizer, [])
    names = [(f"Import Team {n:02d}", f"Player {n:02d} A", f"Player {n:02d} B") for n in range(1, 17)]
    text = "\n".join(f"{t}, {a}, {wizards_id(a)}, {b}, {wizards_id(b)}" for t, a, b in names)
    log_in(page, live_server, "orga", f"/events/{event.id}/manage/")

    page.locator("#teams-import-card summary").click()
    page.locator("form[data-teams-import] [name=csv]").fill(text)
    with page.expect_navigation():
        page.locator("form[data-teams-import] button[type=submit]").click()

    expect(page.locator(".messages")).to_contain_text("16 teams registered.")
    assert Team.objects.filter(tournament=event).count() == 16
    expect(page.locator("#registration-heading")).to_have_text("Registration (16 teams)")
    expect(page.locator("#team-add-card")).to_have_attribute("open", "")
    fits(page, width)


@pytest.mark.parametrize("sized", WIDTHS, indirect=True)
def test_staff_paste_a_list_for_a_player_without_an_account_and_it_is_checked(live_server, sized):
    page, width = sized
    organizer = UserFactory(username="orga", is_staff=True)
    event = build_event(organizer, TEAMS[:2])
    player = Player.objects.get(tournament=event, name="Alex Moreau")
    log_in(page, live_server, "orga", f"/events/{event.id}/decklists/judge/?team={player.team_id}")

    form = page.locator(f'form[data-decklist-for-player="{player.id}"]')
    form.locator("[name=text]").fill("4 Lightning Bolt\n4 Not A Real Card\n52 Mountain")
    with page.expect_navigation():
        form.locator("button[type=submit]").click()

    expect(page.locator(".messages")).to_contain_text("Saved the list of Alex Moreau (version 1, 1 problem).")
    expect(page.locator(f'article[data-player="{player.id}"]')).to_contain_text("Not A Real Card")
    fits(page, width)


@pytest.mark.parametrize("sized", WIDTHS, indirect=True)
def test_after_the_final_the_public_page_names_the_winner_and_round_one_keeps_its_results(live_server, sized):
    page, width = sized
    tournament = event_with_teams(6, swiss_rounds=2, top_cut=4)
    organizer = tournament.created_by
    for _ in range(2):
        play(round_pair(tournament=tournament, actor=organizer), organizer)
    play(cut_build(tournament=tournament, actor=organizer), organizer)
    final = play(round_pair(tournament=tournament, actor=organizer), organizer, a_wins=False)
    winner = final.matches.select_related("team_b").get().team_b
    first = Match.objects.filter(round__tournament=tournament, round__number=1, team_b__isnull=False)

    page.goto(f"{live_server.url}/events/{tournament.id}/")
    expect(page.locator("#winner")).to_contain_text(f"Winner: {winner.name}")
    expect(page.locator("#bracket")).to_contain_text("Round 4: Final")
    fits(page, width)

    page.goto(f"{live_server.url}/events/{tournament.id}/rounds/1/")
    for match in first.select_related("team_a"):
        expect(page.locator(f'#round-results tr[data-match-id="{match.id}"] .result')).to_have_text(
            f"{match.team_a.name} won 1-0"
        )
    fits(page, width)


@pytest.mark.parametrize("sized", WIDTHS, indirect=True)
def test_no_staff_or_public_page_scrolls_sideways(live_server, sized):
    page, width = sized
    organizer = UserFactory(username="orga", is_staff=True)
    event = build_event(organizer, TEAMS)
    round_one = play(round_pair(tournament=event, actor=organizer), organizer)
    team = Team.objects.filter(tournament=event).first()
    log_in(page, live_server, "orga", f"/events/{event.id}/manage/")
    paths = [
        "/",
        "/dashboard/",
        f"/events/{event.id}/",
        f"/events/{event.id}/manage/",
        f"/events/{event.id}/settings/",
        f"/events/{event.id}/audit/",
        f"/events/{event.id}/rounds/1/",
        f"/events/{event.id}/teams/{team.id}/",
        f"/events/{event.id}/clock/",
        f"/events/{event.id}/clock/judge/",
        f"/events/{event.id}/decklists/judge/?team={team.id}",
        f"/events/{event.id}/deckchecks/{round_one.matches.exclude(table=None).first().id}/",
        f"/events/{event.id}/penalties/",
        f"/events/{event.id}/penalties/new/",
        f"/events/{event.id}/print/",
        "/events/new/",
        "/no-such-page/",
    ]
    wide = []
    for path in paths:
        page.goto(f"{live_server.url}{path}")
        found = sideways(page, width)
        if found:
            page.screenshot(
                path=f"/tmp/wide-{width}-{path.strip('/').replace('/', '_') or 'home'}.png", full_page=True
            )
            wide.append((path, found))
    assert wide == []
