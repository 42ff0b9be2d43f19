"""Booster Draft pods too small for the rounds left: warned before seating, one pod on request."""

from __future__ import annotations

import pytest

from tests.factories import OrganizerFactory
from tests.tournaments.api.test_booster_draft import _event, _pair_report_publish
from tests.tournaments.factories import client_for
from tournaments.domain.pods import forced_rematch_pods, pod_sizes, rounds_without_rematch

pytestmark = pytest.mark.django_db


def test_a_pod_of_two_teams_can_play_one_round_and_a_pod_of_three_three():
    assert [rounds_without_rematch(n) for n in (2, 3, 4, 5)] == [1, 3, 3, 5]
    assert pod_sizes(5, team_size=2) == [3, 2]
    assert forced_rematch_pods([3, 2], 3, team_size=2) == [2]
    assert forced_rematch_pods([4, 4], 3, team_size=2) == []
    assert forced_rematch_pods([4, 4, 4], 4, team_size=2) == [], "full pods are the MTR chart's own"


def test_five_teams_are_warned_before_seating_and_may_seat_one_pod():
    organizer = client_for(OrganizerFactory())
    base, team_ids = _event(organizer, teams=5, swiss_rounds=3)

    before = organizer.get(f"{base}/pods/").json()

    warning = before["next_draft_warning"]
    assert (warning["teams"], warning["pod_sizes"], warning["too_small"], warning["rounds"]) == (
        5,
        [3, 2],
        [2],
        3,
    )
    assert "one pod of all 5 teams, or cross-pod pairing at Regular REL" in warning["message"]
    seated = organizer.post(f"{base}/pods/", {"draft": 1, "single_pod": True}, format="json")
    assert seated.status_code == 201, seated.json()
    assert [sorted(pod["teams"]) for pod in seated.json()["pods"]] == [sorted(team_ids)]
    assert organizer.get(f"{base}/pods/").json()["next_draft_warning"] is None, "just seated"
    opponents: dict[int, set[int]] = {team: set() for team in team_ids}
    for _ in range(3):
        for match in _pair_report_publish(organizer, base)["matches"]:
            if match["team_b"] is not None:
                assert match["team_b"] not in opponents[match["team_a"]], "no rematch in one pod of 5"
                opponents[match["team_a"]].add(match["team_b"])
                opponents[match["team_b"]].add(match["team_a"])


def test_no_warning_for_even_pods_or_announced_cross_pod_pairing():
    organizer = client_for(OrganizerFactory())
    base, _ids = _event(organizer, teams=8, swiss_rounds=3)
    assert organizer.get(f"{base}/pods/").json()["next_draft_warning"] is None

    base, _ids = _event(
        organizer, teams=5, swiss_rounds=3, rel="regular", cross_pod_pairing=True, name="Cross"
    )
    assert organizer.get(f"{base}/pods/").json()["next_draft_warning"] is None
