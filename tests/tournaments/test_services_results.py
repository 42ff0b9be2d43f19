"""Result reports: versions, who confirms, legal records, penalty results and their audit rows."""

from __future__ import annotations

import pytest

from common.errors import ConflictError, DomainError
from tests.factories import UserFactory
from tests.tournaments.factories import add_staff, client_for, event_with_teams, register_team
from tournaments.domain.result_state import ResultState
from tournaments.enums import StaffRole
from tournaments.models import AuditEntry, Match
from tournaments.selectors import match_result_state, result_columns
from tournaments.services.manual_pairing import round_pair_manual
from tournaments.services.results import (
    match_penalty_result_clear,
    match_penalty_result_set,
    match_result_report,
)
from tournaments.services.rounds import round_publish

pytestmark = pytest.mark.django_db


@pytest.fixture
def match_setup():
    organizer, player_a, player_b = UserFactory(), UserFactory(), UserFactory()
    tournament = event_with_teams(0, organizer=organizer, swiss_rounds=3)
    team_a = register_team(tournament, "Alpha", actor=organizer, usernames=(player_a.username,))
    team_b = register_team(tournament, "Beta", actor=organizer, usernames=(player_b.username,))
    round_obj = round_pair_manual(
        tournament=tournament, actor=organizer, matches=[(team_a.pk, team_b.pk)], reason="two teams"
    )
    round_publish(round_row=round_obj, actor=organizer)
    return {
        "match": Match.objects.get(round=round_obj),
        "organizer": organizer,
        "scorekeeper": add_staff(tournament, StaffRole.SCOREKEEPER),
        "player_a": player_a,
        "player_b": player_b,
    }


def report(match, actor, score, version, reason=""):
    return match_result_report(
        match=match,
        actor=actor,
        team_a_wins=score[0],
        team_b_wins=score[1],
        draws=score[2],
        version=version,
        reason=reason,
    )


def test_stale_version_answers_409_with_the_current_match(match_setup):
    match, scorekeeper = match_setup["match"], client_for(match_setup["scorekeeper"])
    path = f"/api/v1/matches/{match.pk}/result/"
    first = scorekeeper.put(
        path, {"team_a_wins": 1, "team_b_wins": 0, "draws": 0, "version": 1}, format="json"
    )
    assert (first.status_code, first.json()["version"]) == (200, 2)
    stale = scorekeeper.put(
        path, {"team_a_wins": 0, "team_b_wins": 1, "draws": 0, "version": 1}, format="json"
    )
    assert stale.status_code == 409
    current = stale.json()["match"]
    assert (
        current["id"],
        current["version"],
        current["team_a_wins"],
        current["team_b_wins"],
        current["confirmed"],
    ) == (
        match.pk,
        2,
        1,
        0,
        True,
    )
    assert stale.json()["errors"] == [{"field": "version", "message": "stale: the current version is 2"}]
    assert Match.objects.get(pk=match.pk).team_a_wins == 1


def test_same_report_from_both_teams_confirms(match_setup):
    match = match_setup["match"]
    first = report(match, match_setup["player_a"], (1, 0, 1), 1)
    assert (first.confirmed, first.reported_side, first.version) == (False, "A", 2)
    second = report(match, match_setup["player_b"], (1, 0, 1), 2)
    assert (second.confirmed, second.disputed, second.version) == (True, False, 3)


def test_different_report_from_the_other_team_is_flagged_and_a_scorekeeper_decides(match_setup):
    match = match_setup["match"]
    report(match, match_setup["player_a"], (1, 0, 0), 1)
    disputed = report(match, match_setup["player_b"], (0, 1, 0), 2)
    assert (disputed.confirmed, disputed.disputed, disputed.team_b_wins) == (False, True, 1)
    assert AuditEntry.objects.filter(action="match_result_disputed", object_id=str(match.pk)).count() == 1
    decided = report(match, match_setup["scorekeeper"], (1, 0, 0), 3)
    assert (decided.confirmed, decided.disputed, decided.team_a_wins) == (True, False, 1)
    entry = AuditEntry.objects.get(action="match_result_decide")
    assert (entry.before["team_b_wins"], entry.after["team_a_wins"]) == (1, 1)


def test_player_cannot_change_a_confirmed_result(match_setup):
    match = match_setup["match"]
    report(match, match_setup["scorekeeper"], (1, 0, 0), 1)
    with pytest.raises(ConflictError):
        report(match, match_setup["player_b"], (0, 1, 0), 2)


def test_staff_correction_of_a_confirmed_result_is_audited(match_setup):
    match = match_setup["match"]
    report(match, match_setup["scorekeeper"], (1, 0, 0), 1)
    report(match, match_setup["organizer"], (0, 0, 3), 2, reason="intentional draw, slip misread")
    entry = AuditEntry.objects.get(action="match_result_correct")
    assert (entry.before["team_a_wins"], entry.before["draws"]) == (1, 0)
    assert (entry.after["team_a_wins"], entry.after["draws"], entry.after["version"]) == (0, 3, 3)
    assert entry.reason == "intentional draw, slip misread"


def test_staff_correction_of_a_confirmed_result_needs_a_reason(match_setup):
    match = match_setup["match"]
    report(match, match_setup["scorekeeper"], (1, 0, 0), 1)
    with pytest.raises(DomainError) as refused:
        report(match, match_setup["organizer"], (0, 1, 0), 2, reason="  ")
    assert (refused.value.status_code, refused.value.errors) == (
        400,
        [{"field": "reason", "message": "required"}],
    )
    assert AuditEntry.objects.filter(action="match_result_correct").count() == 0


@pytest.mark.parametrize("score", [(1, 0, 0), (0, 1, 0), (1, 0, 2), (0, 0, 1), (0, 0, 3)])
def test_legal_single_game_records(match_setup, score):
    assert report(match_setup["match"], match_setup["scorekeeper"], score, 1).confirmed is True


@pytest.mark.parametrize(
    "score,field",
    [((1, 1, 0), "team_b_wins"), ((2, 0, 0), "team_a_wins"), ((0, 0, 0), "draws"), ((0, 0, 4), "draws")],
)
def test_impossible_single_game_records(match_setup, score, field):
    with pytest.raises(DomainError) as refused:
        report(match_setup["match"], match_setup["scorekeeper"], score, 1)
    assert refused.value.status_code == 400
    assert [e["field"] for e in refused.value.errors] == [field]


@pytest.mark.parametrize(
    "score,legal",
    [((2, 1, 0), True), ((2, 0, 1), True), ((1, 1, 1), True), ((3, 0, 0), False), ((2, 2, 0), False)],
)
def test_best_of_three_records(score, legal):
    organizer = UserFactory()
    tournament = event_with_teams(2, organizer=organizer, team_size=1, swiss_rounds=3)
    teams = list(tournament.teams.order_by("id"))
    round_obj = round_pair_manual(
        tournament=tournament, actor=organizer, matches=[(teams[0].pk, teams[1].pk)], reason="x"
    )
    match = Match.objects.get(round=round_obj)
    if legal:
        assert report(match, organizer, score, 1).confirmed is True
    else:
        with pytest.raises(DomainError):
            report(match, organizer, score, 1)


def test_penalty_result_keeps_and_restores_the_reported_result(match_setup):
    match, judge = match_setup["match"], match_setup["organizer"]
    report(match, match_setup["scorekeeper"], (1, 0, 1), 1)
    penalised = match_penalty_result_set(
        match=match, actor=judge, losing_team_id=match.team_a_id, reason="Marked cards"
    )
    assert (penalised.result_kind, penalised.team_a_wins, penalised.team_b_wins, penalised.draws) == (
        "penalty_loss",
        0,
        1,
        0,
    )
    entry = AuditEntry.objects.get(action="match_penalty_result")
    assert (entry.before["team_a_wins"], entry.before["draws"], entry.reason) == (1, 1, "Marked cards")
    cleared = match_penalty_result_clear(match=match, actor=judge, reason="Appeal upheld")
    assert (cleared.result_kind, cleared.team_a_wins, cleared.draws, cleared.confirmed) == (
        "played",
        1,
        1,
        True,
    )


def test_double_loss_then_clear_returns_to_pending(match_setup):
    match = match_setup["match"]
    double = match_penalty_result_set(
        match=match, actor=match_setup["organizer"], losing_team_id=None, reason="Collusion"
    )
    assert (double.result_kind, double.team_a_wins, double.team_b_wins) == ("double_loss", 0, 0)
    with pytest.raises(ConflictError):
        report(match, match_setup["scorekeeper"], (1, 0, 0), double.version)
    cleared = match_penalty_result_clear(match=match, actor=match_setup["organizer"], reason="Overturned")
    assert (cleared.result_kind, cleared.confirmed) == ("pending", False)


def _cached(match: Match) -> dict:
    row = Match.objects.select_related("round__tournament").get(pk=match.pk)
    return {field: getattr(row, field) for field in result_columns(ResultState())}


def _recomputed(match: Match) -> dict:
    row = Match.objects.select_related("round__tournament").get(pk=match.pk)
    return result_columns(match_result_state(row))


def test_the_match_columns_always_equal_what_its_reports_give(match_setup):
    """Every service write keeps the result columns equal to the recomputation from the report
    rows; a cleared penalty gives back the players' confirmed report, not a saved copy."""
    match, organizer = match_setup["match"], match_setup["organizer"]
    steps = [
        lambda v: report(match, match_setup["player_a"], (1, 0, 0), v),
        lambda v: report(match, match_setup["player_b"], (0, 1, 0), v),
        lambda v: report(match, match_setup["player_b"], (1, 0, 0), v),
        lambda v: match_penalty_result_set(
            match=match, actor=organizer, losing_team_id=match.team_a_id, reason="DQ"
        ),
        lambda v: match_penalty_result_set(match=match, actor=organizer, losing_team_id=None, reason="both"),
        lambda v: match_penalty_result_clear(match=match, actor=organizer, reason="appeal"),
        lambda v: report(match, match_setup["scorekeeper"], (0, 0, 3), v, reason="slip misread"),
    ]
    version = 1
    for step in steps:
        version = step(version).version
        assert _cached(match) == _recomputed(match)
    rows = list(match.reports.values_list("source", "side", "match_version"))
    assert rows == [
        ("player", "A", 1),
        ("player", "B", 2),
        ("player", "B", 3),
        ("penalty", "A", 4),
        ("penalty", "", 5),
        ("penalty_cleared", "", 6),
        ("staff", "", 7),
    ]
    assert (_cached(match)["draws"], _cached(match)["confirmed"]) == (3, True)


def test_clearing_a_penalty_restores_the_confirmed_report_by_recomputation(match_setup):
    match, organizer = match_setup["match"], match_setup["organizer"]
    report(match, match_setup["player_a"], (1, 0, 1), 1)
    report(match, match_setup["player_b"], (1, 0, 1), 2)
    match_penalty_result_set(match=match, actor=organizer, losing_team_id=match.team_a_id, reason="DQ")
    restored = match_penalty_result_clear(match=match, actor=organizer, reason="DQ overturned")
    assert (restored.result_kind, restored.team_a_wins, restored.draws, restored.confirmed) == (
        "played",
        1,
        1,
        True,
    )
    assert (restored.reported_by_id, restored.reported_side) == (match_setup["player_b"].pk, "B")


def test_a_staff_decision_on_a_dispute_keeps_both_teams_reports_in_the_audit(match_setup):
    match = match_setup["match"]
    report(match, match_setup["player_a"], (1, 0, 0), 1)
    report(match, match_setup["player_b"], (0, 1, 0), 2)
    report(match, match_setup["scorekeeper"], (0, 1, 0), 3)
    entry = AuditEntry.objects.get(action="match_result_decide")
    assert [(r["side"], r["result"]) for r in entry.before["reports"]] == [("A", "1-0-0"), ("B", "0-1-0")]
