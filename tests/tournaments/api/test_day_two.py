"""A cut to day 2 through the API: a 32-team event cut after round 3 at 6 points."""

from __future__ import annotations

import random

import pytest

from tests.factories import OrganizerFactory
from tests.tournaments.factories import client_for

pytestmark = pytest.mark.django_db


def _event(organizer, teams: int, **settings) -> tuple[str, list[int]]:
    body = {"name": "Two-day 2HG", "format": "modern", "team_size": 2, "swiss_rounds": 6, **settings}
    created = organizer.post("/api/v1/tournaments/", body, format="json")
    assert created.status_code == 201, created.json()
    base = f"/api/v1/tournaments/{created.json()['id']}"
    ids = []
    for number in range(1, teams + 1):
        players = [
            {"name": f"Player {number}{seat}", "wizards_id": f"p{number}{seat}@example.org"} for seat in "AB"
        ]
        response = organizer.post(
            f"{base}/teams/", {"name": f"Team {number:02d}", "players": players}, format="json"
        )
        assert response.status_code == 201
        ids.append(response.json()["id"])
    return base, ids


def _fixed_outcome(match: dict, number: int) -> tuple[int, int, int]:
    """Team A wins when its id and the round say so."""
    a_wins = (match["team_a"] * 7 + number) % 3 != 0
    return int(a_wins), int(not a_wins), 0


def _play_round(organizer, base: str, outcome=_fixed_outcome) -> dict:
    """Pair, publish and report every match as ``outcome(match, round number)`` says (games won by
    A, by B, draws)."""
    paired = organizer.post(f"{base}/rounds/", {}, format="json")
    assert paired.status_code == 201, paired.json()
    number = paired.json()["number"]
    assert organizer.post(f"{base}/rounds/{number}/publish/").status_code == 200
    for match in paired.json()["matches"]:
        if match["team_b"] is None:
            continue
        a, b, draw = outcome(match, number)
        result = {"team_a_wins": a, "team_b_wins": b, "draws": draw, "version": match["version"]}
        assert (
            organizer.put(f"/api/v1/matches/{match['id']}/result/", result, format="json").status_code == 200
        )
    return paired.json()


def test_round_4_of_a_32_team_event_cut_after_round_3_at_6_points_pairs_exactly_those_teams():
    organizer = client_for(OrganizerFactory())
    base, team_ids = _event(organizer, 32, day_two={"after_round": 3, "min_match_points": 6})
    assert organizer.get(f"{base}/").json()["day_two"] == {"after_round": 3, "min_match_points": 6}
    for _ in range(3):
        _play_round(organizer, base)
    after_3 = {row["team"]: row["match_points"] for row in organizer.get(f"{base}/standings/?round=3").json()}
    advancing = {team for team, points in after_3.items() if points >= 6}
    assert 0 < len(advancing) < 32

    round_4 = _play_round(organizer, base)

    paired = {team for m in round_4["matches"] for team in (m["team_a"], m["team_b"]) if team is not None}
    assert paired == advancing
    standings = organizer.get(f"{base}/standings/").json()
    assert len(standings) == 32, "eliminated teams keep their rows"
    assert {row["team"] for row in standings if row["eliminated"]} == set(team_ids) - advancing
    assert not any(row["dropped"] for row in standings)
    round_5 = _play_round(organizer, base)
    assert {t for m in round_5["matches"] for t in (m["team_a"], m["team_b"]) if t is not None} <= advancing


@pytest.mark.parametrize(
    ("day_two", "message"),
    [
        ({"after_round": 6, "min_match_points": 6}, "after_round must be before the last Swiss round (6)"),
        ({"after_round": 2, "min_match_points": 9}, "min_match_points 9 is more than 6"),
        ({"after_round": 3}, 'give {"after_round": R, "min_match_points": P}'),
    ],
)
def test_a_day_two_that_cannot_work_is_a_400_naming_the_field(day_two, message):
    organizer = client_for(OrganizerFactory())

    response = organizer.post(
        "/api/v1/tournaments/", {"name": "Bad cut", "swiss_rounds": 6, "day_two": day_two}, format="json"
    )

    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "day_two" and message in error["message"]


def test_the_cut_may_be_set_after_round_1_and_is_fixed_once_made():
    organizer = client_for(OrganizerFactory())
    base, _ids = _event(organizer, 8)
    _play_round(organizer, base)
    _play_round(organizer, base)

    behind = organizer.patch(
        f"{base}/", {"day_two": {"after_round": 1, "min_match_points": 3}}, format="json"
    )
    ahead = organizer.patch(f"{base}/", {"day_two": {"after_round": 2, "min_match_points": 3}}, format="json")
    _play_round(organizer, base)
    moved = organizer.patch(f"{base}/", {"day_two": {"after_round": 3, "min_match_points": 3}}, format="json")

    assert behind.status_code == 409 and behind.json()["errors"][0]["field"] == "day_two"
    assert ahead.status_code == 200, ahead.json()
    assert moved.status_code == 409
    assert "the cut to day 2 was made when round 3 was paired" in moved.json()["detail"]


def _play_random_round(organizer, base: str, rng: random.Random) -> set[int]:
    """Pair, publish and report every match at random, draws included; the teams paired."""
    paired = _play_round(
        organizer, base, lambda _match, _number: rng.choice([(1, 0, 0), (0, 1, 0), (0, 0, 1)])
    )
    return {t for m in paired["matches"] for t in (m["team_a"], m["team_b"]) if t is not None}


def _late_entry(organizer, base: str, name: str) -> int:
    players = [{"name": f"{name} {seat}", "wizards_id": f"{name}{seat}@example.org"} for seat in "AB"]
    response = organizer.post(f"{base}/teams/", {"name": name, "players": players}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["id"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_results_drops_and_late_entries_leave_round_4_to_the_teams_still_in_with_6_points(seed):
    """Draws, a drop before and one after the cut's round, a late entry in day 1 and one just
    before day 2: round 4 pairs exactly the teams not dropped with 6+ points after round 3, the
    others keep their rows marked "did not advance" and are never paired again; swiss_rounds stays
    the total and the public event page says how many advanced."""
    rng = random.Random(seed)
    organizer = client_for(OrganizerFactory())
    base, team_ids = _event(
        organizer, 32, swiss_rounds=None, day_two={"after_round": 3, "min_match_points": 6}
    )
    _play_random_round(organizer, base, rng)
    assert (
        organizer.post(f"{base}/teams/{team_ids[5]}/drop/", {"reason": "left"}, format="json").status_code
        == 200
    )
    late = [_late_entry(organizer, base, "Late One")]
    _play_random_round(organizer, base, rng)
    _play_random_round(organizer, base, rng)
    after_3 = {row["team"]: row for row in organizer.get(f"{base}/standings/?round=3").json()}
    high = sorted(team for team, row in after_3.items() if row["match_points"] >= 6 and not row["dropped"])
    assert (
        organizer.post(f"{base}/teams/{high[0]}/drop/", {"reason": "left"}, format="json").status_code == 200
    )
    late.append(_late_entry(organizer, base, "Late Two"))
    advancing = set(high[1:])
    assert sum(row["draws"] for row in after_3.values()) > 0
    assert 0 < len(advancing) < 30

    round_4 = _play_random_round(organizer, base, rng)
    round_5 = _play_random_round(organizer, base, rng)

    assert round_4 == advancing
    assert round_5 == advancing
    standings = organizer.get(f"{base}/standings/").json()
    assert {row["team"] for row in standings} == {*team_ids, *late}
    dropped = {row["team"] for row in standings if row["dropped"]}
    assert dropped == {team_ids[5], high[0]}
    assert {row["team"] for row in standings if row["eliminated"]} == {*team_ids, *late} - advancing - dropped
    event = organizer.get(f"{base}/").json()
    assert event["swiss_rounds"] == 5
    page = organizer.get(f"/events/{event['id']}/").content.decode()
    still_in = len(standings) - len(dropped)
    assert f"Day 2: {len(advancing)} of {still_in} teams advanced with 6+ points after round 3." in page
