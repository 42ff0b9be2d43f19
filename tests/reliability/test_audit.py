"""Every override leaves an audit entry saying who, when, what before, what after and why; and
nothing in the app can edit or delete an entry.

Each override is made the way staff make it, through the API, at a frozen instant, and the
entry is compared field by field with exact values. The overrides are the issue's list: manual
pairing, a result changed after confirmation, a decklist changed after the deadline, a penalty
deviation, an appeal (overturn), a drop and a disqualification.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
import time_machine
from django.contrib.admin.sites import site as admin_site
from django.test import Client
from django.urls import get_resolver, reverse
from rest_framework.views import APIView

from common.i18n import localize
from common.translatable import from_data
from decklists.models import Decklist
from decklists.services import decklist_submit
from penalties.services import penalty_issue
from tests.factories import UserFactory
from tests.tournaments.factories import add_staff, client_for, event_with_teams, register_team
from tournaments.enums import StaffRole
from tournaments.models import AuditEntry, Match, Player
from tournaments.services.manual_pairing import round_pair_manual
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_publish

pytestmark = pytest.mark.django_db

AT = datetime(2026, 7, 18, 14, 30, tzinfo=UTC)
DECKLIST = "4 Lightning Bolt\n4 Monastery Swiftspear\n52 Mountain\n"


@pytest.fixture
def event():
    """A Competitive Modern event, four teams, ``player`` on Team 1; the player's list is in,
    and nothing is paired yet (the lists lock when round 1 is paired)."""
    organizer = UserFactory(username="organizer")
    tournament = event_with_teams(
        0, organizer=organizer, swiss_rounds=3, format="modern", rel="competitive", seed=20260718
    )
    player = UserFactory(username="player")
    teams = [
        register_team(tournament, "Team 1", actor=organizer, usernames=(player.username,)),
        register_team(tournament, "Team 2", actor=organizer),
        register_team(tournament, "Team 3", actor=organizer),
        register_team(tournament, "Team 4", actor=organizer),
    ]
    player_row = Player.objects.get(tournament=tournament, user=player)
    decklist_submit(tournament=tournament, actor=player, player=player_row, text=DECKLIST)
    return {
        "tournament": tournament,
        "base": f"/api/v1/tournaments/{tournament.pk}",
        "teams": teams,
        "player": player,
        "player_row": player_row,
        "organizer": organizer,
        "scorekeeper": add_staff(tournament, StaffRole.SCOREKEEPER),
        "judge": add_staff(tournament, StaffRole.JUDGE),
        "head_judge": add_staff(tournament, StaffRole.HEAD_JUDGE),
    }


def round_one(event) -> Match:
    """Round 1 paired by hand (1v2, 3v4) and published; returns table 1 (Team 1 v Team 2)."""
    teams = event["teams"]
    paired = round_pair_manual(
        tournament=event["tournament"],
        actor=event["organizer"],
        matches=[(teams[0].pk, teams[1].pk), (teams[2].pk, teams[3].pk)],
        reason="stream table",
    )
    round_publish(round_row=paired, actor=event["organizer"])
    return Match.objects.get(round=paired, team_a=teams[0])


def at_the_instant(user, method: str, path: str, body: dict):
    """The override as one API call at ``AT``, so the entry's ``created_at`` is exact."""
    with time_machine.travel(AT, tick=False):
        return getattr(client_for(user), method)(path, body, format="json")


def only_entry(action: str) -> AuditEntry:
    entries = list(AuditEntry.objects.filter(action=action))
    assert len(entries) == 1, [str(entry) for entry in entries]
    return entries[0]


def who_when_what_why(entry: AuditEntry) -> tuple:
    return (entry.actor, entry.created_at, entry.object_type, entry.object_id, entry.reason)


def test_manual_pairing_records_the_engines_pairing_and_the_organizers(event):
    teams = [team.pk for team in event["teams"]]
    body = {
        "matches": [{"team_a": teams[0], "team_b": teams[2]}, {"team_a": teams[1], "team_b": teams[3]}],
        "reason": "Team 1 and Team 2 are one family",
    }

    response = at_the_instant(event["organizer"], "post", f"{event['base']}/rounds/", body)

    assert response.status_code == 201
    entry = only_entry("round_pair_manual")
    assert who_when_what_why(entry) == (
        event["organizer"],
        AT,
        "round",
        str(response.json()["id"]),
        "Team 1 and Team 2 are one family",
    )
    assert entry.after == {"number": 1, "tables": [[1, teams[0], teams[2]], [2, teams[1], teams[3]]]}
    engine = entry.before["tables"]
    assert (entry.before["number"], sorted(t for line in engine for t in line[1:]), len(engine)) == (
        1,
        sorted(teams),
        2,
    )
    assert engine != entry.after["tables"]


def test_result_change_after_confirmation_records_both_results_and_the_reason(event):
    match = round_one(event)
    match_result_report(
        match=match, actor=event["scorekeeper"], team_a_wins=1, team_b_wins=0, draws=0, version=1
    )
    path = f"/api/v1/matches/{match.pk}/result/"
    body = {"team_a_wins": 0, "team_b_wins": 1, "draws": 0, "version": 2}

    refused = at_the_instant(event["head_judge"], "put", path, body)
    response = at_the_instant(event["head_judge"], "put", path, {**body, "reason": "slip filled in reversed"})

    assert (refused.status_code, refused.json()["errors"]) == (
        400,
        [{"field": "reason", "message": "required"}],
    )
    assert response.status_code == 200
    entry = only_entry("match_result_correct")
    assert who_when_what_why(entry) == (
        event["head_judge"],
        AT,
        "match",
        str(match.pk),
        "slip filled in reversed",
    )
    common = {
        "id": match.pk,
        "round": 1,
        "table": 1,
        "team_a": event["teams"][0].pk,
        "team_b": event["teams"][1].pk,
        "bracket_slot": None,
        "result_kind": "played",
        "reported_side": "",
        "confirmed": True,
        "disputed": False,
    }
    assert entry.before == {
        **common,
        "team_a_wins": 1,
        "team_b_wins": 0,
        "draws": 0,
        "version": 2,
        "reported_by": event["scorekeeper"].pk,
    }
    assert entry.after == {
        **common,
        "team_a_wins": 0,
        "team_b_wins": 1,
        "draws": 0,
        "version": 3,
        "reported_by": event["head_judge"].pk,
    }


def test_decklist_change_after_the_deadline_records_the_versions_and_the_reason(event):
    round_one(event)  # pairing round 1 locks the lists
    body = {
        "player": event["player_row"].pk,
        "text": DECKLIST.replace("52 Mountain", "51 Mountain\n1 Sacred Foundry"),
        "reason": "sideboard card registered in the main deck",
    }

    response = at_the_instant(event["judge"], "post", f"{event['base']}/decklists/", body)

    assert response.status_code == 201
    decklist = Decklist.objects.get(player=event["player_row"])
    entry = only_entry("decklist_change_after_deadline")
    assert who_when_what_why(entry) == (
        event["judge"],
        AT,
        "decklist",
        str(decklist.pk),
        "sideboard card registered in the main deck",
    )
    assert entry.before == {"version": 1, "valid": True}
    assert entry.after == {"version": 2, "valid": True, "player": event["player_row"].pk}
    assert list(decklist.versions.values_list("number", "submitted_by", "reason")) == [
        (1, event["player"].pk, ""),
        (2, event["judge"].pk, "sideboard card registered in the main deck"),
    ]


def penalty_body(event, **extra) -> dict:
    return {
        "player": event["player_row"].pk,
        "round": 1,
        "infraction": "TE-SP",
        "description": "long pauses before every attack",
        **extra,
    }


def test_penalty_deviation_records_the_proposal_and_the_head_judges_reason(event):
    round_one(event)
    body = penalty_body(event, penalty="no_penalty", deviation_reason="the opponents were stalling too")

    response = at_the_instant(event["head_judge"], "post", f"{event['base']}/penalties/", body)

    assert response.status_code == 201
    penalty_id = response.json()["id"]
    entry = only_entry("penalty_issue")
    assert who_when_what_why(entry) == (
        event["head_judge"],
        AT,
        "penalty",
        str(penalty_id),
        "the opponents were stalling too",
    )
    assert entry.before == {"penalty": "warning"}
    assert entry.after == {
        "player": event["player_row"].pk,
        "team": event["teams"][0].pk,
        "match": Match.objects.get(round__number=1, team_a=event["teams"][0]).pk,
        "infraction": "TE-SP",
        "proposed_penalty": "warning",
        "penalty": "no_penalty",
        "deviated": True,
        "match_point_adjustment": 0,
        "extra_turns": 2,
    }


def test_appeal_overturn_records_the_penalty_and_what_was_restored(event):
    match = round_one(event)
    penalty = penalty_issue(
        tournament=event["tournament"],
        actor=event["judge"],
        player=event["player_row"],
        round_row=match.round,
        infraction="TE-SP",
        description="long pauses before every attack",
    )
    path = f"/api/v1/penalties/{penalty.pk}/overturn/"

    response = at_the_instant(event["head_judge"], "post", path, {"reason": "the clock was already paused"})

    assert response.status_code == 200
    entry = only_entry("penalty_overturn")
    assert who_when_what_why(entry) == (
        event["head_judge"],
        AT,
        "penalty",
        str(penalty.pk),
        "the clock was already paused",
    )
    assert entry.before == {
        "overturned": False,
        "player": event["player_row"].pk,
        "team": event["teams"][0].pk,
        "match": match.pk,
        "infraction": "TE-SP",
        "proposed_penalty": "warning",
        "penalty": "warning",
        "deviated": False,
        "match_point_adjustment": 0,
        "extra_turns": 2,
    }
    assert entry.after["overturned"] is True
    assert localize(from_data(entry.after["restored"])) == (
        "overturned by the head judge (the clock was already paused): end-of-round turns -2"
    )


def test_drop_records_the_round_it_takes_effect_after_and_the_reason(event):
    round_one(event)
    path = f"{event['base']}/teams/{event['teams'][0].pk}/drop/"

    response = at_the_instant(event["player"], "post", path, {"reason": "last train home"})

    assert response.status_code == 200
    entry = only_entry("team_drop")
    assert who_when_what_why(entry) == (
        event["player"],
        AT,
        "team",
        str(event["teams"][0].pk),
        "last train home",
    )
    assert (entry.before, entry.after) == ({"dropped_after_round": None}, {"dropped_after_round": 1})


def test_disqualification_records_the_team_and_the_lost_match(event):
    match = round_one(event)
    path = f"{event['base']}/teams/{event['teams'][0].pk}/disqualify/"

    response = at_the_instant(event["head_judge"], "post", path, {"reason": "bribery (IPG 4.3)"})

    assert response.status_code == 200
    entry = only_entry("team_disqualify")
    assert who_when_what_why(entry) == (
        event["head_judge"],
        AT,
        "team",
        str(event["teams"][0].pk),
        "bribery (IPG 4.3)",
    )
    assert entry.before == {"dropped_after_round": None, "disqualified": False}
    assert entry.after == {"dropped_after_round": 1, "disqualified": True}
    lost = only_entry("match_penalty_result")
    assert who_when_what_why(lost) == (
        event["head_judge"],
        AT,
        "match",
        str(match.pk),
        "Disqualification: bribery (IPG 4.3)",
    )
    assert (lost.before["result_kind"], lost.after["result_kind"], lost.after["team_b_wins"]) == (
        "pending",
        "penalty_loss",
        1,
    )


# Entries cannot be edited or deleted through the app.


def walk(patterns, prefix=""):
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if hasattr(pattern, "url_patterns"):
            yield from walk(pattern.url_patterns, route)
        else:
            yield route, pattern.callback


def test_no_api_route_reads_or_writes_audit_entries():
    """No API view is built on AuditEntry (a queryset or a model serializer of it), and no
    route but the read-only page and the admin mentions the audit log."""
    audit_routes = []
    for route, callback in walk(get_resolver().url_patterns):
        view_class = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
        if view_class is not None and issubclass(view_class, APIView):
            queryset = getattr(view_class, "queryset", None)
            serializer = getattr(view_class, "serializer_class", None)
            models = {
                getattr(queryset, "model", None),
                getattr(getattr(serializer, "Meta", None), "model", None),
            }
            assert AuditEntry not in models, route
        if "audit" in route and not route.startswith("admin/"):
            audit_routes.append(route)
    assert audit_routes == ["events/<int:tournament_id>/audit/"]


@pytest.fixture
def entry(event):
    round_one(event)
    return only_entry("round_pair_manual")


@pytest.fixture
def superuser_client():
    client = Client()
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    return client


def test_admin_is_read_only_even_for_a_superuser(entry, superuser_client):
    change = reverse("admin:tournaments_auditentry_change", args=[entry.pk])
    delete = reverse("admin:tournaments_auditentry_delete", args=[entry.pk])
    changelist = reverse("admin:tournaments_auditentry_changelist")

    statuses = {
        "add": superuser_client.get(reverse("admin:tournaments_auditentry_add")).status_code,
        "change (POST)": superuser_client.post(change, {"reason": "edited", "action": "x"}).status_code,
        "delete (GET)": superuser_client.get(delete).status_code,
        "delete (POST)": superuser_client.post(delete, {"post": "yes"}).status_code,
        "bulk delete": superuser_client.post(
            changelist, {"action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"}
        ).status_code,
    }
    view = superuser_client.get(change)

    assert statuses == {
        "add": 403,
        "change (POST)": 403,
        "delete (GET)": 403,
        "delete (POST)": 403,
        "bulk delete": 200,
    }
    assert view.status_code == 200
    assert b'name="_save"' not in view.content
    assert b"delete_selected" not in superuser_client.get(changelist).content
    assert AuditEntry.objects.get(pk=entry.pk).reason == "stream table"
    assert admin_site.get_model_admin(AuditEntry).get_actions(view.wsgi_request) == {}


def test_audit_page_has_no_forms_and_ignores_writes(event, entry):
    client = Client()
    client.force_login(event["organizer"])
    path = f"/events/{event['tournament'].pk}/audit/"
    before = list(AuditEntry.objects.values())

    page = client.get(path)
    for method in ("post", "put", "patch", "delete"):
        getattr(client, method)(path, {"reason": "edited"})

    assert page.status_code == 200
    assert "stream table" in page.content.decode()
    forms = re.findall(r'<form[^>]*action="([^"]*)"', page.content.decode())
    # The site header's log-out button and language switcher, nothing of the log.
    assert forms == [reverse("logout"), reverse("set_language")]
    assert list(AuditEntry.objects.values()) == before
