"""A 12-team Booster Draft 2HG event through the API: pods, rounds paired within them, a second
draft, and the Top 8 Booster Draft playoff (1v5, 2v6, 3v7, 4v8 by draft seat)."""

from __future__ import annotations

import pytest

from tests.factories import OrganizerFactory
from tests.tournaments.factories import client_for
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def _event(organizer, teams: int = 12, **settings) -> tuple[str, list[int]]:
    body = {"name": "Draft 2HG", "format": "draft", "rel": "competitive", "team_size": 2, **settings}
    created = organizer.post("/api/v1/tournaments/", body, format="json")
    assert created.status_code == 201, created.json()
    base = f"/api/v1/tournaments/{created.json()['id']}"
    ids = []
    for number in range(1, teams + 1):
        players = [
            {"name": f"Drafter {number}{seat}", "wizards_id": f"d{number}{seat}@example.org"} for seat in "AB"
        ]
        response = organizer.post(
            f"{base}/teams/", {"name": f"Pod Team {number:02d}", "players": players}, format="json"
        )
        assert response.status_code == 201
        ids.append(response.json()["id"])
    return base, ids


def _pair_report_publish(organizer, base: str) -> dict:
    paired = organizer.post(f"{base}/rounds/", {}, format="json")
    assert paired.status_code == 201, paired.json()
    number = paired.json()["number"]
    assert organizer.post(f"{base}/rounds/{number}/publish/").status_code == 200
    for match in paired.json()["matches"]:
        if match["team_b"] is None:
            continue
        a_wins = (match["team_a"] + number) % 3 != 0
        result = {
            "team_a_wins": int(a_wins),
            "team_b_wins": int(not a_wins),
            "draws": 0,
            "version": match["version"],
        }
        assert (
            organizer.put(f"/api/v1/matches/{match['id']}/result/", result, format="json").status_code == 200
        )
    return paired.json()


def test_a_12_team_draft_pairs_round_1_inside_its_pods_and_plays_a_draft_top_8():
    organizer = client_for(OrganizerFactory())
    base, team_ids = _event(organizer, booster_draft_playoff=True)

    seated = organizer.post(f"{base}/pods/", {"draft": 1}, format="json")

    assert seated.status_code == 201
    body = seated.json()
    assert body["draft"] == 1
    assert [pod["number"] for pod in body["pods"]] == [1, 2, 3]
    assert [len(pod["teams"]) for pod in body["pods"]] == [4, 4, 4]
    assert sorted(t for pod in body["pods"] for t in pod["teams"]) == sorted(team_ids)
    assert organizer.get(f"{base}/pods/").json() == body
    pod_of = {t: pod["number"] for pod in body["pods"] for t in pod["teams"]}

    round_one = _pair_report_publish(organizer, base)

    assert len(round_one["matches"]) == 6
    for match in round_one["matches"]:
        assert pod_of[match["team_a"]] == pod_of[match["team_b"]] == match["pod"]
    event = organizer.get(f"{base}/").json()
    assert (event["swiss_rounds"], event["top_cut"], event["booster_draft_playoff"]) == (4, 8, True)

    for _ in (2, 3):
        later = _pair_report_publish(organizer, base)
        assert all(pod_of[m["team_a"]] == pod_of[m["team_b"]] for m in later["matches"])
    second = organizer.post(f"{base}/pods/", {"draft": 2}, format="json").json()
    second_pod_of = {t: pod["number"] for pod in second["pods"] for t in pod["teams"]}
    round_four = _pair_report_publish(organizer, base)
    assert all(second_pod_of[m["team_a"]] == second_pod_of[m["team_b"]] for m in round_four["matches"])

    cut = organizer.post(f"{base}/cut/")

    assert cut.status_code == 201, cut.json()
    standings = organizer.get(f"{base}/standings/").json()
    top_8 = {row["team"] for row in standings[:8]}
    lines = cut.json()["explanation"]
    seats = [int(line.split(": team ")[1].rstrip(".")) for line in lines if line.startswith("Draft seat ")]
    assert set(seats) == top_8
    quarterfinals = sorted(cut.json()["matches"], key=lambda m: m["bracket_slot"])
    assert [m["bracket_seeds"] for m in quarterfinals] == [[1, 5], [3, 7], [2, 6], [4, 8]]
    assert [(m["team_a"], m["team_b"]) for m in quarterfinals] == [
        (seats[0], seats[4]),
        (seats[2], seats[6]),
        (seats[1], seats[5]),
        (seats[3], seats[7]),
    ]
    organizer.post(f"{base}/rounds/5/publish/")
    winners = []
    for match in quarterfinals:
        result = {"team_a_wins": 1, "team_b_wins": 0, "draws": 0, "version": match["version"]}
        assert (
            organizer.put(f"/api/v1/matches/{match['id']}/result/", result, format="json").status_code == 200
        )
        winners.append(match["team_a"])
    semifinals = organizer.post(f"{base}/rounds/", {}, format="json").json()["matches"]
    assert sorted((m["team_a"], m["team_b"]) for m in semifinals) == sorted(
        [(seats[0], seats[2]), (seats[1], seats[3])]
    )
    assert AuditEntry.objects.filter(action="pods_seat").count() == 2


def test_seating_pods_is_refused_outside_a_draft_and_out_of_order():
    organizer = client_for(OrganizerFactory())
    base, _ = _event(organizer, teams=6)

    assert organizer.post(f"{base}/pods/", {"draft": 2}, format="json").status_code == 409
    assert organizer.post(f"{base}/pods/", {"draft": 1}, format="json").status_code == 201
    again = organizer.post(f"{base}/pods/", {"draft": 1}, format="json")
    assert (again.status_code, again.json()["errors"]) == (
        409,
        [{"field": "draft", "message": "draft 1 is already seated"}],
    )
    assert organizer.post(f"{base}/pods/", {"draft": 0}, format="json").status_code == 400
    modern_base, _ = _event(organizer, teams=4, format="modern")
    assert organizer.post(f"{modern_base}/pods/", {"draft": 1}, format="json").status_code == 409


def test_cross_pod_pairing_is_a_regular_rel_setting():
    organizer = client_for(OrganizerFactory())
    base, _ = _event(organizer, teams=4)

    refused = organizer.patch(f"{base}/", {"cross_pod_pairing": True}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "cross_pod_pairing"
    organizer.patch(f"{base}/", {"rel": "regular"}, format="json")
    allowed = organizer.patch(f"{base}/", {"cross_pod_pairing": True}, format="json")
    assert (allowed.status_code, allowed.json()["cross_pod_pairing"]) == (200, True)
    playoff = organizer.patch(f"{base}/", {"format": "modern", "booster_draft_playoff": True}, format="json")
    assert playoff.status_code == 400
    assert playoff.json()["errors"][0]["field"] == "booster_draft_playoff"


def test_cross_pod_pairing_at_regular_rel_pairs_the_whole_event():
    organizer = client_for(OrganizerFactory())
    base, _ = _event(organizer, teams=8, rel="regular", cross_pod_pairing=True, swiss_rounds=3, top_cut=0)
    organizer.post(f"{base}/pods/", {"draft": 1}, format="json")

    paired = organizer.post(f"{base}/rounds/", {}, format="json").json()

    assert [m["pod"] for m in paired["matches"]] == [None] * 4
