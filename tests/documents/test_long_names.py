"""Long team and player names never push points, players, seats or the footer off the paper.

How this is checked: ``pdftotext -bbox`` (poppler) lists every word of a page with its box. Text
clipped by a column's ``overflow: hidden`` is still in the PDF's text layer, so finding a word in
the extracted text proves nothing; but its box still says where it was drawn. So each document's
words are checked against the column geometry of ``static/pdf/print.css`` (page margin 8 mm +
the column's left and width): every word must lie inside one column, and no two words on one line
may overlap (text running past its column lands on its neighbour's). Together with the needed
words being present (every team's "(N pts)", both players, the seat notes), that shows nothing a
reader needs is cut, whichever way the text is shortened.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from dataclasses import dataclass

import pytest

from documents import builders
from documents.models import DocumentJob
from documents.services import document_render
from tests.conftest import IN_CI
from tests.documents.conftest import pages_text, pdf_of
from tests.factories import UserFactory
from tournaments.models import Match
from tournaments.registration.planner import PlayerEntry
from tournaments.registration.register import team_register
from tournaments.services.events import tournament_create
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db

EVENT = "Store Championship 2HG – Winter Season Finale"
LONG_TEAM = "The Extremely Long Team Name Of Doom"
LONGEST_TEAM = ("Longest Possible Name Of A Two-Headed Giant Team " * 3)[:100]
TEAMS = {
    LONG_TEAM: ["Maximiliana Featherstonehaugh", "Bartholomew Worthington-Smythe"],
    "Another Remarkably Verbose Team Name": ["Wilhelmina Montgomery-Fitzgerald", "Ann Lee"],
    LONGEST_TEAM: ["Al Bo", "Cy Do"],
    "Short": ["Ed Fu", "Gi Ho"],
}
PT = 25.4 / 72
MARGIN = 8
RIGHT = 210 - MARGIN
BODY = (34, 281)
FOOTER = (281, 297)


@dataclass(frozen=True)
class Word:
    text: str
    x0: float
    y0: float
    x1: float
    y1: float


@pytest.fixture
def long_event():
    organizer = UserFactory()
    tournament = tournament_create(actor=organizer, name=EVENT, swiss_rounds=3)
    for index, (name, players) in enumerate(TEAMS.items()):
        entries = [
            PlayerEntry(name=p, wizards_id=f"p{index}{k}@long.example.org") for k, p in enumerate(players)
        ]
        team_register(tournament=tournament, actor=organizer, name=name, players=entries)
    return tournament, round_pair(tournament=tournament, actor=organizer)


def render(long_event, kind: str, tmp_path) -> tuple[list[list[Word]], str]:
    tournament, round_obj = long_event
    job = document_render(
        job_id=DocumentJob.objects.create(kind=kind, tournament=tournament, round=round_obj).id
    )
    assert job.status == "done", job.error
    path = tmp_path / f"{kind}.pdf"
    with job.file.open("rb") as handle:
        path.write_bytes(handle.read())
    return words_of(path), "\n".join(pages_text(pdf_of(job)))


def words_of(path) -> list[list[Word]]:
    """Per page, every word with its box in mm from the page's top left corner."""
    pdftotext = shutil.which("pdftotext")
    if pdftotext is None:
        message = "poppler-utils (pdftotext) is not installed: apt-get install poppler-utils"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    out = subprocess.run(
        [pdftotext, "-bbox", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout
    pages = []
    for page in out.split("<page ")[1:]:
        pages.append(
            [
                Word(html.unescape(text), *(float(v) * PT for v in box))
                for *box, text in re.findall(
                    r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>',
                    page,
                )
            ]
        )
    return pages


def assert_within_columns(words: list[Word], columns: list[tuple[float, float]], band: tuple[float, float]):
    inside = [w for w in words if band[0] <= w.y0 < band[1]]
    assert inside
    for word in inside:
        assert any(left - 0.3 <= word.x0 and word.x1 <= right + 0.3 for left, right in columns), word
    lines: dict[int, list[Word]] = {}
    for word in inside:
        lines.setdefault(round(word.y0 * 2), []).append(word)
    for line in lines.values():
        line.sort(key=lambda w: w.x0)
        for left, right in zip(line, line[1:], strict=False):
            assert right.x0 >= left.x1 - 0.2, (left, right)


def line_text(words: list[Word], y: float) -> str:
    return " ".join(w.text for w in sorted(words, key=lambda w: w.x0) if abs(w.y0 - y) < 0.5)


def test_pairings_by_table_keep_points_and_both_players_of_long_names(long_event, tmp_path):
    pages, text = render(long_event, "pairings_by_table", tmp_path)

    columns = [
        (MARGIN, MARGIN + 15),
        (MARGIN + 18, MARGIN + 100),
        (MARGIN + 101, MARGIN + 109),
        (MARGIN + 110, RIGHT),
    ]
    assert_within_columns(pages[0], columns, BODY)
    assert text.count("(0 pts)") == 4
    for players in TEAMS.values():
        for player in players:
            assert player.split()[0] in text, player
    assert "Short" in text


def test_pairings_by_name_keep_points_and_every_opponent_surname(long_event, tmp_path):
    tournament, round_obj = long_event
    pages, text = render(long_event, "pairings_by_name", tmp_path)
    details = builders.pairings_by_name(tournament, round_obj, "A4")["pages"][0]["columns"][0]["details"]
    opponents = {}
    for match in (
        Match.objects.filter(round=round_obj).exclude(team_b=None).select_related("team_a", "team_b")
    ):
        opponents[match.team_a.name] = TEAMS[match.team_b.name]
        opponents[match.team_b.name] = TEAMS[match.team_a.name]

    assert_within_columns(pages[0], [(MARGIN, MARGIN + 95), (MARGIN + 97, RIGHT)], BODY)
    lines = details.splitlines()
    assert len(lines) == 8
    for line in lines:
        assert line in text
        assert " · 0 pts · vs " in line and line.endswith(")")
        team = next(name for name in TEAMS if line.startswith(name[:3]))
        for player in opponents[team]:
            assert player.split()[-1][:9] in line, (line, player)
    short_pairs = [players for players in TEAMS.values() if sum(len(p.split()[-1]) for p in players) < 15]
    for players in short_pairs:
        assert f"({', '.join(p.split()[-1] for p in players)})" in text


def test_result_slips_keep_whole_team_names_seats_and_the_slow_play_boxes(long_event, tmp_path):
    pages, text = render(long_event, "result_slips", tmp_path)
    flat = " ".join(text.split())

    for page in pages:
        for top in (10, 10 + 135.5):
            band = (top + 20, top + 47)
            assert_within_columns(page, [(MARGIN + 3, MARGIN + 95), (MARGIN + 99, MARGIN + 191)], band)
            turns = [w for w in page if top + 63 <= w.y0 < top + 70]
            assert turns and max(w.x1 for w in turns) <= RIGHT - 3
    assert LONG_TEAM in flat
    assert LONGEST_TEAM[:40] in flat
    assert flat.count("(secondary, left)") == 4 and flat.count("(primary, right)") == 4
    assert flat.count("(0 pts)") == 4
    assert "Maximiliana Featherstonehaugh" in flat and "Bartholomew Worthington-Smythe" in flat
    slip = pages[0]
    turns_y = next(w.y0 for w in slip if w.text == "Slow")
    assert line_text(slip, turns_y) == (
        "End of round, turn: 0 ☐ active team 1 ☐ other 2 ☐ active 3 ☐ other Slow Play +2 ☐☐ +2 ☐☐"
    )


def test_standings_keep_both_players_and_the_columns_after_long_names(long_event, tmp_path):
    pages, text = render(long_event, "standings", tmp_path)

    columns = [
        (MARGIN, MARGIN + 9),
        (MARGIN + 11, MARGIN + 59),
        (MARGIN + 61, MARGIN + 119),
        (MARGIN + 121, MARGIN + 136),
        (MARGIN + 137, MARGIN + 147),
        (MARGIN + 148, MARGIN + 157),
        (MARGIN + 158, RIGHT),
    ]
    assert_within_columns(pages[0], columns, BODY)
    assert "· Ann Lee" in text and "Al Bo · Cy Do" in text


@pytest.mark.parametrize("kind", ["pairings_by_table", "result_slips", "standings"])
def test_footer_keeps_the_round_apart_from_the_generation_time(long_event, tmp_path, kind):
    pages, _ = render(long_event, kind, tmp_path)

    footer = [w for w in pages[0] if w.y0 >= FOOTER[0]]
    assert_within_columns(
        pages[0], [(MARGIN, MARGIN + 71), (MARGIN + 71, MARGIN + 123), (MARGIN + 123, RIGHT)], FOOTER
    )
    generated = next(w for w in footer if w.text == "Generated")
    left = [w for w in footer if w.x1 <= generated.x0]
    assert " ".join(w.text for w in left).endswith("· Round 1")
    assert left[0].text == "Store" and generated.x0 - max(w.x1 for w in left) > 3
    # pypdf joins separately placed runs of one line without a space whatever the gap between them
    # ("…· Round 1Generated …" was that, plus boxes with no room); poppler's layout mode keeps the gap.
    layout = subprocess.run(
        [shutil.which("pdftotext"), "-layout", "-f", "1", "-l", "1", str(tmp_path / f"{kind}.pdf"), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert re.search(r"Store Championship 2HG – Winter Seas… · Round 1 {3,}Generated \d{4}-", layout)
