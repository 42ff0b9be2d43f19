"""Issue 30 in Chromium: a Top 4 match offers no draw. The player's report form at phone width
with JavaScript off has only "We won" and "They won"; on the manage page (JavaScript on) the Key
box of a playoff row takes no draw key, so "d" or "i" chooses nothing."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_event_organizer import log_in
from tests.factories import UserFactory
from tests.tournaments.factories import event_with_teams
from tournaments.models import Match, Player
from tournaments.services.cut import cut_build
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair, round_publish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def top4_semifinal() -> Match:
    """Six teams, two Swiss rounds played, the Top 4 published: table 1's semifinal."""
    tournament = event_with_teams(6, swiss_rounds=2, top_cut=4)
    organizer = tournament.created_by
    for _ in range(2):
        swiss = round_publish(round_row=round_pair(tournament=tournament, actor=organizer), actor=organizer)
        for match in swiss.matches.exclude(team_b=None):
            match_result_report(
                match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=1
            )
    semis = round_publish(round_row=cut_build(tournament=tournament, actor=organizer), actor=organizer)
    return Match.objects.select_related("round__tournament", "team_a", "team_b").get(round=semis, table=1)


def test_a_top4_report_form_at_phone_width_without_javascript_has_no_draw(live_server, browser):
    match = top4_semifinal()
    player = Player.objects.filter(team=match.team_a).order_by("position").first()
    player.user = UserFactory(username="semifinalist")
    player.save(update_fields=["user"])
    page = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False).new_page()

    log_in(page, live_server, "semifinalist", f"/events/{match.round.tournament_id}/me/")

    form = page.locator(f'form[data-report-match-id="{match.id}"]')
    expect(form.get_by_role("button")).to_have_text(["We won", "They won"])
    expect(form.locator("input[name=draw_kind]")).to_have_count(0)
    expect(page.locator("#no-draw")).to_contain_text("A playoff match has no draw")
    page.screenshot(path="/tmp/i30-top4-report-390.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_key_box_of_a_playoff_row_takes_no_draw_key(live_server, page):
    match = top4_semifinal()
    organizer = match.round.tournament.created_by
    log_in(page, live_server, organizer.username, f"/events/{match.round.tournament_id}/manage/")
    row = page.locator(f"#result-{match.id}")
    expect(row.locator("select[name=result] option")).to_have_text(
        ["Result…", f"{match.team_a.name} wins", f"{match.team_b.name} wins"]
    )

    for key in ("d", "i"):
        row.locator("input.key").press(key)
        expect(row.locator("input.key")).to_have_value("")
        expect(row.locator("select[name=result]")).to_have_value("")
    row.locator("input.key").press("2")

    expect(row.locator("input.key")).to_have_value("2")
    expect(row.locator("select[name=result]")).to_have_value("b")
