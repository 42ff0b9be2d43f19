"""The organizer's page reaches every staff tool, and the player's page their own."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.tournaments.factories import event_with_teams, register_team

pytestmark = pytest.mark.django_db


def test_manage_page_links_every_staff_tool(client):
    tournament = event_with_teams(2)
    client.force_login(tournament.created_by)
    html = client.get(f"/events/{tournament.pk}/manage/").content.decode()
    for path in (
        "clock/",
        "clock/judge/",
        "penalties/new/",
        "penalties/",
        "decklists/judge/",
        "print/",
        "audit/",
    ):
        assert f'href="/events/{tournament.pk}/{path}"' in html, path


def test_player_page_links_decklists_and_table_time(client):
    tournament = event_with_teams(1)
    player_user = UserFactory()
    register_team(tournament, "Team Turn", actor=tournament.created_by, usernames=(player_user.username,))
    client.force_login(player_user)
    html = client.get(f"/events/{tournament.pk}/me/").content.decode()
    for path in ("decklists/", "clock/me/", "clock/"):
        assert f'href="/events/{tournament.pk}/{path}"' in html, path
