"""The end-of-round console finishes a table on the spot, without JavaScript: a judge calls time
naming the active team, marks the extra turns and enters the result (so do scorekeeping staff),
audited with whoever entered it."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from tests.floor.test_pages import browser
from tournaments.enums import RoundKind
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


def test_a_plain_judge_finishes_a_table_and_enters_its_result_audited_as_the_judge(floor_event):
    """docs/decisions.md "End-of-round results": an event's judge enters the result at the console."""
    ev = floor_event
    out_of_time(ev)
    table = ev.matches[1]
    console = f"/events/{ev.tournament.pk}/floor/end-of-round/?zone="
    judge = browser(ev.judge)
    page = judge.get(console).content.decode()
    assert f'data-eor-call-time="{table.pk}"' in page and f'data-eor-result="{table.pk}"' in page
    assert 'name="result" value="draw"' in page

    entered = judge.post(
        f"/events/{ev.tournament.pk}/floor/result/{table.pk}/",
        {"result": "a", "version": table.version, "next": console},
        follow=True,
    )
    assert "Table 2: result 1-0-0 entered." in entered.content.decode()
    table.refresh_from_db()
    assert (table.team_a_wins, table.team_b_wins, table.draws, table.confirmed) == (1, 0, 0, True)
    report = ResultReport.objects.get(match=table)
    assert (report.source, report.author_id) == ("staff", ev.judge.pk)
    audit = AuditEntry.objects.get(tournament=ev.tournament, action="match_result_end_of_round")
    assert (audit.actor_id, audit.object_id, audit.after["team_a_wins"]) == (ev.judge.pk, str(table.pk), 1)

    changed = judge.post(
        f"/events/{ev.tournament.pk}/floor/result/{table.pk}/",
        {"result": "b", "version": table.version, "next": console},
        follow=True,
    )
    assert "give a reason to change it" in changed.content.decode()
    assert Match.objects.get(pk=table.pk).team_a_wins == 1


def test_a_playoff_table_offers_no_draw_and_refuses_one(floor_event):
    ev = floor_event
    out_of_time(ev)
    Round.objects.filter(pk=ev.round.pk).update(kind=RoundKind.PLAYOFF)
    table = ev.matches[2]
    console = f"/events/{ev.tournament.pk}/floor/end-of-round/?zone="
    judge = browser(ev.judge)
    page = judge.get(console).content.decode()
    assert f'data-eor-result="{table.pk}"' in page and 'value="draw"' not in page
    refused = judge.post(
        f"/events/{ev.tournament.pk}/floor/result/{table.pk}/",
        {"result": "draw", "version": table.version, "next": console},
        follow=True,
    )
    assert "a playoff match cannot end in a draw" in refused.content.decode()
    assert Match.objects.get(pk=table.pk).has_result is False


def test_only_staff_call_time_and_only_judges_and_scorekeepers_enter_results(floor_event):
    ev = floor_event
    out_of_time(ev)
    table = ev.matches[1]
    for outsider in (ev.players[0], ev.foreign_judge):
        refused = browser(outsider).post(
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
