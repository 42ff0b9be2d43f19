"""Give a newcomer something to click: a demo organizer and, on an empty database, a demo 2HG event."""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand
from django.db import transaction

from tournaments.enums import Format, Rel
from tournaments.models import Tournament
from tournaments.registration.planner import PlayerEntry
from tournaments.registration.register import team_register
from tournaments.services.events import tournament_create
from tournaments.services.rounds import round_pair, round_publish

DEMO_USERNAME = "organizer"
DEMO_PASSWORD = "2hg-demo-organizer"

DEMO_TEAMS = [
    ("Shared Life Total", ("Alex Moreau", "Bea Lindqvist")),
    ("Two Heads Are Better", ("Carlos Ferreira", "Dana Okafor")),
    ("Primary on the Right", ("Eli Novak", "Farah Haddad")),
    ("Fifteen Poison", ("Gus Tanaka", "Hanna Berg")),
    ("Team Turn", ("Ivan Petrov", "Jade Wu")),
    ("Thirty Life", ("Kofi Mensah", "Lena Vogel")),
    ("Free Mulligan", ("Mateo Rossi", "Nora Kelly")),
    ("Unified Deck", ("Omar Aziz", "Priya Shah")),
]


class Command(BaseCommand):
    help = (
        "Create the demo organizer account (printing its login) and, if the database has no event yet, "
        "a demo Two-Headed Giant event with eight teams and round 1 paired and published. "
        "Safe to run repeatedly (make run does)."
    )

    def handle(self, *args, **options):
        with transaction.atomic():
            organizer, password_is_demo = self._organizer()
            created_event = None
            if not Tournament.objects.exists():
                created_event = self._demo_event(organizer)
        if password_is_demo:
            self.stdout.write(
                self.style.SUCCESS(
                    f"Demo organizer login: username {DEMO_USERNAME!r}, password {DEMO_PASSWORD!r}"
                )
            )
        else:
            self.stdout.write(
                f"Demo organizer {DEMO_USERNAME!r} exists with a changed password (left as it is)."
            )
        if created_event:
            self.stdout.write(
                f"Created demo event {created_event.name!r} with {created_event.teams.count()} teams; "
                "round 1 is paired and published."
            )

    def _organizer(self):
        """The demo organizer, and whether the demo password still opens it (never reset here)."""
        user_model = get_user_model()
        user = user_model.objects.filter(username=DEMO_USERNAME).first()
        if user is None:
            user = user_model.objects.create_user(
                DEMO_USERNAME, email="organizer@example.org", password=DEMO_PASSWORD
            )
            # Event creation is a role the site grants (settings.EVENT_CREATORS).
            user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
        return user, user.check_password(DEMO_PASSWORD)

    def _demo_event(self, organizer) -> Tournament:
        """Eight teams would get no Swiss rounds from the MTR chart (5-8 teams play single elimination);
        a store night announces 3 rounds and a top 4 instead, as docs/rules.md#swiss-rounds allows before round 1."""
        tournament = tournament_create(
            actor=organizer,
            name="Demo Friday Night Two-Headed Giant",
            date=datetime.date.today(),
            venue="Demo Game Store",
            format=Format.MODERN,
            rel=Rel.REGULAR,
            team_size=2,
            swiss_rounds=3,
            top_cut=4,
        )
        for team_name, members in DEMO_TEAMS:
            team_register(
                tournament=tournament,
                actor=organizer,
                name=team_name,
                players=[
                    PlayerEntry(name=member, wizards_id=member.lower().replace(" ", ".") + "@example.org")
                    for member in members
                ],
            )
        round_publish(round_row=round_pair(tournament=tournament, actor=organizer), actor=organizer)
        return tournament
