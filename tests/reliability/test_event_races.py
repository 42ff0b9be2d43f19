"""Races on the event itself (PostgreSQL, real threads): registration, pairing and drops.

Registration, pairing and drops change who plays, so they take the event lock first
(``tournaments.services.locks``); team names are unique ignoring case in the database. Each test
repeats its race a few times on a fresh event, because one interleaving proves little.
"""

from __future__ import annotations

import pytest
from django.db import connection

from tests.reliability.test_concurrency import at_once
from tests.tournaments.factories import add_staff, client_for, event_with_teams
from tournaments.enums import ResultKind, StaffRole
from tournaments.models import Match, Round, Team
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair, round_publish

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks and races need PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]

TRIALS = 4


def team_body(name: str, trial: int) -> dict:
    slug = name.lower().replace(" ", "-")
    return {
        "name": name,
        "players": [
            {"name": f"{name} A", "wizards_id": f"{slug}-a-{trial}@example.org"},
            {"name": f"{name} B", "wizards_id": f"{slug}-b-{trial}@example.org"},
        ],
    }


def round_one_matches(tournament) -> dict[int, str]:
    """Each team's round-1 match: paired by the engine (a bye included), or a late entry's
    missed-round loss (the event's default for late entries)."""
    found = {}
    for match in Match.objects.filter(round__tournament=tournament, round__number=1):
        for team_id in (match.team_a_id, match.team_b_id):
            if team_id is not None:
                missed = match.result_kind == ResultKind.MISSED_ROUND
                found[team_id] = "missed round" if missed else "paired"
    return found


@pytest.mark.parametrize("trial", range(TRIALS))
def test_a_team_registered_while_round_one_is_paired_is_paired_or_has_its_missed_round(trial):
    tournament = event_with_teams(8, swiss_rounds=3, top_cut=0)
    scorekeeper = add_staff(tournament, StaffRole.SCOREKEEPER)
    pairing, registration = client_for(scorekeeper), client_for(scorekeeper)
    base = f"/api/v1/tournaments/{tournament.pk}"

    paired, registered = at_once(
        lambda: pairing.post(f"{base}/rounds/", {}, format="json"),
        lambda: registration.post(f"{base}/teams/", team_body("Latecomers", trial), format="json"),
    )

    assert (paired.status_code, registered.status_code) == (201, 201)
    late = Team.objects.get(tournament=tournament, name="Latecomers")
    matches = round_one_matches(tournament)
    assert set(matches) == set(Team.objects.filter(tournament=tournament).values_list("pk", flat=True))
    assert late.registered_after_round == (0 if matches[late.pk] == "paired" else 1)


@pytest.mark.parametrize("trial", range(TRIALS))
def test_a_drop_while_the_next_round_is_paired_neither_deadlocks_nor_is_lost(trial):
    tournament = event_with_teams(8, swiss_rounds=3, top_cut=0)
    organizer = tournament.created_by
    round_one = round_pair(tournament=tournament, actor=organizer)
    round_publish(round_row=round_one, actor=organizer)
    for match in Match.objects.filter(round=round_one, team_b__isnull=False):
        match_result_report(
            match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=match.version
        )
    leaving = Team.objects.filter(tournament=tournament).order_by("name")[trial]
    scorekeeper = add_staff(tournament, StaffRole.SCOREKEEPER)
    base = f"/api/v1/tournaments/{tournament.pk}"

    paired, dropped = at_once(
        lambda: client_for(scorekeeper).post(f"{base}/rounds/", {}, format="json"),
        lambda: client_for(organizer).post(
            f"{base}/teams/{leaving.pk}/drop/", {"reason": "train"}, format="json"
        ),
    )

    assert (paired.status_code, dropped.status_code) == (201, 200)
    leaving.refresh_from_db()
    round_two = Round.objects.get(tournament=tournament, number=2)
    in_round_two = (
        Match.objects.filter(round=round_two, team_a=leaving).exists()
        or Match.objects.filter(round=round_two, team_b=leaving).exists()
    )
    # Seen by the pairing: not paired, dropped after round 1; else paired, dropped after round 2.
    assert leaving.dropped_after_round == (2 if in_round_two else 1)


@pytest.mark.parametrize("names", [("Case 1", "Case 1"), ("Case 1", "CASE 1")], ids=["same", "case"])
@pytest.mark.parametrize("trial", range(TRIALS))
def test_two_registrations_of_one_name_at_once_give_one_team_and_a_400_on_name(names, trial):
    tournament = event_with_teams(4, swiss_rounds=3, top_cut=0)
    scorekeeper = add_staff(tournament, StaffRole.SCOREKEEPER)
    url = f"/api/v1/tournaments/{tournament.pk}/teams/"
    first, second = (team_body(name, trial) for name in names)
    second["players"] = [{**p, "wizards_id": "other-" + p["wizards_id"]} for p in second["players"]]

    answers = at_once(
        lambda: client_for(scorekeeper).post(url, first, format="json"),
        lambda: client_for(scorekeeper).post(url, second, format="json"),
    )

    codes = sorted(answer.status_code for answer in answers)
    refused = next(answer for answer in answers if answer.status_code == 400)
    assert codes == [201, 400]
    assert [error["field"] for error in refused.json()["errors"]] == ["name"]
    assert Team.objects.filter(tournament=tournament, name__iexact="case 1").count() == 1
