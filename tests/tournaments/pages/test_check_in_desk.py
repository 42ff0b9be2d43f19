"""Check-in at the desk by code (the player's page shows it with a QR code), "check in all
present" in one submit, and a team dropped for not checking in reinstated as a late entry."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.factories import event_with_teams
from tests.tournaments.pages.builders import client_for
from tournaments.domain.check_in import check_in_code
from tournaments.enums import ResultKind
from tournaments.models import AuditEntry, Match, Player, Team
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair, round_publish

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(organizer):
    return event_with_teams(5, organizer=organizer, check_in_required=True, swiss_rounds=3)


def test_the_players_page_shows_the_check_in_code_and_its_qr_code(event):
    user = UserFactory()
    team = Team.objects.get(name="Team 01")
    Player.objects.filter(team=team, position=0).update(user=user)
    html = client_for(user).get(reverse("tournament-me", args=[event.pk])).content.decode()
    assert f'<strong class="check-in-code" id="check-in-code">{check_in_code(team.pk)}</strong>' in html
    assert f"<title>Check-in code {check_in_code(team.pk)}</title>" in html


def test_a_typed_code_checks_the_team_in_and_a_typo_checks_nobody_in(event, organizer_client):
    team = Team.objects.get(name="Team 03")
    url = reverse("tournament-check-in-code", args=[event.pk])
    manage = organizer_client.get(reverse("tournament-manage", args=[event.pk])).content.decode()
    assert "data-check-in-code" in manage and 'name="code"' in manage
    code = check_in_code(team.pk)
    typo = code[:-1] + ("A" if code[-1] != "A" else "C")
    refused = organizer_client.post(url, {"code": typo})
    assert refused.status_code == 400
    assert "is not a check-in code: a character is mistyped" in refused.content.decode()
    assert not Team.objects.filter(checked_in_at__isnull=False).exists()
    answer = organizer_client.post(url, {"code": code.lower()})
    assert answer.status_code == 302 and answer["Location"].endswith("#check-in-desk")
    assert list(Team.objects.filter(checked_in_at__isnull=False).values_list("name", flat=True)) == [
        "Team 03"
    ]


def test_with_javascript_the_desk_gets_json_and_stays_on_the_page(event, organizer_client):
    team = Team.objects.get(name="Team 02")
    url = reverse("tournament-check-in-code", args=[event.pk])
    answer = organizer_client.post(url, {"code": check_in_code(team.pk)}, HTTP_ACCEPT="application/json")
    assert answer.status_code == 200
    assert answer.json()["team"] == team.pk and answer.json()["detail"] == "“Team 02” is checked in."
    other_event = event_with_teams(1, name="Other")
    stranger = Team.objects.get(tournament=other_event)
    refused = organizer_client.post(url, {"code": check_in_code(stranger.pk)}, HTTP_ACCEPT="application/json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "code"


def test_check_in_all_ticked_teams_in_one_submit(event, organizer_client):
    ticked = list(Team.objects.filter(name__in=["Team 01", "Team 04"]))
    answer = organizer_client.post(
        reverse("tournament-check-in-present", args=[event.pk]), {"team": [t.pk for t in ticked]}
    )
    assert answer.status_code == 302
    assert sorted(Team.objects.filter(checked_in_at__isnull=False).values_list("name", flat=True)) == [
        "Team 01",
        "Team 04",
    ]
    assert AuditEntry.objects.filter(tournament=event, action="team_check_in").count() == 2


def test_a_team_dropped_for_not_checking_in_is_reinstated_and_paired_in_round_2(
    event, organizer, organizer_client, api_client
):
    late = Team.objects.get(name="Team 05")
    for team in Team.objects.exclude(pk=late.pk):
        team.checked_in_at = team.created_at
        team.save(update_fields=["checked_in_at"])
    round_one = round_pair(tournament=event, actor=organizer, unchecked="drop")
    round_publish(round_row=round_one, actor=organizer)
    late.refresh_from_db()
    assert late.dropped_after_round == 0
    manage = organizer_client.get(reverse("tournament-manage", args=[event.pk])).content.decode()
    assert f'data-reinstate="{late.pk}"' in manage and "Dropped before round 1: did not check in" in manage
    search = client_for(UserFactory()).get(
        reverse("tournament-public", args=[event.pk]), {"q": "Team 05 player"}
    )
    assert "dropped before round 1: did not check in before round 1" in search.content.decode()

    api_client.force_authenticate(organizer)
    url = f"/api/v1/tournaments/{event.pk}/teams/{late.pk}/reinstate/"
    assert api_client.post(url, {"reason": ""}, format="json").status_code == 400
    answer = api_client.post(url, {"reason": "stuck in traffic"}, format="json")
    assert answer.status_code == 200
    assert (answer.data["dropped_after_round"], answer.data["registered_after_round"]) == (None, 1)
    assert answer.data["check_in_code"] == check_in_code(late.pk)
    missed = Match.objects.get(round=round_one, team_a=late)
    assert (missed.result_kind, missed.team_b, missed.confirmed) == (ResultKind.MISSED_ROUND, None, True)
    assert AuditEntry.objects.get(action="team_reinstate_late_entry").reason == "stuck in traffic"
    assert api_client.post(url, {"reason": "again"}, format="json").status_code == 409

    for match in Match.objects.filter(round=round_one, team_b__isnull=False):
        match_result_report(
            match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=match.version
        )
    round_two = round_pair(tournament=event, actor=organizer)
    paired = Match.objects.filter(round=round_two).values_list("team_a", "team_b")
    assert any(late.pk in pair for pair in paired)
