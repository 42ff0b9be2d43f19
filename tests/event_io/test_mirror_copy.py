"""The server's side of a mirror: a pushed event file becomes a read-only copy, replaced in order.

The event is the export test's (real decklists, penalties, a deck check, a drop, a
disqualification, a manual pairing); its file is pushed as the laptop pushes it.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import secrets

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings

from event_io.export import event_export
from event_io.models import MirroredEvent
from tests.factories import UserFactory
from tests.reliability.test_export_import import build_event
from tests.tournaments.factories import client_for, event_with_teams
from tournaments.models import AuditEntry, Match, Staff, Tournament
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair, round_publish
from tournaments.standings import standings_for

pytestmark = pytest.mark.django_db


def standings(tournament_id: int) -> list[tuple]:
    """Each line without its team id (ids differ between the laptop and the server)."""
    return [
        tuple(value for key, value in dataclasses.asdict(line).items() if key != "team_id")
        for line in standings_for(Tournament.objects.get(pk=tournament_id))
    ]


def push(client, key: str, sequence: int, document: dict, *, zipped: bool = True):
    body = json.dumps({"sequence": sequence, "event": document}).encode()
    headers = {"HTTP_CONTENT_ENCODING": "gzip"} if zipped else {}
    return client.put(
        f"/api/v1/mirrors/{key}/",
        gzip.compress(body) if zipped else body,
        content_type="application/json",
        **headers,
    )


@pytest.fixture
def server_account():
    return UserFactory(is_staff=True)


def test_a_push_creates_a_read_only_copy_with_the_same_standings(server_account):
    laptop_event = build_event()
    document = event_export(laptop_event)
    key = secrets.token_hex(16)

    answer = push(client_for(server_account), key, 1, document)

    assert answer.status_code == 201, answer.json()
    copy_id = answer.json()["id"]
    assert copy_id != laptop_event.pk
    assert standings(copy_id) == standings(laptop_event.pk)
    mirror = MirroredEvent.objects.get(key=key)
    assert (mirror.owner, mirror.tournament_id, mirror.sequence) == (server_account, copy_id, 1)
    # No account of the laptop is linked or created here: the owner stands for all of them.
    assert list(Staff.objects.filter(tournament_id=copy_id).values_list("user", "role")) == [
        (server_account.pk, "organizer")
    ]
    assert not get_user_model().objects.filter(players__tournament_id=copy_id).exists()
    assert AuditEntry.objects.filter(tournament_id=copy_id).count() == 0
    again = push(client_for(server_account), key, 2, document)  # deck checks, penalties: all replaced
    assert again.status_code == 200 and again.json()["id"] == copy_id
    assert standings(copy_id) == standings(laptop_event.pk)
    page = client_for(None).get(f"/events/{copy_id}/standings/")
    assert page.status_code == 200
    assert "Mirror of an event run elsewhere, last updated" in page.content.decode()


def test_a_newer_push_replaces_the_copy_under_the_same_id_and_a_stale_one_changes_nothing(server_account):
    laptop_event = event_with_teams(8, name="Mirror night", swiss_rounds=3, top_cut=0)
    organizer = laptop_event.created_by
    first = round_pair(tournament=laptop_event, actor=organizer)
    round_publish(round_row=first, actor=organizer)
    key = secrets.token_hex(16)
    client = client_for(server_account)
    copy_id = push(client, key, 1, event_export(laptop_event)).json()["id"]
    before = standings(copy_id)
    for match in Match.objects.filter(round=first, team_b__isnull=False):
        match_result_report(
            match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=match.version
        )
    newer = event_export(laptop_event)

    replaced = push(client, key, 2, newer)
    stale = push(client, key, 1, event_export(laptop_event), zipped=False)

    assert replaced.status_code == 200 and replaced.json()["id"] == copy_id
    assert standings(copy_id) == standings(laptop_event.pk) != before
    assert stale.status_code == 409
    assert stale.json()["sequence"] == 2 and "not newer" in stale.json()["detail"]
    assert MirroredEvent.objects.get(key=key).sequence == 2
    assert Tournament.objects.filter(name="Mirror night").count() == 2  # the laptop's (here) and the copy


def test_only_the_account_that_created_a_mirror_replaces_it(server_account):
    laptop_event = event_with_teams(2, name="Owned")
    key = secrets.token_hex(16)
    push(client_for(server_account), key, 1, event_export(laptop_event))

    other = push(client_for(UserFactory(is_staff=True)), key, 2, event_export(laptop_event))

    assert other.status_code == 403
    assert "another account" in other.json()["detail"]
    assert MirroredEvent.objects.get(key=key).sequence == 1


def test_a_damaged_file_changes_nothing_and_says_where(server_account):
    laptop_event = event_with_teams(3, name="Damaged")
    key = secrets.token_hex(16)
    client = client_for(server_account)
    copy_id = push(client, key, 1, event_export(laptop_event)).json()["id"]
    document = event_export(laptop_event)
    document["teams"][1]["players"][0]["wizards_id"] = document["teams"][0]["players"][0]["wizards_id"]

    answer = push(client, key, 2, document)

    assert answer.status_code == 400
    assert answer.json()["errors"][0]["field"] == "event.teams[1].players[0].wizards_id"
    assert MirroredEvent.objects.get(key=key).sequence == 1
    assert Tournament.objects.get(pk=copy_id).teams.count() == 3


@override_settings(MIRROR_MAX_BYTES=2_000)
def test_a_file_over_the_bound_is_refused_zipped_or_not(server_account):
    document = event_export(event_with_teams(8, name="Too big"))
    client = client_for(server_account)
    key = secrets.token_hex(16)

    plain = push(client, key, 1, document, zipped=False)
    zipped = push(client, key, 1, document)  # small once zipped; unpacked past the bound

    assert plain.status_code == 413 and zipped.status_code == 413
    assert "MIRROR_MAX_BYTES" in zipped.json()["detail"]
    assert not MirroredEvent.objects.filter(key=key).exists()


def test_pushing_needs_an_account_that_may_create_events():
    document = event_export(event_with_teams(2, name="Nobody's"))
    key = secrets.token_hex(16)

    anonymous = push(client_for(None), key, 1, document)
    player = push(client_for(UserFactory()), key, 1, document)

    assert anonymous.status_code == 401
    assert player.status_code == 403 and "create events" in player.json()["detail"]
    assert not MirroredEvent.objects.exists()


def test_a_key_that_is_not_32_hex_digits_is_refused(server_account):
    answer = push(client_for(server_account), "../../etc", 1, event_export(event_with_teams(2, name="Key")))

    assert answer.status_code in (400, 404)
    assert not MirroredEvent.objects.exists()
