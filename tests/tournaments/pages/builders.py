"""A small 2HG event built through the services, shared by the page and browser tests."""

from __future__ import annotations

import datetime

from django.test import Client

from tournaments.enums import Format, Rel
from tournaments.models import Tournament
from tournaments.registration.planner import PlayerEntry
from tournaments.registration.register import team_register
from tournaments.services.events import tournament_create

TEAMS = [
    ("Shared Life Total", ("Alex Moreau", "Bea Lindqvist")),
    ("Two Heads Are Better", ("Carlos Ferreira", "Dana Okafor")),
    ("Primary on the Right", ("Eli Novak", "Farah Haddad")),
    ("Fifteen Poison", ("Gus Tanaka", "Hanna Berg")),
    ("Team Turn", ("Ivan Petrov", "Jade Wu")),
    ("Thirty Life", ("Kofi Mensah", "Lena Vogel")),
    ("Free Mulligan", ("Mateo Rossi", "Nora Kelly")),
    ("Unified Deck", ("Omar Aziz", "Priya Shah")),
    ("Head to Head", ("Quinn Adams", "Rosa Diaz")),
]


def wizards_id(name: str) -> str:
    return name.lower().replace(" ", ".") + "@example.org"


def build_event(organizer, teams: list[tuple[str, tuple[str, ...]]], *, rel: str = Rel.REGULAR) -> Tournament:
    """Three Swiss rounds and no cut, set explicitly: the MTR chart gives fewer than nine teams no
    Swiss rounds at all, and these tests are about Swiss rounds."""
    tournament = tournament_create(
        actor=organizer,
        name="Friday 2HG",
        date=datetime.date(2026, 11, 20),
        venue="The Game Store",
        format=Format.MODERN,
        rel=rel,
        team_size=2,
        swiss_rounds=3,
        top_cut=0,
    )
    for team_name, members in teams:
        team_register(
            tournament=tournament,
            actor=organizer,
            name=team_name,
            players=[PlayerEntry(name=member, wizards_id=wizards_id(member)) for member in members],
        )
    return tournament


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client
