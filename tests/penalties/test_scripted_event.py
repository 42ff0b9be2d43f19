"""A whole event run through the services, with every penalty issued through the API.

The standings the toolkit computes (``tournaments.standings.standings_for``) are checked after each
penalty against numbers this test computes on its own from the match results and docs/rules.md#percentages: 3 points a win, MW% = points / (3 × rounds) floored at 1/3, OMW% the average of the opponents'
MW%, adjustments included (docs/rules.md#tiebreakers: opponents see the adjusted points), disqualified teams out.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tournaments.enums import StaffRole
from tournaments.models import Match, Team
from tournaments.registration.planner import PlayerEntry
from tournaments.registration.register import team_register
from tournaments.services.events import staff_add, tournament_create
from tournaments.services.manual_pairing import round_pair_manual
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair
from tournaments.standings import standings_for

NAMES = ["Ajani", "Bolas", "Chandra", "Dakkon", "Elspeth", "Freyalise"]


class Event:
    """The event as the staff see it: teams by initial, API clients for the judges."""

    def __init__(self, penalty_policy: str):
        self.organizer = UserFactory()
        head_judge, judge = UserFactory(), UserFactory()
        self.tournament = tournament_create(
            actor=self.organizer,
            name="Scripted 2HG",
            rel="competitive",
            penalty_policy=penalty_policy,
            swiss_rounds=3,
            top_cut=0,
        )
        staff_add(
            tournament=self.tournament,
            actor=self.organizer,
            username=head_judge.username,
            role=StaffRole.HEAD_JUDGE,
        )
        staff_add(
            tournament=self.tournament, actor=self.organizer, username=judge.username, role=StaffRole.JUDGE
        )
        self.teams = {
            name[0]: team_register(
                tournament=self.tournament,
                actor=self.organizer,
                name=name,
                players=[
                    PlayerEntry(f"{name} {seat}", f"{name.lower()}.{seat}@example.org") for seat in (1, 2)
                ],
            )
            for name in NAMES
        }
        self.judge = APIClient()
        self.judge.force_authenticate(judge)
        self.head_judge = APIClient()
        self.head_judge.force_authenticate(head_judge)
        self.wins: list[tuple[str, str]] = []

    def pair(self, *pairs: str) -> None:
        round_pair_manual(
            tournament=self.tournament,
            actor=self.organizer,
            matches=[(self.teams[p[0]].pk, self.teams[p[1]].pk) for p in pairs],
            reason="scripted test event",
        )

    def match(self, pair: str) -> Match:
        a, b = (self.teams[initial].pk for initial in pair)
        return Match.objects.filter(
            round__tournament=self.tournament, team_a_id__in=(a, b), team_b_id__in=(a, b)
        ).get()

    def report(self, winner: str, loser: str) -> None:
        match = self.match(winner + loser)
        a_won = match.team_a_id == self.teams[winner].pk
        match_result_report(
            match=match,
            actor=self.organizer,
            team_a_wins=int(a_won),
            team_b_wins=int(not a_won),
            draws=0,
            version=match.version,
        )

    def player(self, initial: str, seat: int = 1):
        return self.teams[initial].players.order_by("position")[seat - 1]

    def penalise(
        self, initial: str, infraction: str, round_number: int, seat: int = 1, *, head_judge=False, **extra
    ) -> dict:
        """A floor judge's penalty; a Disqualification is the head judge's (MTR 1.5, IPG 4)."""
        response = (self.head_judge if head_judge else self.judge).post(
            f"/api/v1/tournaments/{self.tournament.pk}/penalties/",
            {
                "player": self.player(initial, seat).pk,
                "round": round_number,
                "infraction": infraction,
                "description": f"scripted {infraction}",
                **extra,
            },
            format="json",
        )
        assert response.status_code == 201, response.json()
        return response.json()

    def overturn(self, penalty_id: int, reason: str) -> None:
        response = self.head_judge.post(
            f"/api/v1/penalties/{penalty_id}/overturn/", {"reason": reason}, format="json"
        )
        assert response.status_code == 200, response.json()

    def standings(self) -> list[tuple[int, str, int, Decimal]]:
        return [
            (line.rank, line.team_name[0], line.match_points, line.omw)
            for line in standings_for(self.tournament)
        ]


def expected(wins: list[tuple[str, str]], adjustments: dict[str, int] | None = None, out: str = "") -> dict:
    """Initial → (match points, OMW% to 4 places), from (winner, loser) pairs and point adjustments."""
    points: dict[str, int] = defaultdict(int)
    played: dict[str, int] = defaultdict(int)
    opponents: dict[str, list[str]] = defaultdict(list)
    for winner, loser in wins:
        points[winner] += 3
        points[loser] += 0
        played[winner] += 1
        played[loser] += 1
        opponents[winner].append(loser)
        opponents[loser].append(winner)
    for team, adjustment in (adjustments or {}).items():
        points[team] += adjustment
    mw = {team: max(Fraction(points[team], 3 * played[team]), Fraction(1, 3)) for team in played}
    rows = {}
    for team in played:
        if team in out:
            continue
        omw = sum(mw[o] for o in opponents[team]) / len(opponents[team])
        rows[team] = (
            points[team],
            (Decimal(omw.numerator) / Decimal(omw.denominator)).quantize(Decimal("0.0001"), ROUND_HALF_UP),
        )
    return rows


def assert_standings(event: Event, rows: dict) -> list[tuple[int, str, int, Decimal]]:
    """The toolkit's standings hold exactly these numbers, ranked by points then OMW%, ranks 1..n."""
    table = event.standings()
    assert {initial: (mp, omw) for _, initial, mp, omw in table} == rows
    assert [(mp, omw) for _, _, mp, omw in table] == sorted(rows.values(), key=lambda r: (-r[0], -r[1]))
    assert [rank for rank, *_ in table] == list(range(1, len(rows) + 1))
    return table


@pytest.mark.django_db
def test_match_point_event_penalties_appeal_and_disqualification_move_the_standings_as_the_rules_say():
    event = Event(penalty_policy="match_point")

    event.pair("AB", "CD", "EF")
    for winner, loser in [("A", "B"), ("C", "D"), ("E", "F")]:
        event.report(winner, loser)
    event.pair("AC", "EB", "DF")
    wins = [("A", "B"), ("C", "D"), ("E", "F"), ("A", "C"), ("E", "B"), ("F", "D")]
    for winner, loser in wins[3:]:
        event.report(winner, loser)
    before_penalty = assert_standings(event, expected(wins))

    # A decklist error found at a deck check: one match point off Chandra, which Ajani and Dakkon
    # (Chandra's opponents) see in their OMW%; the result of the match is untouched.
    deck_check = event.penalise("C", "TE-DLP", 2, found_during_deck_check=True)
    assert (deck_check["penalty"], deck_check["match_point_adjustment"]) == ("match_point", -1)
    assert event.match("AC").result_kind == "played"
    assert_standings(event, expected(wins, {"C": -1}))
    assert expected(wins, {"C": -1})["A"][1] < expected(wins)["A"][1]

    event.pair("AE", "CF", "BD")
    # During the match, a second Slow Play Warning to Freyalise is an upgrade: under the
    # match_point policy an upgrade is a Match Loss, so Chandra gets the match.
    event.penalise("F", "TE-SP", 3)
    upgrade = event.penalise("F", "TE-SP", 3)
    assert (upgrade["penalty"], upgrade["upgraded"]) == ("match_loss", True)
    assert event.match("CF").result_kind == "penalty_loss"
    # Decklist Game Losses to both teams in one ruling: recorded, no score change; the game is played out.
    first = event.penalise("A", "TE-DLP", 3)
    assert first["penalty"] == "game_loss"
    event.penalise("E", "TE-DLP", 3, simultaneous_with=first["id"])
    assert event.match("AE").result_kind == "pending"
    event.report("A", "E")
    event.report("D", "B")
    round_three = wins + [("C", "F"), ("A", "E"), ("D", "B")]
    assert_standings(event, expected(round_three, {"C": -1}))

    # Appeals: both penalties on Freyalise and Chandra's point are overturned; the match is open
    # again for the table to report, and the points come back, as if they had never been given.
    event.overturn(upgrade["id"], "the opponents were slow too")
    event.overturn(deck_check["id"], "the list matched the deck")
    assert event.match("CF").result_kind == "pending"
    event.report("F", "C")
    as_played = wins + [("F", "C"), ("A", "E"), ("D", "B")]
    standings = assert_standings(event, expected(as_played))

    # Elspeth is disqualified: the team leaves the standings, everyone below moves up one, and its
    # matches still count in its opponents' OMW%.
    rank_before = {initial: rank for rank, initial, *_ in standings}
    event.penalise("E", "USC-C", 3, seat=2, head_judge=True)
    team = Team.objects.get(pk=event.teams["E"].pk)
    assert (team.disqualified, team.dropped_after_round) == (True, 3)
    after = assert_standings(event, expected(as_played, out="E"))
    for rank, initial, *_ in after:
        assert rank == rank_before[initial] - (rank_before[initial] > rank_before["E"])
    assert before_penalty != after


@pytest.mark.django_db
def test_ipg_event_game_loss_sets_the_match_against_the_team():
    event = Event(penalty_policy="ipg")
    event.pair("AB", "CD", "EF")
    event.report("A", "B")
    event.report("E", "F")

    game_loss = event.penalise("C", "TE-DLP", 1, found_during_deck_check=True)

    assert (game_loss["penalty"], game_loss["match_point_adjustment"]) == ("game_loss", 0)
    assert_standings(event, expected([("A", "B"), ("D", "C"), ("E", "F")]))
    event.overturn(game_loss["id"], "the registration was right")
    assert event.match("CD").result_kind == "pending"
    event.report("C", "D")
    assert_standings(event, expected([("A", "B"), ("C", "D"), ("E", "F")]))


@pytest.mark.django_db
def test_disqualification_overturned_before_the_next_round_puts_the_team_back_at_its_rank():
    event = Event(penalty_policy="ipg")
    event.pair("AB", "CD", "EF")
    for winner, loser in [("A", "B"), ("C", "D"), ("E", "F")]:
        event.report(winner, loser)
    event.pair("AC", "EB", "DF")
    wins = [("A", "B"), ("C", "D"), ("E", "F"), ("E", "B"), ("D", "F")]
    event.report("E", "B")
    event.report("D", "F")
    before = assert_standings(event, expected(wins))

    # Chandra is disqualified during round 2: her team loses its open match to Ajani and leaves the
    # standings; everyone below moves up.
    dq = event.penalise("C", "USC-C", 2, head_judge=True)
    assert event.match("AC").result_kind == "penalty_loss"
    assert_standings(event, expected([*wins, ("A", "C")], out="C"))

    # The appeal is upheld before round 3 is paired: the team is back where it was, its match open.
    event.overturn(dq["id"], "the cards were the player's own; no cheating")
    team = Team.objects.get(pk=event.teams["C"].pk)
    assert (team.disqualified, team.dropped_after_round) == (False, None)
    assert event.match("AC").result_kind == "pending"
    assert event.standings() == before

    # Once a later round is paired without the team, a DQ cannot be undone here (MTR 2.10 re-entry).
    dq = event.penalise("C", "USC-C", 2, head_judge=True)
    round_three = round_pair(tournament=event.tournament, actor=event.organizer)
    assert event.teams["C"].pk not in {
        team_id for m in round_three.matches.all() for team_id in (m.team_a_id, m.team_b_id)
    }
    response = event.head_judge.post(
        f"/api/v1/penalties/{dq['id']}/overturn/", {"reason": "appeal"}, format="json"
    )
    assert response.status_code == 409
    assert "re-enter the event (MTR 2.10)" in response.json()["detail"]
    assert "C" not in {initial for _, initial, *_ in event.standings()}
