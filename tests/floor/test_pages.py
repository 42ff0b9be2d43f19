"""Floor pages without JavaScript: every write is a form; the sheet PDF lists the zone's tables."""

from __future__ import annotations

import subprocess

import pytest
from django.test import Client

from clock.services import time_extension_grant
from floor.models import JudgeCall, Note, Zone
from floor.services.calls import judge_call_claim, judge_call_raise
from floor.services.zones import zone_create
from tournaments.models import TimeExtension

pytestmark = pytest.mark.django_db


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_player_calls_a_judge_from_their_page_and_sees_one_is_on_the_way(floor_event):
    ev = floor_event
    player = browser(ev.players[0])
    me = f"/events/{ev.tournament.pk}/me/"
    page = player.get(me).content.decode()
    assert "Call a judge" in page
    response = player.post(
        f"/events/{ev.tournament.pk}/floor/calls/new/",
        {"match": ev.matches[0].pk, "reason": "life total dispute", "next": me},
    )
    assert (response.status_code, response["Location"]) == (302, me)
    call = JudgeCall.objects.get()
    assert (call.match, call.reason) == (ev.matches[0], "life total dispute")
    page = player.get(me).content.decode()
    assert "waiting for a judge" in page and "Call a judge</button>" not in page
    judge_call_claim(call=call, actor=ev.judge)
    assert "A judge is on the way to table 1." in player.get(me).content.decode()


def test_judges_claim_from_the_queue_and_the_second_is_told(floor_event):
    ev = floor_event
    call = judge_call_raise(tournament=ev.tournament, match=ev.matches[1], actor=ev.players[2], reason="")
    queue = f"/events/{ev.tournament.pk}/floor/calls/"
    first, second = browser(ev.judge), browser(ev.other_judge)
    assert "Table 2" in first.get(queue).content.decode()
    claim = f"/events/{ev.tournament.pk}/floor/calls/{call.pk}/claim/"
    assert first.post(claim)["Location"] == f"/events/{ev.tournament.pk}/floor/calls/{call.pk}/"
    refused = second.post(claim, follow=True).content.decode()
    assert f"claimed by {ev.judge.username}" in refused
    assert f"Claimed by {ev.judge.username}" in second.get(queue).content.decode()


def test_resolve_form_grants_the_extension_and_issues_the_penalty(floor_event):
    ev = floor_event
    call = judge_call_raise(tournament=ev.tournament, match=ev.matches[0], actor=ev.players[1], reason="slow")
    judge = browser(ev.judge)
    judge.post(f"/events/{ev.tournament.pk}/floor/calls/{call.pk}/claim/")
    response = judge.post(
        f"/events/{ev.tournament.pk}/floor/calls/{call.pk}/resolve/",
        {
            "note": "timed two turns",
            "extension_minutes": "4",
            "infraction": "TE-SP",
            "player": ev.player_row(0).pk,
        },
    )
    assert response.status_code == 302
    call.refresh_from_db()
    assert (call.status, call.extension.minutes, call.penalty.infraction) == ("resolved", 4, "TE-SP")
    assert TimeExtension.objects.get(match=ev.matches[0]).minutes == 4


def test_pages_are_for_the_right_people(floor_event):
    ev = floor_event
    base = f"/events/{ev.tournament.pk}/floor/"
    for path in ("calls/", "end-of-round/", "zones/"):
        assert browser(ev.scorekeeper).get(base + path).status_code == 200
        assert browser(ev.players[0]).get(base + path).status_code == 403
        assert browser(ev.foreign_judge).get(base + path).status_code == 403
    for path in ("notes/", "deck-checks/", "head-judge/"):
        assert browser(ev.judge).get(base + path).status_code == 200
        assert browser(ev.scorekeeper).get(base + path).status_code == 403


def test_notes_page_adds_and_the_head_judge_locks(floor_event):
    ev = floor_event
    url = f"/events/{ev.tournament.pk}/floor/notes/?match={ev.matches[0].pk}"
    browser(ev.judge).post(
        url, {"text": "Team 2 asked for a deck check", "kind": "note", "match": ev.matches[0].pk}
    )
    note = Note.objects.get()
    assert (note.match, note.author) == (ev.matches[0], ev.judge)
    assert "Team 2 asked for a deck check" in browser(ev.other_judge).get(url).content.decode()
    assert browser(ev.judge).post(url, {"lock": note.pk}).status_code == 403
    browser(ev.head_judge).post(url, {"lock": note.pk})
    assert "Team 2 asked for a deck check" not in browser(ev.other_judge).get(url).content.decode()
    assert "Team 2 asked for a deck check" in browser(ev.head_judge).get(url).content.decode()


def test_zone_console_page_and_turn_marking(floor_event):
    ev = floor_event
    browser(ev.organizer).post(
        f"/events/{ev.tournament.pk}/floor/zones/",
        {"name": "Front", "first_table": "1", "last_table": "2", "judges": ev.judge.username},
    )
    zone = Zone.objects.get()
    assert list(zone.judges.all()) == [ev.judge]
    page = browser(ev.judge).get(f"/events/{ev.tournament.pk}/floor/end-of-round/").content.decode()
    # A judge of the zone opens on their zone.
    assert 'data-table="1"' in page and 'data-table="2"' in page and 'data-table="3"' not in page


def test_outstanding_tables_sheet_lists_each_zones_tables_by_end(floor_event, tmp_path):
    ev = floor_event
    front = zone_create(
        tournament=ev.tournament, actor=ev.organizer, name="Front", first_table=1, last_table=2
    )
    zone_create(tournament=ev.tournament, actor=ev.organizer, name="Back", first_table=3, last_table=4)
    time_extension_grant(match=ev.matches[0], actor=ev.judge, minutes=7, reason="deck check")
    response = browser(ev.scorekeeper).get(
        f"/events/{ev.tournament.pk}/floor/end-of-round/sheet.pdf?round=1&zone={front.pk}"
    )
    assert (response.status_code, response["Content-Type"]) == (200, "application/pdf")
    path = tmp_path / "sheet.pdf"
    path.write_bytes(response.content)
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout
    assert "Outstanding tables · round 1 · Front (tables 1-2)" in text
    lines = [line.split()[0] for line in text.splitlines() if line.strip()[:1].isdigit() and "Team" in line]
    assert lines == ["2", "1"]
    assert "+7" in text and "Team 5" not in text
    every = browser(ev.scorekeeper).get(
        f"/events/{ev.tournament.pk}/floor/end-of-round/sheet.pdf?round=1&zone="
    )
    path.write_bytes(every.content)
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True).stdout
    assert "Pages:           2" in info


def test_an_investigation_gathers_statements_and_the_head_judges_decision(floor_event):
    ev = floor_event
    base = f"/events/{ev.tournament.pk}/floor/investigations/"
    opened = browser(ev.judge).post(
        base, {"title": "Possible bribery at table 3", "player": ev.player_row(4).pk}
    )
    investigation_url = opened["Location"]
    browser(ev.judge).post(
        investigation_url,
        {
            "kind": "statement",
            "given_by": "Team 6 player 1",
            "text": "They offered us a prize split to concede",
        },
    )
    assert browser(ev.judge).post(investigation_url, {"decision": "DQ"}).status_code == 403
    browser(ev.head_judge).post(investigation_url, {"decision": "Bribery (USC-B): Disqualification"})
    page = browser(ev.other_judge).get(investigation_url).content.decode()
    assert "They offered us a prize split to concede" in page
    assert "Bribery (USC-B): Disqualification" in page
    note = Note.objects.get()
    assert (note.kind, note.given_by, note.player, note.author) == (
        "statement",
        "Team 6 player 1",
        ev.player_row(4),
        ev.judge,
    )
    late = browser(ev.judge).post(investigation_url, {"kind": "note", "text": "one more thing"}, follow=True)
    assert "this investigation is decided; it takes no more notes" in late.content.decode()
    assert browser(ev.scorekeeper).get(investigation_url).status_code == 403


def test_call_queue_reads_in_a_fixed_number_of_queries(floor_event, django_assert_max_num_queries):
    ev = floor_event
    client = ev.client(ev.judge)
    url = f"/api/v1/tournaments/{ev.tournament.pk}/judge-calls/"
    judge_call_raise(tournament=ev.tournament, match=ev.matches[0], actor=ev.players[0])
    with django_assert_max_num_queries(6) as one:
        assert len(client.get(url).json()) == 1
    judge_call_raise(tournament=ev.tournament, match=ev.matches[1], actor=ev.players[2])
    judge_call_raise(tournament=ev.tournament, match=ev.matches[2], actor=ev.players[4])
    with django_assert_max_num_queries(len(one.captured_queries)) as three:
        assert len(client.get(url).json()) == 3
    # The same fixed reads, whatever the number of calls (the role lookup may be cached by then).
    assert len(three.captured_queries) <= len(one.captured_queries)


def test_a_judges_floor_speaks_the_judges_language(floor_event):
    """The floor is used on the judge's phone, in the judge's language: what a claim answers and
    why a page is refused are translated like the rest of the page."""
    ev = floor_event
    call = judge_call_raise(tournament=ev.tournament, match=ev.matches[1], actor=ev.players[2], reason="")
    judge = browser(ev.judge)
    judge.cookies["django_language"] = "es"
    player = browser(ev.players[0])
    player.cookies["django_language"] = "es"

    claimed = judge.post(f"/events/{ev.tournament.pk}/floor/calls/{call.pk}/claim/", follow=True)
    refused = player.get(f"/events/{ev.tournament.pk}/floor/calls/")

    assert "La mesa 2 es tuya: ve para allá." in claimed.content.decode()
    assert refused.status_code == 403
    assert "Solo el personal del evento ve las llamadas a jueces." in refused.content.decode()
