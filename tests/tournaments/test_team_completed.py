"""Every way a team takes its last seat after round 1 is paired ends the same (``team_completed``):
registered after that round, and the round recorded as missed."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.tournaments.factories import event_with_teams, register_team
from tournaments.domain.team_forming import InvitationStatus
from tournaments.enums import ResultKind
from tournaments.models import Match, Team
from tournaments.registration.planner import PlayerEntry
from tournaments.registration.player import invitation_accept
from tournaments.registration.register import team_register
from tournaments.services.pool import pool_form_team_by_hand, pool_join
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db


def _event_after_round_one():
    tournament = event_with_teams(4, swiss_rounds=3)
    round_pair(tournament=tournament, actor=tournament.created_by)
    return tournament


def _missed(team: Team) -> list[tuple[int, str]]:
    return [
        (match.round.number, match.result_kind)
        for match in Match.objects.filter(team_a=team).select_related("round").order_by("round__number")
    ]


def test_a_team_registered_whole_at_the_desk_is_completed_at_once():
    tournament = _event_after_round_one()
    team = register_team(tournament, "Team Late", actor=tournament.created_by)
    assert team.registered_after_round == 1
    assert _missed(team) == [(1, ResultKind.MISSED_ROUND)]


def test_a_team_completed_by_accepting_after_round_one_becomes_a_late_entry_then():
    tournament = event_with_teams(4, swiss_rounds=3)
    ana, ben = UserFactory(), UserFactory()
    team = team_register(
        tournament=tournament,
        actor=ana,
        name="Team Forming",
        players=[
            PlayerEntry(name="Ana", wizards_id="ana@example.org", username=ana.username),
            PlayerEntry(name="Ben", wizards_id="ben@example.org", username=ben.username),
        ],
    )
    round_pair(tournament=tournament, actor=tournament.created_by)
    assert (team.registered_after_round, _missed(team)) == (0, [])

    invitation_accept(code=team.join_code, actor=ben)

    team.refresh_from_db()
    assert team.registered_after_round == 1
    assert _missed(team) == [(1, ResultKind.MISSED_ROUND)]
    assert list(team.invitations.values_list("invitee", "status")) == [(ben.pk, InvitationStatus.ACCEPTED)]


def test_a_team_formed_whole_from_the_pool_is_completed_at_once():
    tournament = _event_after_round_one()
    entries = [pool_join(tournament=tournament, actor=UserFactory(), name=name) for name in ("Ana", "Ben")]
    team = pool_form_team_by_hand(
        tournament=tournament, actor=tournament.created_by, entry_ids=[entry.pk for entry in entries]
    )
    assert team.registered_after_round == 1
    assert _missed(team) == [(1, ResultKind.MISSED_ROUND)]
