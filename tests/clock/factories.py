"""Boring factories for the clock tests: an event, a published round and seated tables.

Rounds and matches are written directly (pairing is another service's job): the clock only needs
a round with a status and tables with two teams.
"""

from __future__ import annotations

import datetime

import factory

from tests.factories import UserFactory
from tournaments.enums import RoundKind, RoundStatus, StaffRole
from tournaments.models import Match, Player, Round, Staff, Team, TimeExtension, Tournament


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Friday Two-Headed Giant {n}")
    date = datetime.date(2026, 7, 4)
    seed = 20260704
    created_by = factory.SubFactory(UserFactory)


class StaffFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Staff

    tournament = factory.SubFactory(TournamentFactory)
    user = factory.SubFactory(UserFactory)
    role = StaffRole.JUDGE


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Team

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"Shared Life {n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    team = factory.SubFactory(TeamFactory)
    tournament = factory.SelfAttribute("team.tournament")
    name = factory.Sequence(lambda n: f"Player {n}")
    wizards_id = factory.Sequence(lambda n: f"player{n}@example.org")


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)
    kind = RoundKind.SWISS
    status = RoundStatus.PUBLISHED
    seed = 7


class MatchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Match

    round = factory.SubFactory(RoundFactory)
    table = factory.Sequence(lambda n: n + 1)
    team_a = factory.SubFactory(TeamFactory, tournament=factory.SelfAttribute("..round.tournament"))
    team_b = factory.SubFactory(TeamFactory, tournament=factory.SelfAttribute("..round.tournament"))


class TimeExtensionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TimeExtension

    match = factory.SubFactory(MatchFactory)
    minutes = 3
    reason = "deck check"
    granted_by = factory.SubFactory(UserFactory)
