"""A mirrored event refuses every write with a 409 that says why; reading it works as for any event."""

from __future__ import annotations

import secrets

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from event_io.export import event_export
from event_io.mirror_copy import mirror_receive
from event_io.mirror_guard import EVENT_OF, NOT_AN_EVENT
from tests.factories import UserFactory
from tests.tournaments.factories import client_for, event_with_teams
from tournaments.models import Match, Round, Tournament
from tournaments.services.rounds import round_pair, round_publish

pytestmark = pytest.mark.django_db

REFUSAL = "read-only mirror of an event run elsewhere"


def routes(patterns=None, prefix: str = ""):
    """(route text, its parameters) of every URL the site answers."""
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(entry, URLResolver):
            yield from routes(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), set(entry.pattern.converters)


def test_every_route_with_parameters_names_its_event_or_says_why_not():
    """The admin is left out: it is the site administrators' own tool, above any event."""
    site = [(route, names) for route, names in routes() if not route.startswith("admin/")]
    unguarded = [route for route, names in site if names and not names & (set(EVENT_OF) | set(NOT_AN_EVENT))]
    penalty_pk = [route for route, names in site if "pk" in names and "penalties/" not in route]

    assert unguarded == []
    assert penalty_pk == []  # ``pk`` is read as a penalty's id


@pytest.fixture
def mirrored():
    """A laptop's event with round 1 published, and its copy on this server."""
    laptop_event = event_with_teams(6, name="Friday 2HG", swiss_rounds=3, top_cut=0)
    first = round_pair(tournament=laptop_event, actor=laptop_event.created_by)
    round_publish(round_row=first, actor=laptop_event.created_by)
    owner = UserFactory(is_staff=True)
    mirror = mirror_receive(
        owner=owner, key=secrets.token_hex(16), sequence=1, document=event_export(laptop_event)
    ).mirror
    return mirror.tournament, owner


def test_pairing_a_result_and_a_registration_on_a_mirror_are_refused_with_409(mirrored):
    copy, owner = mirrored
    api = client_for(owner)
    match = Match.objects.filter(round__tournament=copy, team_b__isnull=False).first()
    rounds_before = Round.objects.filter(tournament=copy).count()

    pairing = api.post(f"/api/v1/tournaments/{copy.pk}/rounds/", {}, format="json")
    result = api.put(
        f"/api/v1/matches/{match.pk}/result/",
        {"team_a_wins": 1, "team_b_wins": 0, "draws": 0, "version": match.version},
        format="json",
    )
    registration = api.post(
        f"/api/v1/tournaments/{copy.pk}/teams/",
        {"name": "Walk-ins", "players": [{"name": "Ana"}, {"name": "Ben"}]},
        format="json",
    )
    page = Client()
    page.force_login(owner)
    pairing_page = page.post(f"/events/{copy.pk}/rounds/", {})

    for answer in (pairing, result, registration):
        assert answer.status_code == 409
        assert REFUSAL in answer.json()["detail"]
    assert pairing_page.status_code == 409 and REFUSAL in pairing_page.content.decode()
    assert Round.objects.filter(tournament=copy).count() == rounds_before
    match.refresh_from_db()
    assert match.result_kind == "pending" and copy.teams.count() == 6


def test_a_mirror_reads_like_any_event(mirrored):
    copy, _owner = mirrored
    anyone = client_for(None)

    standings = anyone.get(f"/api/v1/tournaments/{copy.pk}/standings/")
    round_one = anyone.get(f"/api/v1/tournaments/{copy.pk}/rounds/1/")
    page = Client().get(f"/events/{copy.pk}/")

    assert standings.status_code == 200 and isinstance(standings.json(), list)
    assert round_one.status_code == 200 and len(round_one.json()["matches"]) == 3
    assert page.status_code == 200
    assert "Mirror of an event run elsewhere, last updated" in page.content.decode()


def test_an_event_run_here_is_not_touched_by_the_guard():
    tournament = event_with_teams(6, name="Here", swiss_rounds=3, top_cut=0)

    pairing = client_for(tournament.created_by).post(
        f"/api/v1/tournaments/{tournament.pk}/rounds/", {}, format="json"
    )
    page = client_for(None).get(f"/events/{tournament.pk}/")

    assert pairing.status_code == 201
    assert "Mirror of an event" not in Client().get(f"/events/{tournament.pk}/").content.decode()
    assert page.status_code == 200
    assert Tournament.objects.get(pk=tournament.pk).rounds.count() == 1
