"""The slip's QR page (its holder reports for their team, no sign-in) and the scorekeeper's
entry-by-slip page (code or scan, one key per result, next slip)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.tournaments.pages.builders import client_for
from tournaments.enums import StaffRole
from tournaments.models import AuditEntry, Match, Player, ResultReport
from tournaments.slips import slip_code, slip_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(published_round):
    return Match.objects.select_related("round__tournament", "team_a", "team_b").get(
        round=published_round, table=1
    )


def slip_path(match, settings):
    return slip_url(match).removeprefix(settings.PUBLIC_URL)


def signed_in_player(match, side: str) -> Client:
    """A client for a signed-in player of ``side``'s team."""
    team = match.team_a if side == "A" else match.team_b
    player = Player.objects.filter(team=team).order_by("position").first()
    player.user = UserFactory()
    player.save(update_fields=["user"])
    return client_for(player.user)


def test_the_slip_holder_reports_for_the_team_they_choose_and_a_player_of_the_other_team_confirms(
    match, settings
):
    holder, other = Client(), Client()
    page = holder.get(slip_path(match, settings))
    assert f'data-report-match-id="{match.id}"' in page.text and 'name="side"' in page.text

    missing_side = holder.post(slip_path(match, settings), {"result": "ours", "version": 1})
    assert missing_side.status_code == 400 and "Choose your team first." in missing_side.text

    sent = holder.post(slip_path(match, settings), {"result": "ours", "side": "B", "version": 1})
    assert sent.status_code == 302
    again = holder.get(slip_path(match, settings))
    assert f"Waiting for {match.team_a.name} to confirm" in again.text
    row = Match.objects.get(pk=match.pk)
    assert (row.confirmed, row.team_b_wins, row.reported_side) == (False, 1, "B")
    assert ResultReport.objects.get(match=match).source == "slip"

    neutral = other.get(slip_path(match, settings))
    assert f"{match.team_b.name} reported: {match.team_b.name} won" in neutral.text
    player_a = signed_in_player(match, "A")
    assert player_a.post(slip_path(match, settings), {"result": "theirs", "version": 2}).status_code == 302
    assert Match.objects.get(pk=match.pk).confirmed
    assert list(ResultReport.objects.filter(match=match).values_list("source", "side")) == [
        ("slip", "B"),
        ("player", "A"),
    ]


def test_one_slip_on_two_cookie_less_phones_cannot_confirm_the_result(match, settings):
    """The hole: the holder reports for team A on one phone and confirms as team B on another."""
    first_phone, second_phone = Client(), Client()
    assert (
        first_phone.post(
            slip_path(match, settings), {"result": "ours", "side": "A", "version": 1}
        ).status_code
        == 302
    )

    page = second_phone.get(slip_path(match, settings))
    assert "a slip counts for one team only" in page.text and "Confirm:" not in page.text
    assert f'data-report-match-id="{match.id}"' not in page.text
    assert first_phone.get(slip_path(match, settings)).text.count(f'data-report-match-id="{match.id}"') == 1

    refused = second_phone.post(slip_path(match, settings), {"result": "theirs", "side": "B", "version": 2})

    assert refused.status_code == 409
    assert "this result slip already reported for the other team" in refused.text
    row = Match.objects.get(pk=match.pk)
    assert (row.confirmed, row.reported_side, row.version) == (False, "A", 2)
    assert ResultReport.objects.filter(match=match).count() == 1
    disputing = second_phone.post(slip_path(match, settings), {"result": "ours", "side": "B", "version": 2})
    assert disputing.status_code == 409 and not Match.objects.get(pk=match.pk).disputed
    same_phone = first_phone.post(slip_path(match, settings), {"result": "theirs", "side": "B", "version": 2})
    assert same_phone.status_code == 409 and "a slip counts for one team only" in same_phone.text
    row = Match.objects.get(pk=match.pk)
    assert (row.confirmed, row.disputed) == (False, False)
    assert ResultReport.objects.filter(match=match).count() == 1


def test_after_a_slip_report_the_api_takes_a_confirmation_only_from_a_signed_in_player_of_the_other_team(
    match, settings
):
    """The API has no slip path: it takes reports from signed-in players of the match and staff,
    so the slip's holder cannot confirm there either; a player of team B can."""
    Client().post(slip_path(match, settings), {"result": "ours", "side": "A", "version": 1})
    url = f"/api/v1/matches/{match.pk}/result/"
    body = {"team_a_wins": 1, "team_b_wins": 0, "draws": 0, "version": 2}

    assert APIClient().put(url, body, format="json").status_code == 401
    player_a = signed_in_player(match, "A")
    assert player_a.put(url, body, content_type="application/json").status_code == 200
    assert not Match.objects.get(pk=match.pk).confirmed
    body["version"] = 3
    confirmed = signed_in_player(match, "B").put(url, body, content_type="application/json")

    assert confirmed.status_code == 200 and confirmed.json()["confirmed"] is True
    assert list(ResultReport.objects.filter(match=match).values_list("source", "side")) == [
        ("slip", "A"),
        ("player", "A"),
        ("player", "B"),
    ]


def test_a_slip_cannot_confirm_a_players_report_nor_replace_it(match, settings):
    player_a = signed_in_player(match, "A")
    assert player_a.post(slip_path(match, settings), {"result": "ours", "version": 1}).status_code == 302
    assert ResultReport.objects.get(match=match).source == "player"

    holder = Client()
    confirming = holder.post(slip_path(match, settings), {"result": "theirs", "side": "B", "version": 2})
    assert confirming.status_code == 409 and "cannot confirm the other team" in confirming.text
    replacing = holder.post(slip_path(match, settings), {"result": "theirs", "side": "A", "version": 2})
    assert replacing.status_code == 409 and "already reported on their phone" in replacing.text
    assert (Match.objects.get(pk=match.pk).confirmed, ResultReport.objects.filter(match=match).count()) == (
        False,
        1,
    )


def test_entry_by_slip_finds_the_table_by_code_table_or_scan_and_saves_with_one_button(
    event, match, staff_client, settings
):
    scorekeeper = staff_client(StaffRole.SCOREKEEPER)
    url = reverse("tournament-slip-entry", args=[event.id])
    for code in (slip_code(match), str(match.table), slip_url(match)):
        found = scorekeeper.get(url, {"code": code})
        assert found.status_code == 200, code
        assert f'data-slip-match-id="{match.id}"' in found.text
    assert scorekeeper.get(url, {"code": "9-99"}).status_code == 404
    assert scorekeeper.get(url, {"code": f"/slip/{match.id}/0123456789abcdef/"}).status_code == 404

    saved = scorekeeper.post(
        reverse("tournament-slip-entry-save", args=[event.id, match.id]), {"result": "b", "version": 1}
    )

    assert (saved.status_code, saved.url) == (302, url)
    row = Match.objects.get(pk=match.pk)
    assert (row.confirmed, row.team_a_wins, row.team_b_wins) == (True, 0, 1)
    next_slip = scorekeeper.get(url)
    assert f"Table {match.table}: {match.team_b.name} won (1-0)." in next_slip.text
    assert (
        'id="slip-code" name="code" value="" autocomplete="off" inputmode="text" size="12" autofocus'
        in next_slip.text
    )


def test_entry_by_slip_settles_a_dispute_and_a_confirmed_result_needs_a_reason(
    event, match, staff_client, settings
):
    holder = Client()
    holder.post(slip_path(match, settings), {"result": "ours", "side": "A", "version": 1})
    signed_in_player(match, "B").post(slip_path(match, settings), {"result": "ours", "version": 2})
    scorekeeper = staff_client(StaffRole.SCOREKEEPER)
    shown = scorekeeper.get(reverse("tournament-slip-entry", args=[event.id]), {"code": slip_code(match)})
    assert 'data-state="disputed"' in shown.text
    assert f"{match.team_a.name} reported: {match.team_a.name} won" in shown.text
    assert f"{match.team_b.name} reported: {match.team_b.name} won" in shown.text
    save = reverse("tournament-slip-entry-save", args=[event.id, match.id])
    assert scorekeeper.post(save, {"result": "a", "version": 3}).status_code == 302
    assert AuditEntry.objects.filter(action="match_result_decide").count() == 1
    refused = scorekeeper.post(save, {"result": "b", "version": 4})
    assert refused.status_code == 400 and "give a reason" in refused.text
    assert scorekeeper.post(save, {"result": "b", "version": 4, "reason": "slip misread"}).status_code == 302


def test_players_cannot_use_the_entry_by_slip_page(event, outsider_client):
    assert outsider_client.get(reverse("tournament-slip-entry", args=[event.id])).status_code == 403
