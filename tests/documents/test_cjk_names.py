"""Japanese, Chinese and Korean names on the printed sheets (issue #18).

Their characters are not in DejaVu Sans: Pango prints them in Noto Sans CJK JP, whose glyphs are
taller and of other widths. ``pdftotext -bbox`` says where each word was drawn, so the sheet is
checked against what the builders assumed: every row on its 8 mm line (a fallback glyph's taller
box must not push the rows below it down the column, apart from the details printed beside them
and off the page's end), and each name as wide as ``documents.textfit`` measured it.
"""

from __future__ import annotations

import pytest

from common.pdf import html_to_pdf
from documents.geometry import STYLESHEET, Stylesheet, layout
from documents.models import DocumentJob
from documents.services import document_render
from documents.templatetags.print_text import fallback_fonts
from documents.textfit import fallback_runs, width_mm
from tests.documents.test_long_names import MARGIN, RIGHT, assert_within_columns, words_of
from tests.factories import UserFactory
from tournaments.registration.planner import PlayerEntry
from tournaments.registration.register import team_register
from tournaments.services.events import tournament_create
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db

#: The page between its header (10 + 17 mm) and the footer, in mm from the top.
BODY = (27, 281)

#: Family name first, as written; Japanese with a space, Chinese and Korean mostly without.
TEAMS = {
    "東京ドラゴンズ": ["山田 太郎", "佐藤 花子"],
    "大阪タイガース": ["鈴木 一郎", "高橋 美咲"],
    "名古屋ウィザーズ": ["田中 健太", "伊藤 さくら"],
    "北京龙队": ["王芳", "李伟"],
    "上海之星": ["张丽", "刘洋"],
    "台北法師": ["陳建宏", "林美玲"],
    "서울 드래곤즈": ["김민준", "이서연"],
    "부산 마법사": ["박지훈", "최수아"],
    "인천 기사단": ["정우진", "강하은"],
    "京都ミラージュ": ["渡辺 翔", "山本 彩"],
    "広州火焰": ["黄磊", "赵敏"],
    "대구 스톰": ["윤도현", "장민서"],
    "札幌スノウ": ["中村 大輔", "小林 结衣"],
    "成都熊猫": ["周杰", "吴静"],
    "광주 피닉스": ["임재현", "한지민"],
    "福岡ソニック": ["加藤 亮", "吉田 真由"],
}


@pytest.fixture
def cjk_event(tmp_path, settings):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    organizer = UserFactory()
    tournament = tournament_create(actor=organizer, name="アジア 2HG", language="ja", swiss_rounds=3)
    for index, (name, players) in enumerate(TEAMS.items()):
        entries = [
            PlayerEntry(name=p, wizards_id=f"c{index}{k}@cjk.example.org") for k, p in enumerate(players)
        ]
        team_register(tournament=tournament, actor=organizer, name=name, players=entries)
    return tournament, round_pair(tournament=tournament, actor=organizer)


def by_name(cjk_event, tmp_path):
    tournament, round_obj = cjk_event
    job = document_render(
        job_id=DocumentJob.objects.create(kind="pairings_by_name", tournament=tournament, round=round_obj).id
    )
    assert job.status == "done", job.error
    path = tmp_path / "by_name.pdf"
    with job.file.open("rb") as handle:
        path.write_bytes(handle.read())
    return words_of(path)[0]


def test_rows_with_cjk_names_stay_on_their_lines_beside_their_details(cjk_event, tmp_path):
    words = by_name(cjk_event, tmp_path)
    row_mm = Stylesheet(STYLESHEET.read_text(encoding="utf-8")).mm(".byname-head", "line-height")
    rows = layout().name_rows["A4"]
    first_column = [w for w in words if BODY[0] < w.y0 < BODY[1] and w.x1 <= MARGIN + 95]
    tables = sorted((w for w in first_column if w.text.isdigit() and w.x1 < MARGIN + 16), key=lambda w: w.y0)
    # Each detail line ("team · points · vs ...") by its first separator.
    details = sorted({round(w.y0, 1): w for w in first_column if w.text == "·"}.values(), key=lambda w: w.y0)
    details = [w for k, w in enumerate(details) if k == 0 or w.y0 - details[k - 1].y0 > 1]

    assert len(tables) == len(details) == rows, "a row fell off the column"
    for k, (table, detail) in enumerate(zip(tables, details, strict=True)):
        assert table.y0 == pytest.approx(tables[0].y0 + k * row_mm, abs=0.3), (k, table)
        assert detail.y0 == pytest.approx(details[0].y0 + k * row_mm, abs=0.3), (k, detail)
    assert_within_columns(words, [(MARGIN, MARGIN + 95), (MARGIN + 97, RIGHT)], BODY)


@pytest.mark.parametrize("bold", [False, True])
def test_cjk_names_are_as_wide_as_textfit_measures_them(tmp_path, bold):
    """Each name printed as the documents print it (a ``.pre`` line, the ``fallback_fonts``
    filter, print.css) between two bars: the gap between the bars is the name's width. Before,
    a Korean name measured 9% wider than printed and a space between CJK words 40% (Pango
    kept the CJK face for it), so names were shortened that fitted."""
    names = [name for members in TEAMS.values() for name in members] + [*TEAMS, "Zoë 山田 (3 pts)"]
    weight = "font-weight: bold;" if bold else ""
    lines = "".join(
        f'<div class="pre" style="position: static; font-size: 12pt; line-height: 10mm; {weight}">|{fallback_fonts(n)}|</div>'
        for n in names
    )
    path = tmp_path / "names.pdf"
    css = STYLESHEET.read_text(encoding="utf-8")
    path.write_bytes(html_to_pdf(f"<html><head><style>{css}</style></head><body>{lines}</body></html>"))
    bar = width_mm("|", 12, bold=bold)
    rows: dict[tuple[int, int], list] = {}
    for page, words in enumerate(words_of(path)):
        for word in words:  # 10 mm lines below a 10 mm margin
            rows.setdefault((page, int(((word.y0 + word.y1) / 2 - 10) // 10)), []).append(word)

    assert len(rows) == len(names)
    for name, row in zip(names, (rows[y] for y in sorted(rows)), strict=True):
        printed = max(w.x1 for w in row) - min(w.x0 for w in row) - 2 * bar
        # Never narrower than printed (the text after it would overflow), at most 2% wider:
        # Noto's kerning narrows a few kana pairs, as DejaVu's does Latin ones.
        assert printed - 0.05 <= width_mm(name, 12, bold=bold) <= printed * 1.02, name


def test_fallback_runs_keep_spaces_inside_a_cjk_name_and_break_at_lines():
    assert fallback_runs("  3  山田 太郎\n  4  김 민수") == [
        ("  3  ", False),
        ("山田 太郎", True),
        ("\n  4  ", False),
        ("김 민수", True),
    ]
    assert fallback_runs("Zoë 王芳 (3 pts)") == [("Zoë ", False), ("王芳", True), (" (3 pts)", False)]
    assert fallback_runs("\u2068שרה כהן\u2069 · Иван") == [("\u2068שרה כהן\u2069 · Иван", False)]
