"""A floor event built through the services: eight teams (a player account on each), round 1 paired
by hand (1v2 at table 1, 3v4 at table 2, ...), published and its clock started ten minutes ago;
two judges, a head judge, a scorekeeper and the organizer; and another event with its own judge."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

import pytest
from django.utils import timezone

from clock.services import round_start
from tests.factories import UserFactory
from tests.tournaments.factories import add_staff, client_for, event_with_teams, register_team
from tournaments.enums import StaffRole
from tournaments.models import Match, Player, Round, Team, Tournament
from tournaments.services.manual_pairing import round_pair_manual
from tournaments.services.rounds import round_publish


@dataclass
class FloorEvent:
    tournament: Tournament
    teams: list[Team]
    players: list  # the user playing on each team, same order
    round: Round
    matches: list[Match]  # by table
    organizer: object
    judge: object
    other_judge: object
    head_judge: object
    scorekeeper: object
    foreign_judge: object  # judges "Another event" only
    started_at: datetime.datetime

    def player_row(self, index: int) -> Player:
        return Player.objects.get(tournament=self.tournament, user=self.players[index])

    def client(self, user):
        return client_for(user)


def build_floor_event(teams: int = 8) -> FloorEvent:
    organizer = UserFactory(username="organizer")
    tournament = event_with_teams(0, organizer=organizer, swiss_rounds=3, format="modern", rel="competitive")
    users = [UserFactory(username=f"player{n + 1}") for n in range(teams)]
    rows = [
        register_team(tournament, f"Team {n + 1}", actor=organizer, usernames=(users[n].username,))
        for n in range(teams)
    ]
    judge = add_staff(tournament, StaffRole.JUDGE)
    other_judge = add_staff(tournament, StaffRole.JUDGE)
    head_judge = add_staff(tournament, StaffRole.HEAD_JUDGE)
    scorekeeper = add_staff(tournament, StaffRole.SCOREKEEPER)
    other_event = event_with_teams(2, organizer=UserFactory(username="other_organizer"), name="Another event")
    foreign_judge = add_staff(other_event, StaffRole.JUDGE)
    first = round_pair_manual(
        tournament=tournament,
        actor=organizer,
        matches=[(rows[i].pk, rows[i + 1].pk) for i in range(0, teams, 2)],
        reason="seated by hand for the test",
    )
    round_publish(round_row=first, actor=organizer)
    started = timezone.now() - datetime.timedelta(minutes=10)
    round_start(round_row=first, actor=organizer, at=started)
    return FloorEvent(
        tournament=tournament,
        teams=rows,
        players=users,
        round=Round.objects.select_related("tournament").get(pk=first.pk),
        matches=list(Match.objects.filter(round=first).order_by("table")),
        organizer=organizer,
        judge=judge,
        other_judge=other_judge,
        head_judge=head_judge,
        scorekeeper=scorekeeper,
        foreign_judge=foreign_judge,
        started_at=started,
    )


@pytest.fixture
def floor_event(db) -> FloorEvent:
    return build_floor_event()
