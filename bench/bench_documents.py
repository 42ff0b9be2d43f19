"""Benchmark of the printed documents of a 1,024-team event, end to end through the task.

Run with ``make bench`` (or ``.venv/bin/python bench/bench_documents.py``). It builds events in a
throwaway SQLite database (migrate, then bulk inserts), pairs round 1 with the real service, and
times each document end to end through the task path (request → on-commit → eager Celery task →
builder → parallel render → merge → stored file), printing a markdown table of seconds and pages.
WeasyPrint is warmed first, as a Celery worker does when it starts (``documents.tasks``).

The issue's sizes do not fit one 2HG event: 1,024 two-player teams are 2,048 players at 512
tables. So the table and the slips are timed at 1,024 teams (512 matches), and pairings by name
both at that event and at 2,048 teams, the 4,096 players the issue names for the wall list.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def setup_django(workdir: str) -> None:
    os.environ.pop("REDIS_URL", None)
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/bench.sqlite3"
    # A set DATABASE_URL needs a secret key (config/settings.py refuses to start without one).
    os.environ.setdefault("SECRET_KEY", "bench-only-documents")
    os.environ["MEDIA_ROOT"] = f"{workdir}/media"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def build_event(teams: int, players_per_team: int):
    """An event of ``teams`` teams with round 1 paired.

    Pairing a round queues its documents by itself (``documents_for_round_paired``); that is
    switched off here, or the timed requests below would only find those files by content hash
    and time a cache hit instead of a render.
    """
    from unittest import mock

    from django.contrib.auth import get_user_model

    from tournaments.models import Player, Team
    from tournaments.services.events import tournament_create
    from tournaments.services.rounds import round_pair

    organizer = get_user_model().objects.create_user(f"bench-organizer-{teams}")
    tournament = tournament_create(
        actor=organizer, name=f"Benchmark Open 2HG ({teams} teams)", venue="Convention Hall", swiss_rounds=11
    )
    Team.objects.bulk_create(
        Team(tournament=tournament, name=f"Team {i:04d} of the Giants") for i in range(teams)
    )
    rows = []
    for team in Team.objects.filter(tournament=tournament).order_by("id"):
        for seat in range(players_per_team):
            k = team.id * players_per_team + seat
            rows.append(
                Player(
                    tournament=tournament,
                    team=team,
                    name=f"Player{k:05d} Lastname{(k * 7919) % 100000:05d}",
                    wizards_id=f"player{k}@bench.example.org",
                    position=seat,
                )
            )
    Player.objects.bulk_create(rows)
    with mock.patch("documents.receivers.documents_for_round_paired"):
        return tournament, organizer, round_pair(tournament=tournament, actor=organizer)


def cpu_seconds() -> tuple[float, float]:
    """CPU time (user + system) of this process and of its finished children (the chunk renderers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def time_document(tournament, organizer, kind: str) -> tuple[float, int, float, float]:
    """Seconds end to end, pages, and the CPU seconds spent in this process (the builder, the
    forms, the merge: serial) and in the chunk renderers (parallel). On a shared machine the wall
    clock follows the load; the CPU times much less, and serial + parallel / cores estimates the
    idle time."""
    from documents.services import document_request

    own_before, children_before = cpu_seconds()
    started = time.perf_counter()
    job = document_request(tournament=tournament, actor=organizer, kind=kind)
    elapsed = time.perf_counter() - started
    own_after, children_after = cpu_seconds()
    job.refresh_from_db()
    if job.status != "done":
        raise SystemExit(f"{kind}: job {job.status}: {job.error}")
    return elapsed, job.page_count, own_after - own_before, children_after - children_before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=1024)
    parser.add_argument("--kinds", nargs="*", help="only these documents (e.g. result_slips), at --teams")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-documents-") as workdir:
        setup_django(workdir)
        from documents.tasks import warm_pdf_renderer

        warm_pdf_renderer()
        print(f"{os.cpu_count()} cores, Python {platform.python_version()}")
        print()
        print(
            "| Document | Teams | Players | Matches | Seconds (end to end) | Pages | CPU s serial | CPU s chunks |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        runs = [
            (args.teams, ["pairings_by_name", "pairings_by_table", "result_slips"]),
            (args.teams * 2, ["pairings_by_name"]),
        ]
        if args.kinds:
            runs = [(args.teams, list(dict.fromkeys(args.kinds)))]  # a repeat would be a cache hit
        for teams, kinds in runs:
            tournament, organizer, first_round = build_event(teams, 2)
            matches = first_round.matches.exclude(team_b=None).count()
            for kind in kinds:
                seconds, pages, serial, chunks = time_document(tournament, organizer, kind)
                label = kind.replace("_", " ").capitalize()
                print(
                    f"| {label} | {teams:,} | {teams * 2:,} | {matches} | {seconds:.1f} | {pages} "
                    f"| {serial:.2f} | {chunks:.2f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
