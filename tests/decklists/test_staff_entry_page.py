"""Staff enter a list for a player without an account on the team's decklist page; after the
deadline a judge changes it with a reason from the page (issue 19)."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from decklists.models import Decklist
from tests.decklists.realdata import mtgo_text
from tournaments.models import AuditEntry, Player

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def unlinked(event):
    Player.objects.filter(pk=event.b.pk).update(user=None)
    event.b.refresh_from_db()
    return event.b


def test_team_page_offers_a_paste_box_per_player_to_staff(event, unlinked):
    page = logged_in(event.scorekeeper).get(
        reverse("decklists-judge", args=[event.tournament.pk]), {"team": event.team.pk}
    )

    assert page.status_code == 200
    assert f'data-decklist-for-player="{unlinked.pk}"' in page.text
    assert 'name="text"' in page.text
    assert "API or a correction" not in page.text


def test_staff_paste_a_real_list_for_a_player_without_an_account_and_it_is_checked(event, unlinked, records):
    main_only = {**records[0], "side": []}  # 2HG Constructed has no sideboard
    text = mtgo_text(main_only)
    url = reverse("decklist-enter", args=[event.tournament.pk, unlinked.pk])

    scorekeeper = logged_in(event.scorekeeper)
    response = scorekeeper.post(url, {"text": text})

    assert response.status_code == 302
    version = Decklist.objects.get(player=unlinked).current
    assert version.text == text
    assert version.valid, version.errors
    page = scorekeeper.get(response.url)
    assert f"Saved the list of {unlinked.name} (version 1, legal)." in page.text
    assert AuditEntry.objects.filter(action="decklist_submit_for_player").exists()


def test_a_list_with_problems_is_saved_with_its_line_errors(event, unlinked):
    url = reverse("decklist-enter", args=[event.tournament.pk, unlinked.pk])

    scorekeeper = logged_in(event.scorekeeper)
    response = scorekeeper.post(url, {"text": "4 Lightning Bolt\n4 Not A Real Card Name\n"})

    page = scorekeeper.get(response.url)
    version = Decklist.objects.get(player=unlinked).current
    assert not version.valid
    assert "problem" in page.text and "Not A Real Card Name" in page.text


def test_after_the_deadline_a_judge_changes_a_list_with_a_reason(event, unlinked):
    event.tournament.decklist_deadline = timezone.now() - datetime.timedelta(hours=1)
    event.tournament.save(update_fields=["decklist_deadline"])
    url = reverse("decklist-enter", args=[event.tournament.pk, unlinked.pk])
    judge = logged_in(event.judge)
    page = judge.get(reverse("decklists-judge", args=[event.tournament.pk]), {"team": event.team.pk})
    assert 'name="reason"' in page.text

    without = judge.post(url, {"text": "4 Lightning Bolt\n56 Mountain"})
    assert "needs a reason for the audit log" in judge.get(without.url).text
    assert not Decklist.objects.filter(player=unlinked).exists()
    judge.post(url, {"text": "4 Lightning Bolt\n56 Mountain", "reason": "paper list misread"})

    assert Decklist.objects.get(player=unlinked).current.reason == "paper list misread"
    assert AuditEntry.objects.filter(
        action="decklist_change_after_deadline", reason="paper list misread"
    ).exists()


def test_after_the_deadline_a_scorekeeper_gets_no_paste_box(event, unlinked):
    event.tournament.decklist_deadline = timezone.now() - datetime.timedelta(hours=1)
    event.tournament.save(update_fields=["decklist_deadline"])

    page = logged_in(event.scorekeeper).get(
        reverse("decklists-judge", args=[event.tournament.pk]), {"team": event.team.pk}
    )

    assert "data-decklist-for-player" not in page.text


def test_players_cannot_enter_lists_for_others(event, unlinked):
    response = logged_in(event.other_user).post(
        reverse("decklist-enter", args=[event.tournament.pk, unlinked.pk]), {"text": "4 Lightning Bolt"}
    )

    assert response.status_code == 403
    assert not Decklist.objects.filter(player=unlinked).exists()
