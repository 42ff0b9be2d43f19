"""Issuing and overturning penalties: the stored decision and every team consequence."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from common.errors import ConflictError, DomainError
from common.i18n import localize
from common.translatable import from_data
from penalties.domain import PenaltyRuleError
from penalties.models import Penalty
from penalties.reviews import penalty_overturn
from penalties.selectors import match_point_adjustments, slow_play_penalty_times
from penalties.services import penalty_issue, penalty_propose
from tests.factories import MatchFactory, RoundFactory, TeamFactory
from tournaments.enums import ResultKind
from tournaments.models import AuditEntry, Disqualification, Match, Team
from tournaments.services.participation import team_drop
from tournaments.services.results import match_result_report


def issue(table, player, infraction, *, actor=None, **kwargs):
    return penalty_issue(
        tournament=table.tournament,
        actor=actor or table.judge,
        player=player,
        round_row=table.round,
        infraction=infraction,
        description=kwargs.pop("description", "seen by the floor judge"),
        **kwargs,
    )


def report(table, a_wins: int, b_wins: int) -> Match:
    match = Match.objects.get(pk=table.match.pk)
    return match_result_report(
        match=match,
        actor=table.scorekeeper,
        team_a_wins=a_wins,
        team_b_wins=b_wins,
        draws=0,
        version=match.version,
    )


def result(table) -> tuple[str, int, int]:
    match = Match.objects.get(pk=table.match.pk)
    return match.result_kind, match.team_a_wins, match.team_b_wins


def test_propose_counts_the_players_earlier_warnings_and_saves_nothing(table):
    issue(table, table.a1, "TE-SP")

    decision = penalty_propose(
        tournament=table.tournament, player=table.a1, round_row=table.round, infraction="TE-SP", context={}
    )

    assert decision.penalty == "match_loss"
    assert decision.upgraded is True
    assert decision.explanation == (
        "Competitive, 2nd TE-SP Warning → upgraded to Game Loss → match_point policy: upgrade → Match Loss"
    )
    assert Penalty.objects.count() == 1


def test_propose_does_not_pool_teammates_penalties(table):
    issue(table, table.a1, "TE-SP")

    decision = penalty_propose(
        tournament=table.tournament, player=table.a2, round_row=table.round, infraction="TE-SP", context={}
    )

    assert (decision.penalty, decision.upgraded) == ("warning", False)


def test_issue_stores_the_decision_and_writes_an_audit_entry(table):
    penalty = issue(table, table.a1, "TE-SP")

    stored = Penalty.objects.get(pk=penalty.pk)
    assert (stored.team_id, stored.match_id, stored.judge_id) == (
        table.match.team_a_id,
        table.match.pk,
        table.judge.pk,
    )
    assert (stored.base_penalty, stored.proposed_penalty, stored.penalty) == ("warning", "warning", "warning")
    assert stored.extra_turns == 2
    assert stored.explanation == "Competitive, TE-SP (Slow Play): Warning"
    entry = AuditEntry.objects.get(action="penalty_issue")
    assert (entry.actor_id, entry.object_id, entry.reason) == (
        table.judge.pk,
        str(penalty.pk),
        "seen by the floor judge",
    )
    assert entry.after["penalty"] == "warning"


def test_game_loss_under_ipg_sets_the_match_against_the_team(table):
    table.tournament.penalty_policy = "ipg"
    table.tournament.save()

    penalty = issue(table, table.a2, "TE-DLP", context={"found_during_deck_check": True})

    assert penalty.penalty == "game_loss"
    assert result(table) == (ResultKind.MATCH_LOSS, 0, 1)


def test_deck_check_game_loss_under_match_point_costs_one_point_not_the_match(table):
    report(table, 1, 0)

    penalty = issue(table, table.a2, "TE-DLP", context={"found_during_deck_check": True})

    assert (penalty.penalty, penalty.match_point_adjustment) == ("match_point", -1)
    assert result(table) == (ResultKind.PLAYED, 1, 0)
    assert match_point_adjustments(table.tournament.pk) == {table.match.team_a_id: -1}


def test_simultaneous_losses_on_both_teams_change_no_score(table):
    table.tournament.penalty_policy = "ipg"
    table.tournament.save()

    first = issue(table, table.a1, "TE-DLP", context={"found_during_deck_check": True})
    assert result(table) == (ResultKind.MATCH_LOSS, 0, 1)
    issue(table, table.b1, "TE-DLP", context={"found_during_deck_check": True}, simultaneous_with=first)

    assert result(table) == (ResultKind.PENDING, 0, 0)
    assert Penalty.objects.filter(overturned=False).count() == 2


def test_simultaneous_match_losses_on_both_teams_are_a_double_loss(table):
    first = issue(table, table.a1, "USC-IDW")
    assert result(table) == (ResultKind.MATCH_LOSS, 0, 1)

    second = issue(table, table.b1, "USC-IDW", simultaneous_with=first)

    assert (first.penalty, second.penalty) == ("match_loss", "match_loss")
    assert second.simultaneous_with_id == first.pk
    assert result(table) == (ResultKind.DOUBLE_LOSS, 0, 0)


def test_overturning_one_match_loss_of_a_double_loss_leaves_the_other_teams_loss(table):
    first = issue(table, table.a1, "USC-BW")
    second = issue(table, table.b1, "USC-BW", simultaneous_with=first)

    penalty_overturn(penalty=first, actor=table.head_judge, reason="no wager was offered")

    assert result(table) == (ResultKind.MATCH_LOSS, 1, 0)
    penalty_overturn(penalty=second, actor=table.head_judge, reason="no wager was offered")
    assert result(table) == (ResultKind.PENDING, 0, 0)


def test_a_later_simultaneous_penalty_joins_the_first_of_its_ruling(table):
    first = issue(table, table.a1, "GPE-LEC")
    second = issue(table, table.b1, "GPE-LEC", simultaneous_with=first)

    third = issue(table, table.b2, "GPE-LEC", simultaneous_with=second)

    assert third.simultaneous_with_id == first.pk


def test_simultaneous_with_a_penalty_at_another_table_is_refused(table):
    other = MatchFactory(round=table.round, table=2)
    elsewhere = issue(table, other.team_a.players.first(), "GPE-LEC")

    with pytest.raises(DomainError) as refused:
        issue(table, table.a1, "GPE-LEC", simultaneous_with=elsewhere)

    assert refused.value.errors == [
        {"field": "simultaneous_with", "message": "not a standing penalty at this match"}
    ]


def test_a_loss_for_a_team_with_a_bye_is_refused_and_nothing_is_saved(table):
    team = TeamFactory(tournament=table.tournament)
    MatchFactory(round=table.round, table=None, team_a=team, team_b=None, seats={}, result_kind="bye")

    with pytest.raises(DomainError) as refused:
        issue(table, team.players.first(), "TE-OA")

    assert refused.value.errors[0]["field"] == "round"
    assert Penalty.objects.count() == 0


def test_slow_play_times_list_each_standing_penalty_at_its_table(table):
    first = issue(table, table.a1, "TE-SP")
    second = issue(table, table.b1, "TE-SP")

    assert slow_play_penalty_times([table.match.pk]) == {
        table.match.pk: [first.created_at, second.created_at]
    }

    penalty_overturn(penalty=first, actor=table.head_judge, reason="video shows normal pace")
    assert slow_play_penalty_times([table.match.pk]) == {table.match.pk: [second.created_at]}


def test_slow_play_adds_no_turns_once_time_is_called_or_at_regular(table):
    Match.objects.filter(pk=table.match.pk).update(
        time_called_at=timezone.now() - datetime.timedelta(minutes=1)
    )
    in_turns = issue(table, table.a1, "TE-SP")
    assert in_turns.extra_turns == 0

    table.tournament.rel = "regular"
    table.tournament.save()
    issue(table, table.b1, "TE-SP")

    assert slow_play_penalty_times([table.match.pk]) == {}


def test_game_rule_violation_offers_ftmgs_to_teammate_then_opponents_in_seat_order(table):
    Match.objects.filter(pk=table.match.pk).update(
        seats={"A": [table.a2.pk, table.a1.pk], "B": [table.b2.pk, table.b1.pk]}
    )

    penalty = issue(table, table.a1, "GPE-GRV")

    assert penalty.offer_ftmgs_to == [table.a2.pk, table.b2.pk, table.b1.pk]


def test_only_the_head_judge_may_deviate(table):
    with pytest.raises(PenaltyRuleError) as refused:
        issue(table, table.a1, "GPE-LEC", penalty="game_loss", deviation_reason="third look this round")

    assert refused.value.status_code == 403
    assert Penalty.objects.count() == 0


def test_a_deviation_needs_a_reason(table):
    with pytest.raises(PenaltyRuleError) as refused:
        issue(table, table.a1, "GPE-LEC", actor=table.head_judge, penalty="game_loss", deviation_reason=" ")

    assert (refused.value.status_code, refused.value.errors[0]["field"]) == (400, "reason")


def test_head_judge_deviation_is_stored_with_its_effects(table):
    penalty = issue(
        table,
        table.a1,
        "GPE-LEC",
        actor=table.head_judge,
        penalty="match_loss",
        deviation_reason="did it on purpose",
    )

    assert (penalty.proposed_penalty, penalty.penalty, penalty.deviated) == ("warning", "match_loss", True)
    assert penalty.deviation_reason == "did it on purpose"
    assert result(table) == (ResultKind.MATCH_LOSS, 0, 1)


def test_sending_the_proposed_penalty_back_is_not_a_deviation(table):
    penalty = issue(table, table.a1, "GPE-LEC", penalty="warning")

    assert (penalty.penalty, penalty.deviated) == ("warning", False)


def test_overturn_restores_the_result_before_the_penalty_and_is_audited(table):
    penalty = issue(table, table.a1, "TE-OA")
    assert result(table) == (ResultKind.MATCH_LOSS, 0, 1)

    penalty_overturn(penalty=penalty, actor=table.head_judge, reason="the note was the player's own")

    assert result(table) == (ResultKind.PENDING, 0, 0)
    stored = Penalty.objects.get(pk=penalty.pk)
    assert (stored.overturned, stored.overturned_by_id, stored.overturn_reason) == (
        True,
        table.head_judge.pk,
        "the note was the player's own",
    )
    entry = AuditEntry.objects.get(action="penalty_overturn")
    assert entry.after["overturned"] is True
    assert localize(from_data(entry.after["restored"])) == (
        "overturned by the head judge (the note was the player's own): match result recomputed without this penalty"
    )


def test_overturn_keeps_the_result_another_penalty_still_decides(table):
    first = issue(table, table.b1, "TE-OA")
    second = issue(table, table.b2, "USC-BW", actor=table.head_judge)

    penalty_overturn(penalty=second, actor=table.head_judge, reason="no wager was offered")

    assert result(table) == (ResultKind.MATCH_LOSS, 1, 0)
    penalty_overturn(penalty=first, actor=table.head_judge, reason="no assistance")
    assert result(table) == (ResultKind.PENDING, 0, 0)


def test_overturning_the_deciding_penalty_hands_the_match_to_a_later_one(table):
    first = issue(table, table.a1, "TE-OA")
    issue(table, table.b1, "USC-BW", actor=table.head_judge)

    penalty_overturn(penalty=first, actor=table.head_judge, reason="no assistance")

    assert result(table) == (ResultKind.MATCH_LOSS, 1, 0)


def test_overturned_penalties_no_longer_count_for_upgrades(table):
    first = issue(table, table.a1, "TE-SP")
    penalty_overturn(penalty=first, actor=table.head_judge, reason="pace was fine")

    second = issue(table, table.a1, "TE-SP")

    assert (second.penalty, second.upgraded) == ("warning", False)


def test_only_the_head_judge_overturns_and_only_once(table):
    penalty = issue(table, table.a1, "TE-DLP", context={"found_during_deck_check": True})

    with pytest.raises(PenaltyRuleError) as refused:
        penalty_overturn(penalty=penalty, actor=table.judge, reason="mistake")
    assert refused.value.status_code == 403

    penalty_overturn(penalty=penalty, actor=table.head_judge, reason="the list was right")
    assert match_point_adjustments(table.tournament.pk) == {}
    with pytest.raises(PenaltyRuleError) as refused_again:
        penalty_overturn(penalty=penalty, actor=table.judge, reason="again")
    assert refused_again.value.status_code == 403
    with pytest.raises(ConflictError):
        penalty_overturn(penalty=penalty, actor=table.head_judge, reason="again")


def test_disqualification_overturned_before_the_next_round_reinstates_the_team_and_its_result(table):
    reported = Match.objects.get(pk=table.match.pk)
    match_result_report(
        match=reported,
        actor=table.player_user,
        team_a_wins=0,
        team_b_wins=1,
        draws=0,
        version=reported.version,
    )
    penalty = issue(table, table.b2, "USC-AB", actor=table.head_judge)
    team = table.match.team_b
    team.refresh_from_db()
    assert (team.disqualified, team.dropped_after_round) == (True, 1)
    assert result(table) == (ResultKind.MATCH_LOSS, 1, 0)

    penalty_overturn(penalty=penalty, actor=table.head_judge, reason="it was a joke between friends")

    team.refresh_from_db()
    assert (team.disqualified, team.dropped_after_round, team.drop_reason) == (False, None, "")
    match = Match.objects.get(pk=table.match.pk)
    assert (match.result_kind, match.team_a_wins, match.team_b_wins, match.confirmed) == (
        ResultKind.PLAYED,
        0,
        1,
        False,
    )
    entry = AuditEntry.objects.get(action="team_reinstate")
    assert (entry.object_id, entry.before, entry.after, entry.reason) == (
        str(team.pk),
        {"dropped_after_round": 1, "disqualified": True},
        {"dropped_after_round": None, "disqualified": False},
        f"penalty {penalty.pk} overturned: it was a joke between friends",
    )


def test_disqualification_of_a_team_that_had_dropped_keeps_the_drop_when_overturned(table):
    team_drop(team=table.match.team_b, actor=table.scorekeeper, reason="going home")
    penalty = issue(table, table.b2, "USC-AB", actor=table.head_judge)

    penalty_overturn(penalty=penalty, actor=table.head_judge, reason="no aggression")

    team = Team.objects.get(pk=table.match.team_b_id)
    assert (team.disqualified, team.dropped_after_round) == (False, 1)


def test_reinstating_gives_back_the_drop_and_its_reason_from_the_disqualification_record(table):
    """The DQ overwrote the drop's reason, and reinstating read the drop back from the audit log;
    the team's Disqualification record keeps both, and the audit is history only."""
    team_drop(team=table.match.team_b, actor=table.scorekeeper, reason="going home")
    penalty = issue(table, table.b2, "USC-AB", actor=table.head_judge)
    record = Disqualification.objects.get(team=table.match.team_b)
    assert (record.dropped_after_round_before, record.drop_reason_before) == (1, "going home")
    AuditEntry.objects.filter(action="team_disqualify").delete()

    penalty_overturn(penalty=penalty, actor=table.head_judge, reason="no aggression")

    team = Team.objects.get(pk=table.match.team_b_id)
    assert (team.disqualified, team.dropped_after_round, team.drop_reason) == (False, 1, "going home")
    assert not Disqualification.objects.filter(team=team).exists()


def test_disqualification_cannot_be_overturned_once_a_later_round_was_paired(table):
    penalty = issue(table, table.b2, "USC-AB", actor=table.head_judge)
    MatchFactory(round=RoundFactory(tournament=table.tournament, number=2), team_a=table.match.team_a)

    with pytest.raises(ConflictError) as refused:
        penalty_overturn(penalty=penalty, actor=table.head_judge, reason="it was a joke")

    assert "round 2 was paired after it" in refused.value.message
    assert "re-enter the event (MTR 2.10)" in refused.value.message
    assert Penalty.objects.get(pk=penalty.pk).overturned is False
    assert Team.objects.get(pk=table.match.team_b_id).disqualified is True
    assert result(table) == (ResultKind.MATCH_LOSS, 1, 0)


def test_a_loss_after_the_result_was_reported_lands_on_the_teams_next_match(table):
    report(table, 1, 0)
    round_two = RoundFactory(tournament=table.tournament, number=2)
    next_match = MatchFactory(round=round_two, table=4, team_b=table.match.team_a)

    penalty = issue(table, table.a1, "TE-DLP")

    assert penalty.penalty == "game_loss"
    assert result(table) == (ResultKind.PLAYED, 1, 0)
    after = Match.objects.get(pk=next_match.pk)
    assert (after.result_kind, after.team_a_wins, after.team_b_wins) == (ResultKind.MATCH_LOSS, 1, 0)
    stored = Penalty.objects.get(pk=penalty.pk)
    assert (stored.round_id, stored.match_id, stored.applies_to_next_match) == (
        table.round.pk,
        next_match.pk,
        True,
    )
    assert stored.notes[-1] == (
        "The round 1 match is over (result reported), so this Game Loss applies to the team's next "
        "match: round 2, table 4 [IPG 1.1]. The round 1 result stands."
    )

    penalty_overturn(penalty=penalty, actor=table.head_judge, reason="the list was right")

    assert Match.objects.get(pk=next_match.pk).result_kind == ResultKind.PENDING
    assert result(table) == (ResultKind.PLAYED, 1, 0)


def test_a_loss_after_the_result_was_reported_is_a_409_until_the_next_round_is_paired(table):
    report(table, 1, 0)

    proposal = penalty_propose(
        tournament=table.tournament, player=table.a1, round_row=table.round, infraction="TE-DLP", context={}
    )
    with pytest.raises(ConflictError) as refused:
        issue(table, table.a1, "TE-DLP")

    assert refused.value.message.startswith(
        "The round 1 match is over (its result has been reported), so this Game Loss applies to "
        f"{table.match.team_a.name}'s next match [IPG 1.1], which is not paired yet. Issue it once round 2 is paired"
    )
    assert proposal.notes[-1] == refused.value.message
    assert Penalty.objects.count() == 0
    assert result(table) == (ResultKind.PLAYED, 1, 0)


def test_day_resets_gpe_and_te_counts(table):
    issue(table, table.a1, "TE-SP", day=1)

    next_day = issue(table, table.a1, "TE-SP", day=2)
    later_default = penalty_propose(
        tournament=table.tournament, player=table.a1, round_row=table.round, infraction="TE-SP", context={}
    )

    assert (next_day.day, next_day.penalty) == (2, "warning")
    assert later_default.penalty == "match_loss"


def test_unknown_circumstance_is_refused_naming_it(table):
    with pytest.raises(PenaltyRuleError) as refused:
        issue(table, table.a1, "TE-SP", context={"very_slow": True})

    assert refused.value.errors == [{"field": "context.very_slow", "message": "unknown circumstance"}]


def test_a_player_of_another_event_is_refused(table):
    stranger = TeamFactory().players.first()

    with pytest.raises(DomainError) as refused:
        issue(table, stranger, "TE-SP")

    assert refused.value.errors == [{"field": "player", "message": "not a player of this event"}]
