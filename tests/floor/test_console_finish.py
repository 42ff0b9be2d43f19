"""The end-of-round console finishes a table on the spot, without JavaScript: a judge calls time
naming the active team, marks the extra turns, and scorekeeping staff enter the result through the
manage page's staff entry."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from tests.floor.test_pages import browser
from tournaments.models import AuditEntry, Match, ResultReport, Round

pytestmark = pytest.mark.django_db


def out_of_time(ev) -> None:
    """The round started an hour and a half ago: every table is past its end."""
    Round.objects.filter(pk=ev.round.pk).update(started_at=timezone.now() - datetime.timedelta(minutes=90))


def test_an_open_table_has_both_forms_and_is_finished_from_the_console(floor_event):
    ev = floor_event
    out_of_time(ev)
    console = f"/events/{ev.tournament.pk}/floor/end-of-round/?round=1&zone="
    head = browser(ev.head_judge)
    page = head.get(console).content.decode()
    table = ev.matches[0]
    assert f'data-eor-call-time="{table.pk}"' in page and f'data-eor-result="{table.pk}"' in page
    assert "call time on the clock page" not in page

    called = head.post(
        f"/events/{ev.tournament.pk}/floor/time-call/{table.pk}/", {"active_team": "B", "next": console}
    )
    assert (called.status_code, called["Location"]) == (302, console)
    table.refresh_from_db()
    assert (table.active_team, table.time_called_at is not None) == ("B", True)
    for _turn in range(4):  # turn 0, then three extra turns (2HG, MTR 2.4)
        head.post(f"/events/{ev.tournament.pk}/floor/turns/{table.pk}/", {"next": console})
    page = head.get(console).content.decode()
    assert "extra turns over (3 of 3)" in page and f'data-eor-result="{table.pk}"' in page

    entered = head.post(
        f"/events/{ev.tournament.pk}/floor/result/{table.pk}/",
        {"result": "b", "version": table.version, "next": console},
        follow=True,
    )
    table.refresh_from_db()
    assert (table.team_a_wins, table.team_b_wins, table.draws, table.confirmed) == (0, 1, 0, True)
    assert ResultReport.objects.get(match=table).source == "staff"
    assert "Table 1: result 0-1-0 entered." in entered.content.decode()
    assert f'data-table="{table.table}"' not in entered.content.decode()
    assert AuditEntry.objects.filter(tournament=ev.tournament, action="match.time_called").count() == 1


def test_a_judge_calls_time_but_only_scorekeeping_staff_enter_results(floor_event):
    ev = floor_event
    out_of_time(ev)
    table = ev.matches[1]
    judge = browser(ev.judge)
    page = judge.get(f"/events/{ev.tournament.pk}/floor/end-of-round/?zone=").content.decode()
    assert f'data-eor-call-time="{table.pk}"' in page and "data-eor-result" not in page
    refused = judge.post(
        f"/events/{ev.tournament.pk}/floor/result/{table.pk}/", {"result": "a", "version": 1}
    )
    assert refused.status_code == 403
    assert (
        browser(ev.scorekeeper)
        .post(f"/events/{ev.tournament.pk}/floor/time-call/{table.pk}/", {"active_team": "A"})
        .status_code
        == 403
    )
    bad = browser(ev.scorekeeper).post(
        f"/events/{ev.tournament.pk}/floor/result/{table.pk}/", {"result": "x", "version": 1}, follow=True
    )
    assert "Table 2: choose who won, or a draw." in bad.content.decode()
    assert Match.objects.get(pk=table.pk).has_result is False
