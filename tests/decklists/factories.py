"""Boring factories for decklist tests: an event, staff, two-player teams, a round, a table."""

from __future__ import annotations

import factory

from tests.factories import UserFactory
from tournaments.enums import StaffRole
from tournaments.models import Match, Player, Round, Staff, Team, Tournament


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"2HG Modern {n}")
    format = "modern"
    rel = "competitive"
    seed = 20260718
    created_by = factory.SubFactory(UserFactory)


class StaffFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Staff

    tournament = factory.SubFactory(TournamentFactory)
    user = factory.SubFactory(UserFactory)
    role = StaffRole.JUDGE


class TeamFactory(factory.django.DjangoModelFactory):
    """A team with ``tournament.team_size`` players named "<team> A", "<team> B", ..."""

    class Meta:
        model = Team
        skip_postgeneration_save = True

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"Team {n}")

    @factory.post_generation
    def players(team, create, extracted, **kwargs):
        if not create:
            return
        for position in range(team.tournament.team_size):
            letter = "ABCD"[position]
            Player.objects.create(
                tournament=team.tournament,
                team=team,
                name=f"{team.name} {letter}",
                wizards_id=f"{team.name.lower().replace(' ', '-')}-{letter.lower()}@example.org",
                position=position,
            )


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    tournament = factory.SubFactory(TournamentFactory)
    number = 1
    seed = 7


class MatchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Match

    round = factory.SubFactory(RoundFactory)
    table = factory.Sequence(lambda n: n + 1)
    team_a = factory.SubFactory(TeamFactory, tournament=factory.SelfAttribute("..round.tournament"))
    team_b = factory.SubFactory(TeamFactory, tournament=factory.SelfAttribute("..round.tournament"))
