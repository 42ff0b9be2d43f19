"""Each document kind rendered through the service, read back with pypdf: content, order, pages."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from common.pdf import Underlay, html_to_pdf, merge_pdfs
from documents.models import DocumentJob
from documents.services import document_render
from documents.slips import slip_order
from tests.documents.conftest import TEAM_NAMES, non_white_fraction, pages_text, pdf_of
from tournaments.models import Match, Team
from tournaments.services.participation import team_drop

pytestmark = pytest.mark.django_db


def render(event, kind: str, paper: str = "A4") -> DocumentJob:
    job = DocumentJob.objects.create(kind=kind, tournament=event.tournament, round=event.round, paper=paper)
    document_render(job_id=job.id)
    job.refresh_from_db()
    assert job.status == "done", job.error
    return job


def flat(text: str) -> str:
    return " ".join(text.split())


def assert_footer(text: str, event) -> None:
    assert "Friday Night 2HG <Store>" in text
    assert "Round 1" in text
    assert re.search(r"Generated \d{4}-\d\d-\d\d \d\d:\d\d", text)


@pytest.mark.parametrize("paper", ["A4", "letter"])
def test_pairings_by_table_lists_every_table_in_order_and_the_bye_last(event, paper):
    job = render(event, "pairings_by_table", paper)
    reader = pdf_of(job)
    text = flat("\n".join(pages_text(reader)))

    assert len(reader.pages) == 1 == job.page_count
    assert_footer(text, event)
    assert "Page 1 of 1" in text
    for team in TEAM_NAMES:
        assert team in text
    for person in event.players:
        assert person in text
    matches = list(Match.objects.filter(round=event.round).exclude(table=None).order_by("table"))
    positions = [text.index(m.team_a.name) for m in matches]
    assert positions == sorted(positions)
    bye = Match.objects.get(round=event.round, table=None)
    assert "BYE (3 pts)" in text
    assert text.index(bye.team_a.name) > positions[-1]
    assert "► " in text


def test_pairings_by_name_lists_every_player_alphabetically_with_table_and_opponents(event):
    job = render(event, "pairings_by_name")
    reader = pdf_of(job)
    text = "\n".join(pages_text(reader))

    assert len(reader.pages) == 1
    assert_footer(flat(text), event)
    by_last = sorted(event.players, key=lambda name: (name.split()[-1].casefold(), name.casefold()))
    lines = [line for line in text.splitlines() if "," in line and re.match(r"^\s*(\d+|BYE)\s", line)]
    names = [re.sub(r"^\s*(\d+|BYE)\s+", "", line).strip() for line in lines]
    expected = [f"{name.split()[-1]}, {' '.join(name.split()[:-1])}" for name in by_last]
    assert names == expected
    table_of = {
        player.name: str(match.table) if match.table else "BYE"
        for match in Match.objects.filter(round=event.round).select_related("team_a", "team_b")
        for team in (match.team_a, match.team_b)
        if team
        for player in team.players.all()
    }
    for line, name in zip(lines, by_last, strict=True):
        assert line.split()[0] == table_of[name]
    assert "0 pts · vs " in text


def test_result_slips_one_per_table_in_cut_stack_order(event):
    job = render(event, "result_slips")
    reader = pdf_of(job)
    pages = pages_text(reader)

    tables = list(Match.objects.filter(round=event.round).exclude(table=None).order_by("table"))
    assert len(tables) == 4
    assert len(reader.pages) == 2
    assert [re.findall(r"TABLE (\d+)", page) for page in pages] == [["1", "3"], ["2", "4"]]
    text = flat("\n".join(pages))
    assert_footer(text, event)
    for match in tables:
        for team in (match.team_a, match.team_b):
            assert team.name in text
            for player in team.players.all():
                assert player.name in text
    assert text.count("drops the WHOLE TEAM") == 4
    assert text.count("☐ Drop") == 16
    assert text.count("End of round, turn: 0 ☐ active team 1 ☐ other 2 ☐ active 3 ☐ other") == 4
    assert text.count("Slow Play +2 ☐☐ +2 ☐☐") == 4
    assert text.count("Penalties (judge use)") == 4
    assert text.count("☐ Draw") == 4


def test_slip_order_keeps_table_order_when_the_stack_is_cut_in_half():
    pages = slip_order(list(range(1, 8)))

    assert pages == [[1, 5], [2, 6], [3, 7], [4]]
    assert [top for top, *_ in pages] + [bottom for _, *rest in pages for bottom in rest] == list(range(1, 8))


def test_underlay_draws_each_form_under_its_pages_and_stores_it_once():
    break_before = '<p style="page-break-before: always">'
    forms = html_to_pdf(f"<p>FORM-ZERO</p>{break_before}FORM-ONE</p>")
    document = html_to_pdf(f"<p>PAGE-A</p>{break_before}PAGE-B</p>")

    pdf = merge_pdfs([document], underlay=Underlay(forms, [[(0, 0), (1, 0), (1, -300)], [(0, 0)]]))
    first, second = (page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)

    assert first.count("FORM-ONE") == 2 and "FORM-ZERO" in first and "PAGE-A" in first
    assert "FORM-ONE" not in second and "FORM-ZERO" in second and "PAGE-B" in second
    assert pdf.count(b"/Subtype /Form") == 2


def test_standings_after_round_one_with_record_points_and_tiebreakers(event):
    for match in Match.objects.filter(round=event.round).exclude(table=None):
        Match.objects.filter(pk=match.pk).update(
            result_kind="played", team_a_wins=1, team_b_wins=0, confirmed=True
        )
    event.round.finished_at = event.round.created_at
    event.round.save(update_fields=["finished_at"])
    job = render(event, "standings")
    text = flat("\n".join(pages_text(pdf_of(job))))

    assert_footer(text, event)
    assert "Standings after round 1" in text
    assert "OMW%" in text and "MP" in text and "W-L-D" in text
    for team in TEAM_NAMES:
        assert team in text
    assert "1-0-0" in text and "0-1-0" in text


def test_decklist_sheets_one_team_per_page_with_identifiers(event):
    job = render(event, "decklists")
    reader = pdf_of(job)
    pages = pages_text(reader)

    assert len(reader.pages) == len(TEAM_NAMES)
    for page, team in zip(pages, sorted(TEAM_NAMES), strict=True):
        assert f"Decklist registration · {team}" in page
    text = flat("\n".join(pages))
    for person in event.players:
        assert person in text
    assert "Modern" in text and "REL Regular" in text
    assert event.tournament.players.first().wizards_id in text


def test_penalty_report_without_penalties_says_so(event):
    job = render(event, "penalties")
    text = flat("\n".join(pages_text(pdf_of(job))))

    assert "No penalties recorded." in text
    assert "Friday Night 2HG <Store>" in text


def test_first_page_is_not_blank(event, pdftoppm, tmp_path):
    job = render(event, "pairings_by_table")

    assert non_white_fraction(job.file.path, pdftoppm, tmp_path) > 0.01


def test_standings_mark_a_dropped_team_in_the_events_language(event):
    event.tournament.language = "es"
    event.tournament.save(update_fields=["language"])
    leaver = Team.objects.get(tournament=event.tournament, name=TEAM_NAMES[0])
    team_drop(team=leaver, actor=event.organizer, reason="se fue a casa")
    text = flat("\n".join(pages_text(pdf_of(render(event, "standings")))))

    assert f"{TEAM_NAMES[0]} (retirado)" in text
    assert "(dropped)" not in text
