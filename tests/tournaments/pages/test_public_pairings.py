"""The full pairings split like the printed sheets: by table range and by last-name range, from
the same rows as the PDFs (read_models), and the pairings projector by name."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from documents.builders import pairings_by_name as pdf_by_name
from tests.tournaments.pages.builders import TEAMS
from tournaments.domain.text import fold, initial
from tournaments.models import Player
from tournaments.services.rounds import round_pair, round_publish

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(event, organizer):
    return round_publish(round_row=round_pair(tournament=event, actor=organizer), actor=organizer)


def pairings(client, event, **params):
    return client.get(reverse("tournament-pairings", args=[event.id]), params)


def test_a_name_range_lists_its_players_by_last_name_with_their_tables(client, event, published):
    response = pairings(client, event, names="A-F")
    rows = response.context["name_rows"]
    expected = sorted(
        (p for p in Player.objects.filter(tournament=event) if "A" <= initial(p.name) <= "F"),
        key=lambda p: (p.name.split()[-1].casefold(), p.name.casefold(), p.pk),
    )
    assert [row.player.pk for row in rows] == [p.pk for p in expected]
    assert expected and all(fold(row.player.name.split()[-1])[0] in "abcdef" for row in rows)
    for row in rows:
        match = row.match
        assert row.player.team_id in (match.team_a_id, match.team_b_id)
        assert row.table == match.table


def test_the_pages_by_name_are_the_printed_sheet_in_order(client, event, published):
    printed = pdf_by_name(event, published, "A4")
    printed_names = [
        line.split("  ", 1)[1].strip()
        for page in printed["pages"]
        for column in page["columns"]
        for line in column["heads"].split("\n")
    ]
    shown = [
        row.posted_name
        for first, last in (("A", "F"), ("G", "L"), ("M", "R"), ("S", "Z"))
        for row in pairings(client, event, names=f"{first}-{last}").context["name_rows"]
    ]
    assert shown == printed_names
    assert len(shown) == sum(len(members) for _name, members in TEAMS[:7])


def test_a_table_range_lists_those_tables_and_the_last_one_the_bye(client, event, published):
    response = pairings(client, event, tables="1-2")
    assert [row.table for row in response.context["rows"]] == [1, 2]
    last = pairings(client, event, tables="3-50")
    assert [row.table for row in last.context["rows"]] == [3, None]
    assert '<span class="bye">BYE</span>' in last.text


def test_the_projector_lists_every_player_by_name(client, event, published):
    response = client.get(reverse("tournament-pairings-projector", args=[event.id]))
    rows = response.context["rows"]
    assert len(rows) == Player.objects.filter(tournament=event).count()
    assert [r.posted_name for r in rows] == sorted(
        (r.posted_name for r in rows), key=lambda n: (n.split(",")[0].casefold(), n)
    )
    assert "data-autoscroll" in response.text
    # The script's name, hashed by the manifest storage in production mode (CI's service run).
    assert re.search(r"/js/projector_scroll(\.[0-9a-f]+)?\.js", response.text)
