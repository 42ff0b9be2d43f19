"""A whole 2HG event scripted through the API only, checked against standings computed here.

33 teams (MTR chart: 6 Swiss rounds, Top 8), a manual round 1, a late entry after round 2, a drop
followed by a re-pair of round 3, time draws (0-0-1) and intentional draws (0-0-3), then the Top 8
to the final. The standings are recomputed in this file from the stored matches with the MTR
Appendix C definitions, without calling the engine.
"""

from __future__ import annotations

import random
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest

from tests.factories import OrganizerFactory, UserFactory
from tests.tournaments.factories import client_for
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db

FLOOR = Fraction(1, 3)
INTENTIONAL_DRAWS = {(2, 3), (4, 3)}  # (round, table) reported 0-0-3
TIME_DRAWS = {(3, 5), (5, 2)}  # (round, table) reported 0-0-1


def four_places(value: Fraction) -> float:
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return float(exact.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP))


def expected_standings(matches: list[dict]) -> dict[int, dict]:
    """MP, MW% (floored at 1/3) and OMW% (opponents' floored MW%, own byes and missed rounds left
    out) from the matches as the API shows them; a dropped team still counts as an opponent."""
    points: dict[int, int] = defaultdict(int)
    played: dict[int, int] = defaultdict(int)
    opponents: dict[int, list[int]] = defaultdict(list)
    for match in matches:
        a, b = match["team_a"], match["team_b"]
        played[a] += 1
        if b is None:
            points[a] += 3 if match["result_kind"] == "bye" else 0
            continue
        played[b] += 1
        opponents[a].append(b)
        opponents[b].append(a)
        if match["team_a_wins"] > match["team_b_wins"]:
            points[a] += 3
        elif match["team_b_wins"] > match["team_a_wins"]:
            points[b] += 3
        else:
            points[a] += 1
            points[b] += 1
    mw = {team: max(Fraction(points[team], 3 * played[team]), FLOOR) for team in played}
    return {
        team: {
            "match_points": points[team],
            "omw": four_places(sum(mw[o] for o in opponents[team]) / len(opponents[team]))
            if opponents[team]
            else four_places(FLOOR),
        }
        for team in played
    }


def report_round(scorekeeper, matches: list[dict], round_number: int) -> None:
    for match in matches:
        if match["team_b"] is None:
            continue
        key = (round_number, match["table"])
        if key in INTENTIONAL_DRAWS:
            score = (0, 0, 3)
        elif key in TIME_DRAWS:
            score = (0, 0, 1)
        else:
            a_wins = random.Random(f"{round_number}:{match['team_a']}:{match['team_b']}").random() < 0.5
            score = (1, 0, 0) if a_wins else (0, 1, 1)
        response = scorekeeper.put(
            f"/api/v1/matches/{match['id']}/result/",
            {
                "team_a_wins": score[0],
                "team_b_wins": score[1],
                "draws": score[2],
                "version": match["version"],
            },
            format="json",
        )
        assert response.status_code == 200, response.json()
        assert response.json()["confirmed"] is True


def pair_and_publish(organizer, base: str) -> dict:
    response = organizer.post(f"{base}/rounds/", {}, format="json")
    assert response.status_code == 201, response.json()
    number = response.json()["number"]
    assert organizer.post(f"{base}/rounds/{number}/publish/").status_code == 200
    return response.json()


def test_full_event_33_teams_through_the_api(api_client):
    organizer_user, scorekeeper_user = OrganizerFactory(), UserFactory()
    organizer, scorekeeper = client_for(organizer_user), client_for(scorekeeper_user)
    created = organizer.post(
        "/api/v1/tournaments/",
        {
            "name": "Store Championship 2HG",
            "format": "modern",
            "rel": "competitive",
            "team_size": 2,
            "games_per_match": 1,
            "round_minutes": 50,
        },
        format="json",
    )
    assert created.status_code == 201
    assert (created.json()["status"], created.json()["swiss_rounds"], created.json()["top_cut"]) == (
        "registration",
        None,
        None,
    )
    base = f"/api/v1/tournaments/{created.json()['id']}"
    staff = organizer.post(f"{base}/staff/", {"username": scorekeeper_user.username, "role": "scorekeeper"})
    assert staff.status_code == 201
    team_ids = []
    for number in range(1, 34):
        response = organizer.post(
            f"{base}/teams/",
            {
                "name": f"Team {number:02d}",
                "players": [
                    {"name": f"Player {number}A", "wizards_id": f"p{number}a@example.org"},
                    {"name": f"Player {number}B", "wizards_id": f"p{number}b@example.org"},
                ],
            },
            format="json",
        )
        assert response.status_code == 201
        team_ids.append(response.json()["id"])

    # Round 1 paired by hand: 1v2, 3v4, ..., 31v32, team 33 the bye.
    manual = [{"team_a": team_ids[i], "team_b": team_ids[i + 1]} for i in range(0, 32, 2)]
    manual.append({"team_a": team_ids[32], "team_b": None})
    round_one = organizer.post(
        f"{base}/rounds/", {"matches": manual, "reason": "Seating for a wheelchair user"}, format="json"
    )
    assert round_one.status_code == 201
    assert [(m["table"], m["team_a"], m["team_b"]) for m in round_one.json()["matches"]] == [
        *[(i // 2 + 1, team_ids[i], team_ids[i + 1]) for i in range(0, 32, 2)],
        (None, team_ids[32], None),
    ]
    audit = AuditEntry.objects.get(action="round_pair_manual")
    assert audit.reason == "Seating for a wheelchair user"
    assert audit.after["tables"][0] == [1, team_ids[0], team_ids[1]]
    assert audit.after["tables"][-1] == [None, team_ids[32], None]
    event = organizer.get(f"{base}/").json()
    assert (event["status"], event["swiss_rounds"], event["top_cut"]) == ("running", 6, 8)
    assert organizer.post(f"{base}/rounds/1/publish/").status_code == 200
    report_round(scorekeeper, round_one.json()["matches"], 1)

    round_two = pair_and_publish(organizer, base)
    assert len(round_two["matches"]) == 17
    late = organizer.post(
        f"{base}/teams/",
        {
            "name": "Late Arrivals",
            "players": [
                {"name": "Late One", "wizards_id": "late1@example.org"},
                {"name": "Late Two", "wizards_id": "late2@example.org"},
            ],
        },
        format="json",
    )
    assert late.status_code == 201
    assert late.json()["registered_after_round"] == 2
    late_id = late.json()["id"]
    report_round(scorekeeper, round_two["matches"], 2)

    # Round 3 is paired, then a team drops and the round is paired again without it.
    leaver = team_ids[5]
    first_try = organizer.post(f"{base}/rounds/", {}, format="json")
    assert first_try.status_code == 201
    assert leaver in {m["team_a"] for m in first_try.json()["matches"]} | {
        m["team_b"] for m in first_try.json()["matches"]
    }
    dropped = organizer.post(f"{base}/teams/{leaver}/drop/", {"reason": "Has to catch a train"})
    assert (dropped.status_code, dropped.json()["dropped_after_round"]) == (200, 3)
    assert organizer.delete(f"{base}/rounds/3/").status_code == 204
    assert AuditEntry.objects.filter(action="round_delete").count() == 1
    round_three = pair_and_publish(organizer, base)
    paired_teams = [m["team_a"] for m in round_three["matches"]] + [
        m["team_b"] for m in round_three["matches"] if m["team_b"]
    ]
    assert leaver not in paired_teams
    assert sorted(paired_teams) == sorted(set(team_ids + [late_id]) - {leaver})
    assert organizer.get(f"{base}/teams/{leaver}/").json()["dropped_after_round"] == 2
    report_round(scorekeeper, round_three["matches"], 3)

    for number in (4, 5, 6):
        paired = pair_and_publish(organizer, base)
        assert paired["number"] == number
        assert len([m for m in paired["matches"] if m["team_b"] is None]) == 1
        report_round(scorekeeper, paired["matches"], number)
    no_seventh = organizer.post(f"{base}/rounds/", {}, format="json")
    assert no_seventh.status_code == 409

    all_matches = [m for n in range(1, 7) for m in api_client.get(f"{base}/rounds/{n}/").json()["matches"]]
    late_rounds = [
        (m["round"], m["result_kind"]) for m in all_matches if m["team_a"] == late_id and not m["team_b"]
    ]
    assert late_rounds[:2] == [(1, "missed_round_loss"), (2, "missed_round_loss")]
    assert {(m["round"], m["draws"]) for m in all_matches if m["draws"] == 3} == {(2, 3), (4, 3)}
    expected = expected_standings(all_matches)
    standings = api_client.get(f"{base}/standings/").json()
    assert len(standings) == 34
    assert {
        row["team"]: {"match_points": row["match_points"], "omw": row["omw"]} for row in standings
    } == expected
    assert [row["rank"] for row in standings] == list(range(1, 35))
    keys = [(row["match_points"], row["omw"]) for row in standings]
    assert keys == sorted(keys, reverse=True)
    leaver_row = next(row for row in standings if row["team"] == leaver)
    assert (leaver_row["dropped"], leaver_row["wins"] + leaver_row["losses"] + leaver_row["draws"]) == (
        True,
        2,
    )
    late_row = next(row for row in standings if row["team"] == late_id)
    assert late_row["losses"] >= 2

    # Top 8: seeds from the standings, teams still in the event.
    seeds = [row["team"] for row in standings if not row["dropped"]][:8]
    cut = organizer.post(f"{base}/cut/")
    assert cut.status_code == 201
    assert [(m["team_a"], m["team_b"]) for m in cut.json()["matches"]] == [
        (seeds[0], seeds[7]),
        (seeds[3], seeds[4]),
        (seeds[1], seeds[6]),
        (seeds[2], seeds[5]),
    ]
    assert organizer.get(f"{base}/").json()["status"] == "top_cut"
    quarterfinal_draw = scorekeeper.put(
        f"/api/v1/matches/{cut.json()['matches'][0]['id']}/result/",
        {"team_a_wins": 0, "team_b_wins": 0, "draws": 1, "version": 1},
        format="json",
    )
    assert quarterfinal_draw.status_code == 400
    winners = []
    for index, match in enumerate(cut.json()["matches"]):
        b_wins = index == 1  # seed 5 beats seed 4
        scorekeeper.put(
            f"/api/v1/matches/{match['id']}/result/",
            {"team_a_wins": int(not b_wins), "team_b_wins": int(b_wins), "draws": 0, "version": 1},
            format="json",
        )
        winners.append(match["team_b"] if b_wins else match["team_a"])
    semifinals = organizer.post(f"{base}/rounds/", {}, format="json")
    assert semifinals.status_code == 201
    assert [(m["team_a"], m["team_b"]) for m in semifinals.json()["matches"]] == [
        (winners[0], winners[1]),
        (winners[2], winners[3]),
    ]
    assert semifinals.json()["length_minutes"] == 90
    for match in semifinals.json()["matches"]:
        scorekeeper.put(
            f"/api/v1/matches/{match['id']}/result/",
            {"team_a_wins": 1, "team_b_wins": 0, "draws": 1, "version": 1},
            format="json",
        )
    final = organizer.post(f"{base}/rounds/", {}, format="json")
    assert final.status_code == 201
    assert [(m["team_a"], m["team_b"]) for m in final.json()["matches"]] == [(winners[0], winners[2])]
    assert final.json()["length_minutes"] is None
    assert organizer.get(f"{base}/").json()["status"] == "top_cut"
    reported = scorekeeper.put(
        f"/api/v1/matches/{final.json()['matches'][0]['id']}/result/",
        {"team_a_wins": 0, "team_b_wins": 1, "draws": 0, "version": 1},
        format="json",
    )
    assert reported.status_code == 200
    assert organizer.get(f"{base}/").json()["status"] == "finished"
    assert organizer.post(f"{base}/rounds/", {}, format="json").status_code == 409
    assert api_client.get(f"{base}/standings/").json() == standings
