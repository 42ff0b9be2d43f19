"""Judges' notes (visible to this event's judges only; the head judge locks) and the DQ report PDF."""

from __future__ import annotations

import subprocess

import pytest

from floor.models import DisqualificationReport, Note
from floor.services.dq_report import dq_report_file
from penalties.services import penalty_issue
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def notes_url(ev) -> str:
    return f"/api/v1/tournaments/{ev.tournament.pk}/notes/"


def test_a_judges_note_is_signed_timestamped_and_only_for_this_events_judges(floor_event):
    ev = floor_event
    created = ev.client(ev.judge).post(
        notes_url(ev),
        {"match": ev.matches[0].pk, "text": "Team 1 shuffled the graveyard back in"},
        format="json",
    )
    assert created.status_code == 201
    body = created.json()
    assert (body["author"], body["match"], body["locked"], body["kind"]) == (
        ev.judge.username,
        ev.matches[0].pk,
        False,
        "note",
    )
    assert body["created_at"]
    for reader in (ev.other_judge, ev.head_judge, ev.organizer):
        listed = ev.client(reader).get(notes_url(ev))
        assert [n["text"] for n in listed.json()] == ["Team 1 shuffled the graveyard back in"]
    for outsider in (ev.players[0], ev.players[1], ev.foreign_judge, ev.scorekeeper, None):
        assert ev.client(outsider).get(notes_url(ev)).status_code in (401, 403)
        assert ev.client(outsider).post(
            notes_url(ev), {"player": ev.player_row(0).pk, "text": "x"}, format="json"
        ).status_code in (401, 403)
    assert Note.objects.count() == 1


def test_notes_about_a_player_or_penalty_filter_and_validate(floor_event):
    ev = floor_event
    player = ev.player_row(2)
    penalty = penalty_issue(
        tournament=ev.tournament,
        actor=ev.judge,
        player=player,
        round_row=ev.round,
        infraction="TE-SP",
        description="slow",
    )
    ev.client(ev.judge).post(notes_url(ev), {"player": player.pk, "text": "second time today"}, format="json")
    statement = ev.client(ev.judge).post(
        notes_url(ev),
        {
            "penalty": penalty.pk,
            "kind": "statement",
            "given_by": "Team 4 player",
            "text": "they waited a minute",
        },
        format="json",
    )
    assert statement.status_code == 201
    by_penalty = ev.client(ev.judge).get(notes_url(ev) + f"?penalty={penalty.pk}").json()
    assert [(n["kind"], n["given_by"]) for n in by_penalty] == [("statement", "Team 4 player")]
    assert [n["text"] for n in ev.client(ev.judge).get(notes_url(ev) + f"?player={player.pk}").json()] == [
        "second time today"
    ]
    nothing = ev.client(ev.judge).post(notes_url(ev), {"text": "about what?"}, format="json")
    assert (nothing.status_code, nothing.json()["errors"][0]["field"]) == (400, "match")
    foreign = ev.client(ev.judge).post(notes_url(ev), {"match": 999999, "text": "x"}, format="json")
    assert (foreign.status_code, foreign.json()["errors"][0]["field"]) == (400, "match")
    unsigned = ev.client(ev.judge).post(
        notes_url(ev), {"player": player.pk, "kind": "statement", "text": "x"}, format="json"
    )
    assert (unsigned.status_code, unsigned.json()["errors"][0]["field"]) == (400, "given_by")


def test_the_head_judge_locks_a_note_for_their_eyes_only(floor_event):
    ev = floor_event
    note_id = (
        ev.client(ev.judge)
        .post(
            notes_url(ev),
            {"player": ev.player_row(0).pk, "text": "possible bribery: offered a split"},
            format="json",
        )
        .json()["id"]
    )
    assert ev.client(ev.judge).post(f"/api/v1/notes/{note_id}/lock/").status_code == 403
    locked = ev.client(ev.head_judge).post(f"/api/v1/notes/{note_id}/lock/")
    assert (locked.status_code, locked.json()["locked"]) == (200, True)
    assert ev.client(ev.judge).get(notes_url(ev)).json() == []
    assert [n["id"] for n in ev.client(ev.head_judge).get(notes_url(ev)).json()] == [note_id]
    assert AuditEntry.objects.filter(action="note.lock", object_id=str(note_id)).count() == 1


def pdf_text(path) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


def test_dq_report_pdf_holds_the_penaltys_facts_and_stays_with_it(floor_event, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    ev = floor_event
    offender = ev.player_row(0)
    penalty = penalty_issue(
        tournament=ev.tournament,
        actor=ev.head_judge,
        player=offender,
        round_row=ev.round,
        infraction="USC-C",
        description="Stacked the deck during the shuffle, seen by two judges",
    )
    ev.client(ev.judge).post(
        notes_url(ev),
        {
            "penalty": penalty.pk,
            "kind": "statement",
            "given_by": "Floor judge Ana",
            "text": "I saw the cards set aside",
        },
        format="json",
    )
    client = ev.client(ev.head_judge)
    client.force_login(ev.head_judge)
    page = f"/events/{ev.tournament.pk}/floor/dq/{penalty.pk}/"
    assert ev.client(ev.judge).get(page).status_code in (302, 403)
    response = client.post(
        page, {"player_statement": "I was only shuffling", "head_judge_statement": "DQ confirmed"}
    )
    assert response.status_code == 302
    report = DisqualificationReport.objects.get(penalty=penalty)
    path = tmp_path / "report.pdf"
    path.write_bytes(report.file.read())
    text = pdf_text(path)
    for fact in (
        "Disqualification report",
        offender.name,
        offender.wizards_id,
        "Friday 2HG",
        "USC-C",
        "Stacked the deck during the shuffle",
        "I was only shuffling",
        "Floor judge Ana",
        "I saw the cards set aside",
        ev.head_judge.username,
    ):
        assert fact in text, fact
    download = client.get(page + "?download=1")
    assert (download.status_code, download["Content-Type"]) == (200, "application/pdf")
    assert download.content[:5] == b"%PDF-"


def test_dq_report_prints_in_the_events_language_whatever_the_head_judges_browser(
    floor_event, settings, tmp_path
):
    settings.MEDIA_ROOT = str(tmp_path)
    ev = floor_event
    type(ev.tournament).objects.filter(pk=ev.tournament.pk).update(language="es")
    ev.tournament.refresh_from_db()
    penalty = penalty_issue(
        tournament=ev.tournament,
        actor=ev.head_judge,
        player=ev.player_row(0),
        round_row=ev.round,
        infraction="USC-C",
        description="Marcó las cartas",
    )

    report = dq_report_file(penalty=penalty, actor=ev.head_judge, player_statement="")

    path = tmp_path / "report.pdf"
    path.write_bytes(report.file.read())
    text = pdf_text(path)
    for heading in ("Informe de descalificación", "Declaración del jugador", "(ninguna)", "Ronda / mesa"):
        assert heading in text, heading
    assert "Disqualification report" not in text
