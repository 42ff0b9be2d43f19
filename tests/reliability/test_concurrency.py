"""No lost updates: two people writing the same match (or pairing the same round) at the same moment.

Real threads, each with its own API client and database connection, released together by a
barrier, against PostgreSQL (SQLite serialises whole-database writes, so it would prove nothing;
these tests run in the service run, where the database is PostgreSQL). The tests commit
(``transaction=True``), because each thread sees only what the others committed.

What "one write wins" means differs by write, and each test says which rule it checks:

* a result report carries the version the client read, and the write is conditional on it, so of
  two reports from one version exactly one lands and the other is a 409 carrying the match as
  it is now (``tournaments.services.results``);
* penalties lock the match row first (``penalties.services.penalty_issue``), so two judges at one
  table are serialised: both penalties stand, and the match ends as if they had been entered one
  after the other. A result report racing a Game Loss: whichever lands second is a 409 (a loss
  after the result belongs to the next match, IPG 1.1); an overturn happens once, the second is a 409;
* pairing locks the event row, so a second "pair next round" finds round 1 there (409).

Whatever the interleaving, the assertions hold; when the threads do overlap, they are what the
row locks and the conditional update guarantee.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection

from penalties.models import Penalty
from tests.factories import MatchFactory, RoundFactory, StaffFactory, TournamentFactory
from tests.tournaments.factories import client_for, event_with_teams
from tournaments.enums import ResultKind, StaffRole
from tournaments.models import AuditEntry, Match, Round
from tournaments.services import results
from tournaments.services.results import match_result_report

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks and races need PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]


def at_once(*calls: Callable):
    """Run ``calls`` in threads released together; their results (or exceptions), in order.

    Each thread closes its own database connection, or the test database could not be flushed.
    """
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index: int, call: Callable) -> None:
        try:
            barrier.wait(timeout=30)
            results[index] = call()
        except BaseException as exc:  # noqa: BLE001 - handed to the test, which fails on it
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a thread is stuck (deadlock?)"
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return results


def two_table_round(*, penalty_policy: str = "ipg"):
    """Round 1 of a Competitive event with two tables and its staff.

    The second table stays unreported, so a confirmed first table never finishes the round (which
    would queue the standings as a side effect these tests are not about).
    """
    tournament = TournamentFactory(penalty_policy=penalty_policy)
    round_one = RoundFactory(tournament=tournament)
    match = MatchFactory(round=round_one, table=1)
    MatchFactory(round=round_one, table=2)
    staff = {
        role: [StaffFactory(tournament=tournament, role=role).user for _ in range(2)]
        for role in (StaffRole.SCOREKEEPER, StaffRole.JUDGE, StaffRole.HEAD_JUDGE)
    }
    return tournament, match, staff


def result_url(match: Match) -> str:
    return f"/api/v1/matches/{match.pk}/result/"


def penalties_url(tournament) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/penalties/"


def game_loss_body(player) -> dict:
    """A Decklist Problem found in a deck check: a Game Loss under the IPG policy, which ends the
    single 2HG game, so the match goes against the player's team."""
    return {
        "player": player.pk,
        "round": 1,
        "infraction": "TE-DLP",
        "description": "decklist does not match the deck",
        "found_during_deck_check": True,
    }


def put_result(client, match: Match, a: int, b: int, draws: int, version: int, reason: str = "") -> Callable:
    body = {"team_a_wins": a, "team_b_wins": b, "draws": draws, "version": version, "reason": reason}
    return lambda: client.put(result_url(match), body, format="json")


def test_two_scorekeepers_correcting_one_result_from_one_version_one_wins_one_gets_409(monkeypatch):
    """The first request to lock the match is held inside its transaction (at the check of the
    record) long enough for the second to arrive: the second must wait on the match's row lock and
    then find the version moved (409). Without the lock both would read version 2 and both write:
    the lost update this test is about.
    """
    first_inside = threading.Event()
    check_record = results.result_problems

    def hold_the_first(*args, **kwargs):
        if not first_inside.is_set():
            first_inside.set()
            time.sleep(0.5)
        return check_record(*args, **kwargs)

    tournament, match, staff = two_table_round()
    first, second = staff[StaffRole.SCOREKEEPER]
    reported = match_result_report(match=match, actor=first, team_a_wins=1, team_b_wins=0, draws=0, version=1)
    assert (reported.version, reported.confirmed) == (2, True)
    corrections = {"0-1": (0, 1, 0), "time draw": (0, 0, 1)}
    monkeypatch.setattr(results, "result_problems", hold_the_first)

    responses = at_once(
        put_result(client_for(first), match, *corrections["0-1"], version=2, reason="slip misread"),
        put_result(client_for(second), match, *corrections["time draw"], version=2, reason="time was called"),
    )

    assert first_inside.is_set()
    assert sorted(r.status_code for r in responses) == [200, 409], [r.json() for r in responses]
    won, lost = sorted(responses, key=lambda r: r.status_code)
    winner = corrections["0-1"] if won is responses[0] else corrections["time draw"]
    row = Match.objects.get(pk=match.pk)
    assert (row.team_a_wins, row.team_b_wins, row.draws, row.version, row.confirmed) == (*winner, 3, True)
    assert (won.json()["team_a_wins"], won.json()["team_b_wins"], won.json()["draws"]) == winner
    body = lost.json()
    assert body["errors"] == [{"field": "version", "message": "stale: the current version is 3"}]
    assert (body["match"]["version"], body["match"]["team_a_wins"], body["match"]["draws"]) == (
        3,
        winner[0],
        winner[2],
    )
    corrected = AuditEntry.objects.filter(action="match_result_correct", object_id=str(match.pk))
    assert corrected.count() == 1
    assert (corrected.get().after["team_b_wins"], corrected.get().after["draws"]) == winner[1:]
    assert corrected.get().reason == ("slip misread" if winner == corrections["0-1"] else "time was called")


def test_two_judges_giving_game_losses_to_both_teams_at_once_end_as_if_one_after_the_other():
    """Both penalties stand; the match goes against the team whose penalty was saved first (the
    later loss, not simultaneous, changes nothing: IPG 1.1), and the result is written once.

    Without the row lock, each judge's transaction would see only its own penalty and set the
    match against its own team: the last to commit would win, whatever the order of the record.
    """
    tournament, match, staff = two_table_round()
    a1 = match.team_a.players.order_by("position").first()
    b1 = match.team_b.players.order_by("position").first()
    judge_one, judge_two = staff[StaffRole.JUDGE]

    responses = at_once(
        lambda: client_for(judge_one).post(penalties_url(tournament), game_loss_body(a1), format="json"),
        lambda: client_for(judge_two).post(penalties_url(tournament), game_loss_body(b1), format="json"),
    )

    assert [r.status_code for r in responses] == [201, 201], [r.json() for r in responses]
    assert [r.json()["penalty"] for r in responses] == ["game_loss", "game_loss"]
    first_saved = Penalty.objects.filter(match=match).order_by("pk").first()
    row = Match.objects.get(pk=match.pk)
    loser_a = first_saved.team_id == match.team_a_id
    assert (row.result_kind, row.team_a_wins, row.team_b_wins) == (
        ResultKind.MATCH_LOSS,
        0 if loser_a else 1,
        1 if loser_a else 0,
    )
    assert row.version == 2
    assert list(row.reports.values_list("source", "match_version")) == [("penalty", 1)]
    assert Penalty.objects.filter(match=match, overturned=False).count() == 2
    actions = sorted(AuditEntry.objects.filter(tournament=tournament).values_list("action", flat=True))
    assert actions == ["match_penalty_result", "penalty_issue", "penalty_issue"]


def test_a_result_report_racing_a_game_loss_is_applied_before_it_or_refused():
    """Either order is a consistent history. The penalty lands first: the match is lost by the
    penalised team and the report, from a stale version, is a 409 showing the penalty result. The
    report lands first: the match is over, so the loss belongs to the team's next match, which is
    not paired yet, and the penalty is refused (409) with nothing saved. Never both, never neither."""
    tournament, match, staff = two_table_round()
    a1 = match.team_a.players.order_by("position").first()

    report, penalty = at_once(
        put_result(client_for(staff[StaffRole.SCOREKEEPER][0]), match, 0, 1, 0, version=1),
        lambda: client_for(staff[StaffRole.JUDGE][0]).post(
            penalties_url(tournament), game_loss_body(a1), format="json"
        ),
    )

    row = Match.objects.get(pk=match.pk)
    assert sorted([report.status_code, penalty.status_code]) in ([200, 409], [201, 409]), (
        report.json(),
        penalty.json(),
    )
    if penalty.status_code == 201:
        assert report.status_code == 409
        assert (row.result_kind, row.team_a_wins, row.team_b_wins, row.version) == (
            ResultKind.MATCH_LOSS,
            0,
            1,
            2,
        )
        assert report.json()["match"]["result_kind"] == ResultKind.MATCH_LOSS
        assert Penalty.objects.filter(match=match).count() == 1
        assert AuditEntry.objects.filter(action="match_penalty_result").count() == 1
    else:
        assert (report.status_code, penalty.status_code) == (200, 409)
        assert "next match" in penalty.json()["detail"]
        assert (row.result_kind, row.team_a_wins, row.team_b_wins, row.version) == (
            ResultKind.PLAYED,
            0,
            1,
            2,
        )
        assert Penalty.objects.filter(match=match).count() == 0
        assert AuditEntry.objects.filter(action="match_penalty_result").count() == 0


def test_two_head_judges_overturning_one_penalty_at_once_one_overturns_one_gets_409():
    tournament, match, staff = two_table_round()
    a1 = match.team_a.players.order_by("position").first()
    issued = client_for(staff[StaffRole.JUDGE][0]).post(
        penalties_url(tournament), game_loss_body(a1), format="json"
    )
    assert issued.status_code == 201, issued.json()
    penalty_id = issued.json()["id"]
    assert Match.objects.get(pk=match.pk).version == 2
    url = f"/api/v1/penalties/{penalty_id}/overturn/"

    responses = at_once(
        *[
            lambda user=user: client_for(user).post(url, {"reason": "the list was right"}, format="json")
            for user in staff[StaffRole.HEAD_JUDGE]
        ]
    )

    assert sorted(r.status_code for r in responses) == [200, 409], [r.json() for r in responses]
    refused = next(r for r in responses if r.status_code == 409)
    assert refused.json()["detail"] == f"Penalty {penalty_id} is already overturned"
    row = Match.objects.get(pk=match.pk)
    assert (row.result_kind, row.team_a_wins, row.team_b_wins, row.version) == (ResultKind.PENDING, 0, 0, 3)
    assert list(row.reports.values_list("source", flat=True)) == ["penalty", "penalty_cleared"]
    assert AuditEntry.objects.filter(action="penalty_overturn").count() == 1
    assert AuditEntry.objects.filter(action="match_penalty_result_clear").count() == 1


def test_two_simultaneous_pair_requests_through_the_api_create_one_round():
    tournament = event_with_teams(8, swiss_rounds=3)
    url = f"/api/v1/tournaments/{tournament.pk}/rounds/"
    clients = [client_for(tournament.created_by), client_for(tournament.created_by)]

    responses = at_once(*[lambda client=client: client.post(url, {}, format="json") for client in clients])

    assert sorted(r.status_code for r in responses) == [201, 409]
    created = next(r for r in responses if r.status_code == 201).json()
    refused = next(r for r in responses if r.status_code == 409).json()
    assert created["number"] == 1
    assert refused["detail"] in (
        "round 1 still has unconfirmed results at table(s) 1, 2, 3, 4",
        "round 1 was just paired by someone else",
    )
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert Match.objects.filter(round__tournament=tournament).count() == 4
    assert AuditEntry.objects.filter(tournament=tournament, action="round_pair").count() == 1


def test_two_players_accepting_the_last_seat_at_once_one_joins():
    """Invitations: the event lock serialises seating, so of two players taking a team's last
    seat with its join code at the same moment exactly one joins; the other is told the team
    is full (409), and the team never has more players than the event's team size."""
    from tests.factories import UserFactory
    from tournaments.models import Player, Team

    tournament = event_with_teams(0)
    captain, first, second = UserFactory(), UserFactory(), UserFactory()
    created = client_for(captain).post(
        f"/api/v1/tournaments/{tournament.pk}/teams/",
        {
            "name": "Dual Wield",
            "players": [{"name": "Cap", "wizards_id": "cap@wotc.example", "username": captain.username}],
        },
        format="json",
    )
    code = created.json()["join_code"]

    def accept(user):
        return lambda: (
            client_for(user)
            .post(
                f"/api/v1/invitations/{code}/accept/",
                {"wizards_id": f"{user.username}@wotc.example"},
                format="json",
            )
            .status_code
        )

    statuses = at_once(accept(first), accept(second))
    assert sorted(statuses) == [200, 409]
    team = Team.objects.get(pk=created.json()["id"])
    assert team.players.count() == 2
    assert Player.objects.filter(user__in=[first, second]).count() == 1
    assert AuditEntry.objects.filter(action="invitation_accept").count() == 1
