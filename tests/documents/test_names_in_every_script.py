"""Names in any script print intact, in the event's language, with the fonts they need.

``pdftotext`` must give back each name as typed (a glyph missing from every font would come out
as nothing or a box), and ``pdffonts`` must list a CJK face embedded for the Japanese names.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from documents.models import DocumentJob
from documents.services import document_render
from tests.factories import UserFactory
from tournaments.registration.planner import PlayerEntry
from tournaments.registration.register import team_register
from tournaments.services.events import tournament_create
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db

TEAMS = {
    "東京ドラゴンズ": ["山田 太郎", "佐藤 花子"],
    "Москва": ["Иван Петров", "Ольга Смирнова"],
    "القاهرة": ["محمد علي", "فاطمة حسن"],
    "ירושלים": ["שרה כהן", "דוד לוי"],
    "Αθήνα": ["Ελένη Παπαδοπούλου", "Νίκος Γεωργίου"],
    "서울": ["김 민수", "이 지은"],
    "São Paulo": ["José Araújo", "Zoë Müller"],
    "Roma": ["Marco Rossi", "Giulia Bianchi"],  # eight teams: no bye, every team has a slip
}


@pytest.fixture
def world_event(tmp_path, settings):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    organizer = UserFactory()
    tournament = tournament_create(
        actor=organizer, name="東京 2HG", language="ja", time_zone="Asia/Tokyo", swiss_rounds=3
    )
    for index, (name, players) in enumerate(TEAMS.items()):
        entries = [
            PlayerEntry(name=p, wizards_id=f"w{index}{k}@world.example.org") for k, p in enumerate(players)
        ]
        team_register(tournament=tournament, actor=organizer, name=name, players=entries)
    return tournament, round_pair(tournament=tournament, actor=organizer)


def _pdf(world_event, kind: str, tmp_path) -> str:
    tournament, round_obj = world_event
    job = document_render(
        job_id=DocumentJob.objects.create(kind=kind, tournament=tournament, round=round_obj).id
    )
    assert job.status == "done", job.error
    path = tmp_path / f"{kind}.pdf"
    with job.file.open("rb") as handle:
        path.write_bytes(handle.read())
    return str(path)


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed: apt-get install poppler-utils")
    return path


def _text(path: str) -> str:
    return subprocess.run([_tool("pdftotext"), path, "-"], check=True, capture_output=True, text=True).stdout


def _fonts(path: str) -> str:
    return subprocess.run([_tool("pdffonts"), path], check=True, capture_output=True, text=True).stdout


@pytest.mark.parametrize("kind", ["pairings_by_table", "pairings_by_name", "result_slips"])
def test_names_in_every_script_print_intact(world_event, tmp_path, kind):
    path = _pdf(world_event, kind, tmp_path)
    text = _text(path)
    for player in (
        "山田 太郎",
        "Иван",
        "Петров",
        "Ελένη",
        "Παπαδοπούλου",
        "José",
        "Araújo",
        "Zoë",
        "김 민수",
    ):
        assert player in text, f"{player!r} missing from {kind}:\n{text}"
    embedded_cjk = [
        line for line in _fonts(path).splitlines() if "Noto-Sans-CJK-JP" in line and line.split()[-5] == "yes"
    ]
    assert embedded_cjk, _fonts(path)


@pytest.mark.parametrize(
    ("kind", "heading"),
    [
        ("pairings_by_table", "テーブル順対戦表 · 第1ラウンド"),
        ("pairings_by_name", "名前順対戦表 · 第1ラウンド"),
    ],
)
def test_a_japanese_event_prints_japanese_headings(world_event, tmp_path, kind, heading):
    text = _text(_pdf(world_event, kind, tmp_path))
    assert heading in text
    assert "1ページ中1ページ" in text
    assert "Pairings" not in text and "Round" not in text


@pytest.mark.parametrize("kind", ["pairings_by_table", "result_slips"])
def test_right_to_left_names_print_intact(world_event, tmp_path, kind):
    """On the slips, both teams' rosters share their lines, a tab apart (``slips._side_by_side``)."""
    text = _text(_pdf(world_event, kind, tmp_path))
    for name in ("محمد علي", "שרה כהן", "ירושלים"):
        assert name in text or name[::-1] in text, f"{name!r} missing:\n{text}"
