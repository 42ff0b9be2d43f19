"""Registering many teams from CSV lines on the manage page: all or nothing, errors by line number."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.pages.builders import wizards_id
from tournaments.models import Team

pytestmark = pytest.mark.django_db

NAMES = [
    ("Mana Leak Club", "Ana Silva", "Ben Carter"),
    ("Top of the Library", "Chen Wei", "Dara O'Neill"),
    ("Graveyard Shift", "Emil Sørensen", "Fatima Zahra"),
]


def csv_line(team: str, first: str, second: str) -> str:
    return f"{team}, {first}, {wizards_id(first)}, {second}, {wizards_id(second)}"


def import_url(event) -> str:
    return reverse("tournament-teams-import", args=[event.id])


def test_manage_page_has_the_import_form(organizer_client, event):
    page = organizer_client.get(reverse("tournament-manage", args=[event.id]))

    assert "data-teams-import" in page.text
    assert 'name="csv"' in page.text


def test_import_registers_every_line_in_order(organizer_client, event):
    text = "team name, player, Wizards Account, player, Wizards Account\n" + "\n".join(
        csv_line(*row) for row in NAMES
    )

    response = organizer_client.post(import_url(event), {"csv": text})

    assert response.status_code == 302
    imported = Team.objects.filter(tournament=event, name__in=[row[0] for row in NAMES]).order_by("id")
    assert [(t.name, [p.name for p in t.players.order_by("position")]) for t in imported] == [
        (team, [first, second]) for team, first, second in NAMES
    ]
    assert imported[2].players.get(position=0).wizards_id == "emil.sørensen@example.org"


def test_a_wrong_line_saves_nothing_and_each_problem_names_its_line(organizer_client, event):
    text = "\n".join(
        [
            csv_line(*NAMES[0]),
            "Half a Team, Lone Player, lone@example.org",
            csv_line("Second Copy", "Ana Silva", "Zed Quinn"),
            csv_line(*NAMES[2]),
        ]
    )

    response = organizer_client.post(import_url(event), {"csv": text})

    assert response.status_code == 400
    assert not Team.objects.filter(tournament=event, name__in=["Mana Leak Club", "Graveyard Shift"]).exists()
    assert [item["line"] for item in response.context["import_errors"]] == [2, 3]
    assert "Line 2: 3 values; expected 5" in response.text
    assert (
        "Line 3: player A&#x27;s Wizards Account: ana.silva@example.org is already on a team" in response.text
    )
    assert "players[0]" not in response.text
    assert text.splitlines()[1] in response.text  # the pasted text is kept to fix


def test_a_duplicate_of_a_registered_team_is_refused_by_line(organizer_client, event):
    response = organizer_client.post(import_url(event), {"csv": csv_line("team turn", "New One", "New Two")})

    assert response.status_code == 400
    assert "Line 1: team name: a team named &#x27;team turn&#x27; is already registered" in response.text


def test_a_reading_after_each_account_is_kept_for_sorting(organizer_client, event):
    """Japanese names sort by their reading (kana): a line may give one after each Wizards Account."""
    text = "\n".join(
        [
            "チーム東京, 山田 太郎, taro@example.org, やまだ たろう, 佐藤 花子, hanako@example.org, さとう はなこ",
            "Mana Leak Club, Ana Silva, ana@example.org, , Ben Carter, ben@example.org, ",
        ]
    )

    response = organizer_client.post(import_url(event), {"csv": text})

    assert response.status_code == 302
    tokyo = Team.objects.get(tournament=event, name="チーム東京")
    assert [(p.name, p.name_reading) for p in tokyo.players.order_by("position")] == [
        ("山田 太郎", "やまだ たろう"),
        ("佐藤 花子", "さとう はなこ"),
    ]
    club = Team.objects.get(tournament=event, name="Mana Leak Club")
    assert [p.name_reading for p in club.players.order_by("position")] == ["", ""]


def test_a_line_with_readings_for_some_players_only_is_refused_by_its_count(organizer_client, event):
    text = "Half Read, 山田 太郎, taro@example.org, やまだ たろう, 佐藤 花子, hanako@example.org"

    response = organizer_client.post(import_url(event), {"csv": text})

    assert response.status_code == 400
    assert "Line 1: 6 values; expected 5 (or 7 with a reading after each account)" in response.text
    assert not Team.objects.filter(tournament=event, name="Half Read").exists()
