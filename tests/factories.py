"""Boring factories: the least data a test needs, with names a reader recognises."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

DEFAULT_PASSWORD = "correct-horse-battery-staple"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.org")
    password = factory.PostGenerationMethodCall("set_password", DEFAULT_PASSWORD)

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class OrganizerFactory(UserFactory):
    """An account the site lets create events: it holds ``tournaments.add_tournament``
    (``settings.EVENT_CREATORS``), as an administrator grants it to a store's organizers."""

    @factory.post_generation
    def _may_create_events(obj, create, extracted, **kwargs):
        if create:
            from django.contrib.auth.models import Permission

            obj.user_permissions.add(Permission.objects.get(codename="add_tournament"))


class TournamentFactory(factory.django.DjangoModelFactory):
    """A Competitive 2HG Modern event with three announced Swiss rounds."""

    class Meta:
        model = "tournaments.Tournament"

    name = factory.Sequence(lambda n: f"2HG Open {n}")
    format = "modern"
    rel = "competitive"
    penalty_policy = "match_point"
    swiss_rounds = 3
    seed = 20260718
    created_by = factory.SubFactory(UserFactory)


class StaffFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "tournaments.Staff"

    tournament = factory.SubFactory(TournamentFactory)
    user = factory.SubFactory(UserFactory)
    role = "judge"


class TeamFactory(factory.django.DjangoModelFactory):
    """A team with ``tournament.team_size`` players named "<team> A", "<team> B", ..."""

    class Meta:
        model = "tournaments.Team"
        skip_postgeneration_save = True

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"Team {n}")

    @factory.post_generation
    def players(team, create, extracted, **kwargs):
        from tournaments.models import Player

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
        model = "tournaments.Round"

    tournament = factory.SubFactory(TournamentFactory)
    number = 1
    seed = 7


class MatchFactory(factory.django.DjangoModelFactory):
    """A table with both teams seated in registration order (A1, A2 against B1, B2)."""

    class Meta:
        model = "tournaments.Match"

    round = factory.SubFactory(RoundFactory)
    table = factory.Sequence(lambda n: n + 1)
    team_a = factory.SubFactory(TeamFactory, tournament=factory.SelfAttribute("..round.tournament"))
    team_b = factory.SubFactory(TeamFactory, tournament=factory.SelfAttribute("..round.tournament"))
    seats = factory.LazyAttribute(
        lambda match: {
            "A": list(match.team_a.players.order_by("position").values_list("pk", flat=True)),
            "B": list(match.team_b.players.order_by("position").values_list("pk", flat=True)),
        }
    )
