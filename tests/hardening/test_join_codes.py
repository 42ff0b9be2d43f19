"""Join codes cannot be guessed (issue 24, point 1): a limit on codes that lead nowhere, per
account and per address, answered 429 with Retry-After; codes too long to guess; a full, closed
or foreign team's invite link shows nothing of the team."""

from __future__ import annotations

import time

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.factories import client_for, event_with_teams, register_team
from tournaments.domain.team_forming import (
    JOIN_CODE_ALPHABET,
    JOIN_CODE_LENGTH,
    grouped_join_code,
    new_join_code,
    normalise_join_code,
)
from tournaments.models import Player, Team

pytestmark = pytest.mark.django_db

RATE = 20  # LOGIN_THROTTLE_RATE's default, 20/min: the join-code limit shares it


def guesses(count: int) -> list[str]:
    """``count`` well-formed codes no team has."""
    return [f"{index:04d}".translate(str.maketrans("0123456789", "ACDEFGHJKM")) * 3 for index in range(count)]


def forming_team(tournament) -> Team:
    captain = UserFactory()
    response = client_for(captain).post(
        f"/api/v1/tournaments/{tournament.pk}/teams/",
        {
            "name": "Dual Wield",
            "players": [{"name": "Ana Alves", "wizards_id": "ana@x.example", "username": captain.username}],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    return Team.objects.get(pk=response.json()["id"])


def test_sixty_guessed_codes_through_the_api_meet_a_429_with_retry_after():
    client = client_for(UserFactory())
    statuses = [client.post(f"/api/v1/invitations/{code}/accept/", {}, format="json") for code in guesses(60)]
    codes = [response.status_code for response in statuses]
    assert codes[:RATE] == [404] * RATE
    assert set(codes[RATE:]) == {429}
    assert int(statuses[-1]["Retry-After"]) > 0
    # The limit is the account's, whichever address it comes from...
    moved = client.post(
        f"/api/v1/invitations/{guesses(1)[0]}/accept/", {}, format="json", REMOTE_ADDR="127.0.0.9"
    )
    assert moved.status_code == 429


def test_in_embedded_mode_guesses_are_allowed_again_when_retry_after_says(settings, tmp_path, monkeypatch):
    """Embedded mode keeps the counts in its file cache (config/settings.py)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(tmp_path),
        }
    }
    now = [time.time()]
    monkeypatch.setattr(time, "time", lambda: now[0])
    client = client_for(UserFactory())
    for code in guesses(RATE):
        client.post(f"/api/v1/invitations/{code}/accept/", {}, format="json")
    refused = client.post(f"/api/v1/invitations/{guesses(1)[0]}/accept/", {}, format="json")
    assert refused.status_code == 429
    now[0] += int(refused["Retry-After"]) + 1
    assert client.post(f"/api/v1/invitations/{guesses(1)[0]}/accept/", {}, format="json").status_code == 404


def test_the_limit_is_also_the_address_s_so_new_accounts_do_not_reset_it():
    for code in guesses(RATE):
        client_for(UserFactory()).post(f"/api/v1/invitations/{code}/accept/", {}, format="json")
    fresh = client_for(UserFactory()).post(f"/api/v1/invitations/{guesses(1)[0]}/decline/", format="json")
    assert fresh.status_code == 429
    # ...and on the invite link too.
    page = Client()
    page.force_login(UserFactory())
    link = page.get(reverse("team-join", args=[guesses(1)[0]]))
    assert link.status_code == 429 and int(link["Retry-After"]) > 0


def test_the_invite_link_is_limited_too_and_a_real_code_still_works_before_the_limit(client):
    tournament = event_with_teams(0)
    team = forming_team(tournament)
    guesser = UserFactory()
    client.force_login(guesser)
    answers = [client.get(reverse("team-join", args=[code])).status_code for code in guesses(RATE - 1)]
    assert set(answers) == {404}
    assert client.get(reverse("team-join", args=[team.join_code])).status_code == 200
    assert client.get(reverse("team-join", args=[guesses(1)[0]])).status_code == 404
    limited = client.get(reverse("team-join", args=[team.join_code]))
    assert limited.status_code == 429
    assert int(limited["Retry-After"]) > 0
    assert "Dual Wield" not in limited.content.decode()


def test_a_stranger_opening_a_full_team_s_link_sees_nothing_of_it(client):
    tournament = event_with_teams(0)
    team = forming_team(tournament)
    mate = UserFactory()
    joined = client_for(mate).post(
        f"/api/v1/invitations/{team.join_code}/accept/", {"name": "Ben Brand"}, format="json"
    )
    assert joined.status_code == 200
    client.force_login(UserFactory())
    page = client.get(reverse("team-join", args=[team.join_code]))
    body = page.content.decode()
    assert page.status_code == 404
    assert "this invitation is not open" in body
    for secret in ("Dual Wield", "Ana Alves", "Ben Brand", tournament.name):
        assert secret not in body
    unknown = client.get(reverse("team-join", args=[guesses(1)[0]]))
    assert unknown.status_code == 404 and "this invitation is not open" in unknown.content.decode()
    # Its players still see their team through the link.
    client.force_login(mate)
    assert "Ben Brand" in client.get(reverse("team-join", args=[team.join_code])).content.decode()


def test_a_desk_registered_team_s_link_shows_nothing_to_a_stranger(client):
    tournament = event_with_teams(0)
    linked = UserFactory()
    team = register_team(tournament, "Desk Team", actor=tournament.created_by, usernames=(linked.username,))
    assert Player.objects.get(user=linked).team_id == team.pk
    client.force_login(UserFactory())
    page = client.get(reverse("team-join", args=[team.join_code]))
    assert page.status_code == 404 and "Desk Team" not in page.content.decode()


def test_a_closed_event_s_forming_team_is_not_open(client):
    tournament = event_with_teams(0)
    team = forming_team(tournament)
    tournament.status = "finished"
    tournament.save(update_fields=["status"])
    client.force_login(UserFactory())
    page = client.get(reverse("team-join", args=[team.join_code]))
    assert page.status_code == 404 and "Dual Wield" not in page.content.decode()


def test_codes_are_twelve_characters_shown_in_groups_and_typed_back_either_way():
    code = new_join_code()
    assert len(code) == JOIN_CODE_LENGTH == 12 and set(code) <= set(JOIN_CODE_ALPHABET)
    shown = grouped_join_code(code)
    assert shown.count("-") == 2 and shown.replace("-", "") == code
    assert normalise_join_code(shown.lower()) == code
    # docs/decisions.md's arithmetic: 25^12 codes.
    assert len(JOIN_CODE_ALPHABET) ** JOIN_CODE_LENGTH == 59_604_644_775_390_625
