"""A small 2HG event paired through the real services, and helpers to read the PDFs it prints."""

from __future__ import annotations

import io
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from documents.models import DocumentJob
from tests.factories import UserFactory
from tournaments.models import Round, Tournament
from tournaments.registration.planner import PlayerEntry
from tournaments.registration.register import team_register
from tournaments.services.events import tournament_create
from tournaments.services.rounds import round_pair

FIRST = ["Ava", "Ben", "Chloe", "Dmitri", "Elif", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kofi", "Lena"]
LAST = [
    "Zimmer",
    "Young",
    "Xu",
    "Walsh",
    "Vega",
    "Ueda",
    "Tanaka",
    "Silva",
    "Rossi",
    "Quinn",
    "Park",
    "Olsen",
]
#: Nine teams: an odd count, so round 1 has four tables and a bye.
TEAM_NAMES = [
    "Mox & Friends",
    "Lifegain Lovers",
    "The Twin Dragons",
    "Storm Crows",
    "Goblin Guide Tours",
    "Rakdos Rhythm",
    "Sultai Soup",
    "Azorius Audit",
    "Gruul Smash",
]


@dataclass
class Event:
    tournament: Tournament
    round: Round
    organizer: object
    players: dict[str, str]  # player name -> team name


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    """Each test stores its PDFs apart, except in the service run, where the live worker writes to
    the ``MEDIA_ROOT`` it was started with and the tests must read the same folder."""
    from tests.conftest import live_worker_expected

    if not (settings.REDIS_URL and live_worker_expected()):
        settings.MEDIA_ROOT = str(tmp_path / "media")


def build_event(team_count: int = len(TEAM_NAMES), name: str = "Friday Night 2HG <Store>") -> Event:
    organizer = UserFactory()
    tournament = tournament_create(actor=organizer, name=name, venue="Dragon's Lair", swiss_rounds=3)
    players = {}
    for index, team_name in enumerate(TEAM_NAMES[:team_count]):
        entries = []
        for seat in range(2):
            k = index * 2 + seat
            person = f"{FIRST[k % len(FIRST)]} {LAST[(k * 5) % len(LAST)]}{'' if k < 12 else k}"
            players[person] = team_name
            entries.append(PlayerEntry(name=person, wizards_id=f"p{k}@{tournament.pk}.example.org"))
        team_register(tournament=tournament, actor=organizer, name=team_name, players=entries)
    first_round = round_pair(tournament=tournament, actor=organizer)
    return Event(tournament=tournament, round=first_round, organizer=organizer, players=players)


@pytest.fixture
def event(db) -> Event:
    return build_event()


def pdf_of(job: DocumentJob) -> PdfReader:
    job.refresh_from_db()
    with job.file.open("rb") as handle:
        return PdfReader(io.BytesIO(handle.read()))


def pages_text(reader: PdfReader) -> list[str]:
    return [page.extract_text() or "" for page in reader.pages]


def wait_for(job: DocumentJob, timeout: float = 60) -> DocumentJob:
    """Poll the job row until the worker (or eager Celery) finished it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status in ("done", "failed"):
            return job
        time.sleep(0.2)
    raise AssertionError(f"document job {job.pk} still {job.status} after {timeout} s")


def non_white_fraction(pdf_path: Path, pdftoppm: str, tmp_path: Path) -> float:
    """Share of non-white pixels of page 1 rendered at 40 dpi."""
    prefix = tmp_path / "page"
    subprocess.run(
        [pdftoppm, "-png", "-r", "40", "-f", "1", "-l", "1", str(pdf_path), str(prefix)], check=True
    )
    png = next(tmp_path.glob("page*.png"))
    histogram = Image.open(png).convert("L").histogram()
    return sum(histogram[:200]) / sum(histogram)
