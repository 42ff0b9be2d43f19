"""One rule decides whether a round is public: the pages, the API, the clock and the documents agree."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import client_for, event_with_teams
from tournaments.models import Match, Round
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair, round_publish

pytestmark = pytest.mark.django_db


def _enter_every_result(round_obj: Round, actor) -> None:
    for match in Match.objects.filter(round=round_obj, team_b__isnull=False):
        match_result_report(
            match=match, actor=actor, team_a_wins=1, team_b_wins=0, draws=0, version=match.version
        )


def test_round_with_every_result_in_before_publishing_stays_staff_only():
    tournament = event_with_teams(8, swiss_rounds=3, top_cut=0)
    organizer = tournament.created_by
    round_one = round_pair(tournament=tournament, actor=organizer)
    _enter_every_result(round_one, organizer)
    anonymous = client_for(None)
    base = f"/api/v1/tournaments/{tournament.pk}/rounds/1"

    codes = [
        anonymous.get(f"{base}/").status_code,
        anonymous.get(f"{base}/clock/").status_code,
        client_for(organizer).get(f"{base}/clock/").status_code,
        anonymous.get(f"/events/{tournament.pk}/clock/?round=1").status_code,
    ]

    assert codes == [404, 401, 200, 404]
    assert list(Round.objects.public()) == []


def test_phase_follows_the_round_from_pairing_to_its_last_result():
    tournament = event_with_teams(8, swiss_rounds=3, top_cut=0)
    organizer = tournament.created_by
    round_one = round_pair(tournament=tournament, actor=organizer)
    phases = [Round.objects.get(pk=round_one.pk).phase]
    round_publish(round_row=round_one, actor=organizer)
    phases.append(Round.objects.get(pk=round_one.pk).phase)
    _enter_every_result(round_one, organizer)
    finished = Round.objects.get(pk=round_one.pk)
    phases.append(finished.phase)

    assert phases == ["paired", "published", "finished"]
    assert (
        client_for(None).get(f"/api/v1/tournaments/{tournament.pk}/rounds/1/").json()["status"] == "finished"
    )
    assert list(Round.objects.public().finished()) == [finished]
