"""The printed documents' geometry comes from ``static/pdf/print.css`` (``documents.geometry``).

Two kinds of proof: changing the stylesheet's text changes what the builders lay out with (so
nothing is a second copy), and the rows per page the builders count are the rows the rendered
PDFs show on a full page, every row of the event printed once (``pdftotext -bbox`` finds them).
"""

from __future__ import annotations

import re

import pytest

from documents.enums import Paper
from documents.geometry import STYLESHEET, GeometryError, Layout, Stylesheet, layout
from documents.models import DocumentJob
from documents.services import document_render
from tests.documents.test_long_names import words_of
from tests.factories import UserFactory
from tournaments.models import Team
from tournaments.registration.planner import PlayerEntry
from tournaments.registration.register import team_register
from tournaments.services.events import tournament_create
from tournaments.services.manual_pairing import round_pair_manual

CSS = STYLESHEET.read_text(encoding="utf-8")


def edited(old: str, new: str) -> Layout:
    assert CSS.count(old) == 1, old
    return Layout.from_css(Stylesheet(CSS.replace(old, new)))


def test_rows_per_page_follow_the_row_heights_and_the_page_in_the_stylesheet():
    shipped = layout()
    assert edited(".rules div { height: 12mm;", ".rules div { height: 10mm;").table_rows == {
        Paper.A4: (254 - 6) // 10,
        Paper.LETTER: int((236.4 - 6) // 10),
    }
    taller_letter = edited(
        ".paper-letter .sheet { height: 253.4mm; }", ".paper-letter .sheet { height: 271mm; }"
    )
    assert taller_letter.standings_rows[Paper.LETTER] == shipped.standings_rows[Paper.A4]
    assert taller_letter.name_rows[Paper.A4] == shipped.name_rows[Paper.A4]
    assert edited(".doc-head { height: 17mm;", ".doc-head { height: 33mm;").name_rows == {
        Paper.A4: shipped.name_rows[Paper.A4] - 2,
        Paper.LETTER: shipped.name_rows[Paper.LETTER] - 2,
    }


def test_columns_fonts_slips_and_the_qr_code_follow_the_stylesheet():
    wider = edited(".tbl-b { left: 110mm; width: 84mm; }", ".tbl-b { left: 110mm; width: 90mm; }")
    assert wider.table_team["B"].mm == wider.table_players["B"].mm == 90
    assert edited(".tbl-team { font-size: 10.5pt;", ".tbl-team { font-size: 11pt;").table_team["A"].pt == 11
    assert (
        edited(
            "@bottom-left { content: string(footevent); width: 71mm;",
            "@bottom-left { content: string(footevent); width: 60mm;",
        ).foot_event.mm
        == 60
    )
    assert edited(
        ".paper-letter .slip { height: 126.7mm; }", ".paper-letter .slip { height: 120mm; }"
    ).slip_mm == {
        Paper.A4: 135.5,
        Paper.LETTER: 120,
    }
    assert edited(
        ".paper-letter .slip-qr { top: 107.5mm; width: 17mm;",
        ".paper-letter .slip-qr { top: 100mm; width: 2cm;",
    ).slip_qr[Paper.LETTER] == (20, 100, 3)
    # A Letter rule overrides only what it sets; calc() of mixed units is added up.
    assert layout().slip_qr[Paper.LETTER][2] == layout().slip_qr[Paper.A4][2] == 3
    assert layout().slip_team.mm == pytest.approx(92 - 2 * 25.4 / 72 - 3)
    assert edited("margin: 10mm 8mm 16mm 8mm;", "margin: 10mm 12mm;").head_event[Paper.A4].mm == 210 - 24


def test_a_missing_rule_or_property_fails_naming_it():
    with pytest.raises(GeometryError, match=r"no rule for '\.st-rules div'"):
        Layout.from_css(Stylesheet(CSS.replace(".st-rules div { height: 6.5mm; }", "")))
    with pytest.raises(GeometryError, match=r"'\.byname-detail' sets no 'font-size'"):
        edited("width: 79mm; font-size: 7.5pt;", "width: 79mm;")
    with pytest.raises(GeometryError, match=r"'\.slip' 'height': '50%' is not a length"):
        edited(".slip { position: relative; height: 135.5mm;", ".slip { position: relative; height: 50%;")


def test_the_fixed_pages_fill_the_page_inside_its_margins():
    """``.sheet``'s heights are the page's less its margins: the one sum print.css writes out."""
    css, shipped = Stylesheet(CSS), layout()
    top, _, bottom, _ = shipped.margins_mm
    for paper in Paper:
        assert css.mm(".sheet", "height", paper=paper) == pytest.approx(
            shipped.page_mm[paper][1] - top - bottom
        )
        assert 2 * shipped.slip_mm[paper] <= css.mm(".sheet", "height", paper=paper)


TEAMS = 46


@pytest.fixture
def full_pages(db, tmp_path, settings):
    """46 teams, paired in registration order: more than a full first page of every document."""
    settings.MEDIA_ROOT = str(tmp_path / "media")
    organizer = UserFactory()
    tournament = tournament_create(actor=organizer, name="Geometry Open", swiss_rounds=3)
    for index in range(TEAMS):
        players = [
            PlayerEntry(name=f"Player{index}{seat} Surname", wizards_id=f"g{index}{seat}@x.org")
            for seat in "ab"
        ]
        team_register(tournament=tournament, actor=organizer, name=f"Team{index:02d}", players=players)
    ids = list(Team.objects.filter(tournament=tournament).order_by("id").values_list("id", flat=True))
    round_obj = round_pair_manual(
        tournament=tournament,
        actor=organizer,
        matches=[(ids[i], ids[i + 1]) for i in range(0, TEAMS, 2)],
        reason="every page full",
    )
    return tournament, round_obj


def rendered(full_pages, kind, paper, tmp_path):
    tournament, round_obj = full_pages
    job = DocumentJob.objects.create(kind=kind, tournament=tournament, round=round_obj, paper=paper)
    job = document_render(job_id=job.id)
    assert job.status == "done", job.error
    path = tmp_path / f"{kind}-{paper}.pdf"
    with job.file.open("rb") as handle:
        path.write_bytes(handle.read())
    return words_of(path)


@pytest.mark.parametrize("paper", list(Paper))
@pytest.mark.parametrize(
    ("kind", "pattern", "rows"),
    [
        # Each row names its team once, in bold, in the team column; pairings by name, each player.
        ("pairings_by_table", r"Team\d\d", lambda g, paper: 2 * g.table_rows[paper]),
        ("standings", r"Team\d\d", lambda g, paper: g.standings_rows[paper]),
        ("pairings_by_name", r"Player\d+[ab]", lambda g, paper: 2 * g.name_rows[paper]),
    ],
)
def test_a_full_page_prints_the_rows_the_builders_count(full_pages, tmp_path, kind, pattern, rows, paper):
    pages = rendered(full_pages, kind, paper, tmp_path)
    per_page = [sorted(w.text for w in words if re.fullmatch(pattern, w.text)) for words in pages]

    assert len(per_page[0]) == rows(layout(), paper)
    printed = [name for page in per_page for name in page]
    expected = TEAMS if kind != "pairings_by_name" else 2 * TEAMS
    assert len(printed) == len(set(printed)) == expected
