"""Paper is ready the moment a round is paired: pairings and slips render in the background,
standings when the round's last result is in. Eager in embedded mode, through the live worker
in the service run (so the test commits its data: transaction=True)."""

from __future__ import annotations

import io
import time

import pytest
from pypdf import PdfReader

from documents.enums import DocumentKind, JobStatus
from documents.models import DocumentJob
from tests.tournaments.factories import event_with_teams
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db(transaction=True)


def wait_for_jobs(round_obj, kinds: set[str], timeout: float = 90) -> dict[str, DocumentJob]:
    deadline = time.monotonic() + timeout
    while True:
        jobs = {job.kind: job for job in DocumentJob.objects.filter(round=round_obj)}
        if kinds <= jobs.keys() and all(jobs[k].status in {JobStatus.DONE, JobStatus.FAILED} for k in kinds):
            return jobs
        if time.monotonic() > deadline:
            raise AssertionError(
                f"documents not ready in {timeout}s: {[(j.kind, j.status) for j in jobs.values()]}"
            )
        time.sleep(0.5)


def pdf_text(job: DocumentJob) -> str:
    with job.file.open("rb") as handle:
        return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(handle.read())).pages)


def test_pairing_a_round_prints_pairings_and_slips_then_standings_after_the_last_result():
    tournament = event_with_teams(5, swiss_rounds=3, top_cut=0)
    organizer = tournament.created_by

    round_one = round_pair(tournament=tournament, actor=organizer)

    paired_kinds = {DocumentKind.PAIRINGS_BY_TABLE, DocumentKind.PAIRINGS_BY_NAME, DocumentKind.RESULT_SLIPS}
    jobs = wait_for_jobs(round_one, paired_kinds)
    assert {kind: jobs[kind].status for kind in paired_kinds} == {
        kind: JobStatus.DONE for kind in paired_kinds
    }
    by_table = pdf_text(jobs[DocumentKind.PAIRINGS_BY_TABLE])
    for number in range(1, 6):
        assert f"Team {number:02d}" in by_table
    assert "BYE" in by_table
    assert not DocumentJob.objects.filter(round=round_one, kind=DocumentKind.STANDINGS).exists()

    for match in round_one.matches.exclude(team_b=None):
        match_result_report(
            match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=match.version
        )

    standings = wait_for_jobs(round_one, {DocumentKind.STANDINGS})[DocumentKind.STANDINGS]
    assert standings.status == JobStatus.DONE
    text = pdf_text(standings)
    assert all(f"Team {number:02d}" in text for number in range(1, 6))
