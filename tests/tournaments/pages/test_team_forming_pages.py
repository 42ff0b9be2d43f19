"""Forming teams on the pages (plain forms, no JavaScript): a player creates a team, the teammate
joins through the invite link, a named login is only invited, the organizer forms teams from
the partner pool after a preview, and round 1 asks about teams not checked in."""

from __future__ import annotations

import re
from html import escape as html_escape

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.factories import event_with_teams
from tests.tournaments.pages.builders import client_for
from tournaments.models import AuditEntry, Player, PoolEntry, Team, TeamInvitation

pytestmark = pytest.mark.django_db


def me(client, tournament):
    return client.get(reverse("tournament-me", args=[tournament.pk]))


def create(client, tournament, **fields):
    data = {"team_name": "Dual Wield", "player_name": "Ana Cap", "wizards_id": "ana@wotc.example", **fields}
    return client.post(reverse("tournament-me-team", args=[tournament.pk]), data)


def test_a_player_creates_a_team_and_the_teammate_joins_through_the_link():
    tournament = event_with_teams(0)
    captain, mate = client_for(UserFactory()), client_for(UserFactory())
    assert create(captain, tournament).status_code == 302
    page = me(captain, tournament).content.decode()
    shown = re.search(r'id="join-code">([\w-]{14})<', page).group(1)
    code = shown.replace("-", "")
    assert "Your team is forming" in page
    assert f"/join/{code}/" in page

    looked_up = mate.get(reverse("team-join-lookup"), {"code": code.lower()})
    assert looked_up.url == f"/join/{code}/"
    invite = mate.get(looked_up.url)
    assert "Join “Dual Wield”" in invite.content.decode()
    joined = mate.post(
        looked_up.url, {"answer": "accept", "player_name": "Ben Mate", "wizards_id": "ben@wotc.example"}
    )
    assert joined.status_code == 302
    assert list(Team.objects.get().players.values_list("name", flat=True)) == ["Ana Cap", "Ben Mate"]
    assert "Your team is forming" not in me(mate, tournament).content.decode()


def test_a_login_named_on_the_page_is_invited_and_accepts_or_declines_on_their_page():
    tournament = event_with_teams(0)
    invited_user = UserFactory()
    captain, invited = client_for(UserFactory()), client_for(invited_user)
    create(captain, tournament, invite_1=invited_user.username)
    assert not Player.objects.filter(user=invited_user).exists()
    page = me(invited, tournament).content.decode()
    assert "invites you to the team <strong>Dual Wield</strong>" in page
    code = Team.objects.get().join_code
    declined = invited.post(reverse("team-join", args=[code]), {"answer": "decline"})
    assert declined.status_code == 302
    assert TeamInvitation.objects.get().status == "declined"
    assert "invites you" not in me(invited, tournament).content.decode()


def test_a_wrong_code_is_a_404_page_that_says_so():
    client = client_for(UserFactory())
    response = client.get(reverse("team-join", args=["ACDE-FGHJ-KMNP"]))
    assert response.status_code == 404
    assert "this invitation is not open" in response.content.decode()


def test_the_manage_page_shows_a_forming_team_as_forming(organizer_client, organizer):
    tournament = event_with_teams(2, organizer=organizer)
    create(client_for(UserFactory()), tournament)
    html = organizer_client.get(reverse("tournament-manage", args=[tournament.pk])).content.decode()
    forming = Team.objects.get(name="Dual Wield")
    assert f'data-team-forming="{forming.pk}"' in html
    assert html.count("data-team-forming") == 1


def test_the_organizer_previews_then_saves_the_pool_teams(organizer_client, organizer):
    tournament = event_with_teams(0, organizer=organizer)
    solo = [UserFactory() for _ in range(3)]
    for index, user in enumerate(solo):
        response = client_for(user).post(
            reverse("tournament-pool-join", args=[tournament.pk]),
            {"player_name": f"{'ABC'[index]}na Solo {index}", "wizards_id": f"solo{index}@wotc.example"},
        )
        assert response.status_code == 302
    pool_page = me(client_for(solo[0]), tournament).content.decode()
    assert "Bna Solo 1" in pool_page and "Cna Solo 2" in pool_page
    form = reverse("tournament-pool-form", args=[tournament.pk])
    preview = organizer_client.post(form, {"seed": "42", "leftover": "wait"})
    html = preview.content.decode()
    assert preview.status_code == 200 and Team.objects.count() == 0
    assert 'id="pool-seed-used">42<' in html
    entries = re.search(r'name="entries" value="([^"]+)"', html).group(1)
    shown = re.search(r'<ol id="pool-plan">\s*<li>(.*?)</li>', html).group(1)
    saved = organizer_client.post(
        form, {"seed": "42", "leftover": "wait", "entries": entries, "confirm": "yes"}
    )
    assert saved.status_code == 302
    team = Team.objects.get()
    assert " &amp; ".join(team.players.values_list("name", flat=True)) == shown
    assert PoolEntry.objects.count() == 1
    assert AuditEntry.objects.filter(action="pool_form_teams").count() == 1
    member = Player.objects.filter(team=team).first().user
    assert "Dual Wield" not in me(client_for(member), tournament).content.decode()
    assert re.fullmatch(r"[ABC]na & [ABC]na", team.name)
    assert html_escape(team.name) in me(client_for(member), tournament).content.decode()


def test_a_pool_confirmation_after_the_pool_changed_saves_nothing(organizer_client, organizer):
    tournament = event_with_teams(0, organizer=organizer)
    for index in range(2):
        client_for(UserFactory()).post(
            reverse("tournament-pool-join", args=[tournament.pk]),
            {"player_name": f"Solo {index}", "wizards_id": f"solo{index}@wotc.example"},
        )
    form = reverse("tournament-pool-form", args=[tournament.pk])
    entries = ",".join(str(pk) for pk in PoolEntry.objects.values_list("pk", flat=True))
    client_for(UserFactory()).post(
        reverse("tournament-pool-join", args=[tournament.pk]),
        {"player_name": "Late", "wizards_id": "late@x.example"},
    )
    refused = organizer_client.post(form, {"seed": "1", "entries": entries, "confirm": "yes"})
    assert refused.status_code == 409
    assert "the pool changed since the preview" in refused.content.decode()
    assert Team.objects.count() == 0


def test_round_one_asks_the_organizer_about_teams_not_checked_in(organizer_client, organizer):
    tournament = event_with_teams(4, organizer=organizer, check_in_required=True, swiss_rounds=3)
    first = Team.objects.order_by("name").first()
    ticked = organizer_client.post(
        reverse("tournament-team-check-in", args=[tournament.pk, first.pk]), {"next": "manage"}
    )
    assert ticked.status_code == 302
    pair = reverse("tournament-round-pair", args=[tournament.pk])
    asked = organizer_client.post(pair)
    html = asked.content.decode()
    assert asked.status_code == 409
    assert 'id="unchecked-question"' in html
    assert "Team 02, Team 03, Team 04" in html
    assert not tournament.rounds.exists()
    paired = organizer_client.post(pair, {"unchecked": "pair"})
    assert paired.status_code == 302
    assert tournament.rounds.get().matches.count() == 2


def test_a_player_checks_their_team_in_on_their_page(organizer):
    tournament = event_with_teams(2, organizer=organizer, check_in_required=True)
    user = UserFactory()
    Player.objects.filter(team__name="Team 01", position=0).update(user=user)
    client = client_for(user)
    assert 'id="check-in-button"' in me(client, tournament).content.decode()
    team = Team.objects.get(name="Team 01")
    assert client.post(reverse("tournament-team-check-in", args=[tournament.pk, team.pk])).status_code == 302
    assert "Your team is checked in" in me(client, tournament).content.decode()
    other = Team.objects.get(name="Team 02")
    assert client.post(reverse("tournament-team-check-in", args=[tournament.pk, other.pk])).status_code == 403


@pytest.mark.parametrize("code", ["AB/CD", "", "ÅÄÖ123", "x" * 40])
def test_a_malformed_code_in_the_join_box_is_a_404_page_naming_the_format(code):
    response = client_for(UserFactory()).get(reverse("team-join-lookup"), {"code": code})
    assert response.status_code == 404
    assert "a join code is 12 letters and digits" in response.content.decode()


def test_a_nul_character_in_a_form_is_refused_not_stored():
    tournament = event_with_teams(0)
    response = create(client_for(UserFactory()), tournament, team_name="Dual\x00Wield")
    assert response.status_code == 400
    assert "NUL" in response.content.decode()
    assert not Team.objects.exists()
