"""Booster Draft pod seatings: queued when the teams are seated, one table per pod, teammates side by side."""

from __future__ import annotations

import pytest

from documents import builders
from documents.models import DocumentJob
from documents.services import document_render
from tests.documents.conftest import pages_text, pdf_of
from tests.tournaments.factories import event_with_teams
from tournaments.models import DraftPod
from tournaments.services.pods import pods_seat

pytestmark = pytest.mark.django_db


def test_seating_pods_queues_the_seatings_and_they_list_every_player_by_pod():
    tournament = event_with_teams(10, format="draft", rel="competitive")

    pods_seat(tournament=tournament, actor=tournament.created_by, draft=1)

    job = DocumentJob.objects.get(kind="pod_seatings")
    document_render(job_id=job.id)
    job.refresh_from_db()
    assert job.status == "done", job.error
    text = " ".join(" ".join(pages_text(pdf_of(job))).split())
    assert "Draft pod seatings · draft 1" in text
    context = builders.pod_seatings(tournament, None, "A4")
    assert [len(pod["seats"]) for pod in context["pods"]] == [8, 6, 6]
    for stored, printed in zip(DraftPod.objects.order_by("number"), context["pods"], strict=True):
        assert f"Pod {stored.number} · seat" in text
        teams = [seat["team"] for seat in printed["seats"]]
        assert teams[0::2] == teams[1::2], "teammates sit side by side"
        names = dict(tournament.teams.values_list("id", "name"))
        assert teams[0::2] == [names[t] for t in stored.team_ids]
        for seat in printed["seats"]:
            assert seat["player"] in text
