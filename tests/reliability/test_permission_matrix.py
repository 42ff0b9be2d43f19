"""Every API operation against every role, with the exact status, in one table.

The table is the reviewable statement of who may do what: one row per operation (method and
schema path, plus a label where one operation is exercised in two states), one column per role.
``test_every_api_operation_is_in_the_matrix`` walks the OpenAPI schema, so an endpoint added
without a row fails the suite instead of escaping the matrix, and
``test_matrix_agrees_with_the_named_rules`` asks each operation's rule in ``tournaments.rules``
for every cell, so the table and the rules the API enforces cannot drift apart.

The event (``matrix_event``): Friday 2HG, Modern at Competitive REL, four teams. ``player`` plays on Team 1 and
``other_player`` on Team 3. Both submitted their lists before round 1 (which locks the lists, as
the event has no deadline). Round 1 was paired by hand (1v2, 3v4), published and its clock
started; table 2 (3v4) has a confirmed result, table 1 (1v2) none yet. A judge gave Team 2's
first player a Warning (Slow Play); a result-slips PDF is done. "Another event" has its own
organizer. A Constructed event has no Limited pool: the pool rows show who gets past the
permission check (404 no pool, 400 not Limited) against who does not (403).

Every cell runs in a savepoint that is rolled back, so each request sees the same event and a
row's cells cannot leak into each other; the event is built once per row.

Reading the statuses: 401 is DRF's answer to an anonymous caller of a token-authenticated
endpoint; decklists and penalties answer anonymous callers 403 like any other outsider (their
documented choice, so the API never hints that a list or penalty exists); 404 hides an
unpublished round from non-staff; 409/400 mean the role was allowed and the event's state or the
body then refused, which still proves the permission check passed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.http import Http404
from django.urls import resolve
from drf_spectacular.generators import SchemaGenerator
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from event_io.export import event_export
from event_io.mirror_push import mirror_start
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.reliability.event import DECKLIST, Event, build_round_one_event
from tests.tournaments.factories import client_for
from tournaments.api.permissions import RulePermission, rule_name
from tournaments.models import Match, TeamInvitation
from tournaments.rules import RULES
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db

ROLES = (
    "anonymous",
    "player",
    "other_player",
    "scorekeeper",
    "judge",
    "head_judge",
    "organizer",
    "other_organizer",
    "admin",
)


def confirm_round_one(ev: Event) -> None:
    """Round 1 complete, so the next round may be paired."""
    match_result_report(
        match=ev.match, actor=ev.users["scorekeeper"], team_a_wins=1, team_b_wins=0, draws=0, version=1
    )


def pair_round_two(ev: Event) -> None:
    """Round 2 paired by the engine and not published: non-staff must not learn it exists."""
    confirm_round_one(ev)
    round_two = round_pair(tournament=ev.tournament, actor=ev.users["organizer"])
    ev.ids["number"] = round_two.number
    ev.ids["match_id"] = Match.objects.filter(round=round_two).order_by("table").first().pk


def newcomer_account(ev: Event) -> None:
    UserFactory(username="newcomer_staff")


def pending_invitation(ev: Event) -> None:
    invitee = UserFactory(username="invited_player")
    invitation = TeamInvitation.objects.create(
        tournament=ev.tournament, team=ev.teams[0], invitee=invitee, invited_by=ev.users["organizer"]
    )
    ev.ids["invitation_id"] = invitation.pk


def mirroring(ev: Event) -> None:
    mirror_start(tournament=ev.tournament, url="https://events.example.org", token="a-token-of-the-server")


def pushed_file(ev: Event) -> dict:
    """The event's file as a laptop pushes it to the server (``ev.ids["key"]`` names the copy)."""
    return {"sequence": 1, "event": event_export(ev.tournament)}


@dataclass(frozen=True)
class Row:
    """One operation: ``path`` is the schema's path; ``{name}`` parts are filled from the event.

    ``body`` may be a callable of the event (ids are only known once it is built); ``prepare``
    changes the event before the request, inside the cell's savepoint. ``rule`` names the rule of
    ``tournaments.rules`` that decides the row when the service, not the view, asks it (a
    deviation is known only once the IPG's penalty is computed). ``found_after_check``: the
    row's 404 comes after the permission check passed (a team without a pool), not from it.
    """

    method: str
    path: str
    statuses: tuple[int, ...]
    body: dict | Callable[[Event], dict] | None = None
    label: str = ""
    prepare: Callable[[Event], None] | None = None
    rule: str = ""
    found_after_check: bool = False

    @property
    def id(self) -> str:
        return f"{self.method} {self.path}" + (f" [{self.label}]" if self.label else "")


def R(method, path, *statuses, body=None, label="", prepare=None, rule="", found_after_check=False) -> Row:  # noqa: N802 - a table row
    assert len(statuses) == len(ROLES), f"{method} {path}: {len(statuses)} statuses for {len(ROLES)} roles"
    return Row(method, path, statuses, body, label, prepare, rule, found_after_check)


T = "/api/v1/tournaments/{tournament_id}"

# fmt: off
MATRIX = [
    #                                                       anon  plyr  othr  scor  judg  head  orgn  o_org admin
    # accounts: open to everyone (sign-up takes no credentials, the token view checks the body's)
    R("POST", "/api/v1/accounts/",                           201,  201,  201,  201,  201,  201,  201,  201,  201,
      body={"username": "newcomer", "password": "a long enough password"}),
    R("POST", "/api/v1/auth/token/",                         200,  200,  200,  200,  200,  200,  200,  200,  200,
      body={"username": "organizer", "password": DEFAULT_PASSWORD}),
    # events
    R("GET",  "/api/v1/tournaments/",                        200,  200,  200,  200,  200,  200,  200,  200,  200),
    # creating events: the accounts the site grants it (EVENT_CREATORS), here both organizers
    R("POST", "/api/v1/tournaments/",                        401,  403,  403,  403,  403,  403,  201,  201,  201,
      body={"name": "Saturday 2HG", "format": "modern", "rel": "competitive", "team_size": 2,
            "games_per_match": 1, "round_minutes": 50}),
    R("GET",  T + "/",                                       200,  200,  200,  200,  200,  200,  200,  200,  200),
    # settings: the organizer only; Swiss rounds, cut and tiebreakers are fixed once round 1 is paired
    R("PATCH", T + "/",                                      401,  403,  403,  403,  403,  403,  200,  403,  200,
      body={"venue": "Back room", "round_minutes": 55}),
    R("PATCH", T + "/",                                      401,  403,  403,  403,  403,  403,  409,  403,  409,
      body={"swiss_rounds": 4}, label="after round 1 is paired"),
    # a read-only mirror on a public server: started, read and stopped by the organizer on the laptop
    R("GET",  T + "/mirror/",                                401,  403,  403,  403,  403,  403,  200,  403,  200,
      prepare=mirroring),
    R("POST", T + "/mirror/",                                401,  403,  403,  403,  403,  403,  200,  403,  200,
      body={"url": "https://events.example.org", "token": "a-token-of-the-server"}),
    R("DELETE", T + "/mirror/",                              401,  403,  403,  403,  403,  403,  204,  403,  204,
      prepare=mirroring),
    # on the server, a pushed event file creates a mirrored event: accounts that may create events
    R("PUT",  "/api/v1/mirrors/{key}/",                      401,  403,  403,  403,  403,  403,  201,  201,  201,
      body=pushed_file),
    R("GET",  T + "/staff/",                                 401,  403,  403,  200,  200,  200,  200,  403,  200),
    R("POST", T + "/staff/",                                 401,  403,  403,  403,  403,  403,  201,  403,  201,
      body={"username": "newcomer_staff", "role": "judge"},
      prepare=newcomer_account),
    # teams: a player sees only their own team; registration and drops are scorekeeping work
    R("GET",  T + "/teams/",                                 401,  200,  200,  200,  200,  200,  200,  403,  200),
    R("POST", T + "/teams/",                                 401,  403,  403,  201,  403,  201,  201,  403,  201,
      body={"name": "Latecomers", "players": [{"name": "Late One", "wizards_id": "late1@example.org"},
                                               {"name": "Late Two", "wizards_id": "late2@example.org"}]}),
    R("GET",  T + "/teams/{team_id}/",                       401,  200,  403,  200,  200,  200,  200,  403,  200),
    R("POST", T + "/teams/{team_id}/drop/",                  401,  200,  403,  200,  403,  200,  200,  403,  200,
      body={"reason": "train home"}),
    # check-in: a player of the team or scorekeeping staff
    R("POST", T + "/teams/{team_id}/check-in/",              401,  200,  403,  200,  403,  200,  200,  403,  200,
      body={}),
    # reinstating as a late entry: scorekeeping staff (409: Team 1 was not dropped before round 1)
    R("POST", T + "/teams/{team_id}/reinstate/",             401,  403,  403,  409,  403,  409,  409,  403,  409,
      body={"reason": "arrived late"}),
    # invitations: the team's captain (Team 1 was registered at the desk: no captain) and
    # scorekeeping staff invite (409: the team is full) and cancel; every player answers their own
    R("POST", T + "/teams/{team_id}/invitations/",           401,  403,  403,  409,  403,  409,  409,  403,  409,
      body={"username": "newcomer_staff"}, prepare=newcomer_account),
    R("DELETE", T + "/teams/{team_id}/invitations/{invitation_id}/",
                                                             401,  403,  403,  200,  403,  200,  200,  403,  200,
      prepare=pending_invitation),
    R("GET",  T + "/invitations/",                           401,  200,  200,  200,  200,  200,  200,  200,  200),
    R("POST", "/api/v1/invitations/{code}/accept/",          401,  404,  404,  404,  404,  404,  404,  404,  404,
      body={}, label="unknown code"),
    R("POST", "/api/v1/invitations/{code}/decline/",         401,  404,  404,  404,  404,  404,  404,  404,  404,
      body={}, label="unknown code"),
    # the partner pool: anyone signed in joins (players already on a team: 409); staff and
    # members read it; the organizer forms teams (409: the pool is empty)
    R("GET",  T + "/pool/",                                  401,  403,  403,  200,  200,  200,  200,  403,  200),
    R("POST", T + "/pool/",                                  401,  409,  409,  201,  201,  201,  201,  201,  201,
      body={"name": "Solo Player"}),
    R("DELETE", T + "/pool/",                                401,  204,  204,  204,  204,  204,  204,  204,  204),
    R("POST", T + "/pool/teams/",                            401,  403,  403,  403,  403,  403,  409,  403,  409,
      body={"mode": "random", "seed": 1}),
    # disqualification: the head judge only (the organizer only when no head judge is named)
    R("POST", T + "/teams/{team_id}/disqualify/",            401,  403,  403,  403,  403,  200,  403,  403,  200,
      body={"reason": "bribery"}),
    # rounds: pairing and publishing are scorekeeping work; only the organizer pairs by hand
    R("GET",  T + "/rounds/",                                200,  200,  200,  200,  200,  200,  200,  200,  200),
    R("POST", T + "/rounds/",                                401,  403,  403,  201,  403,  201,  201,  403,  201,
      body={}, label="engine pairing", prepare=confirm_round_one),
    R("POST", T + "/rounds/",                                401,  403,  403,  403,  403,  403,  201,  403,  201,
      label="manual pairing", prepare=confirm_round_one,
      body=lambda ev: {"reason": "keep the siblings apart", "matches": [
          {"team_a": ev.teams[0].pk, "team_b": ev.teams[2].pk},
          {"team_a": ev.teams[1].pk, "team_b": ev.teams[3].pk}]}),
    R("GET",  T + "/rounds/{number}/",                       200,  200,  200,  200,  200,  200,  200,  200,  200),
    R("GET",  T + "/rounds/{number}/",                       404,  404,  404,  200,  200,  200,  200,  404,  200,
      label="unpublished round", prepare=pair_round_two),
    R("DELETE", T + "/rounds/{number}/",                     401,  403,  403,  204,  403,  204,  204,  403,  204,
      label="re-pair the unpublished round 2", prepare=pair_round_two),
    R("POST", T + "/rounds/{number}/publish/",               401,  403,  403,  200,  403,  200,  200,  403,  200),
    R("POST", T + "/cut/",                                   401,  403,  403,  409,  403,  409,  409,  403,  409),
    # draft pods: public to read; seating is scorekeeping work (the shared event is not a draft: 409)
    R("GET",  T + "/pods/",                                  200,  200,  200,  200,  200,  200,  200,  200,  200),
    R("POST", T + "/pods/",                                  401,  403,  403,  409,  403,  409,  409,  403,  409,
      body={"draft": 1}),
    R("GET",  T + "/standings/",                             200,  200,  200,  200,  200,  200,  200,  200,  200),
    # the clock: public once published; staff run it; judges work a table
    R("GET",  T + "/rounds/{number}/clock/",                 200,  200,  200,  200,  200,  200,  200,  200,  200),
    R("POST", T + "/rounds/{number}/start/",                 401,  403,  403,  409,  409,  409,  409,  403,  409,
      body={}),
    R("POST", T + "/rounds/{number}/pause/",                 401,  403,  403,  200,  200,  200,  200,  403,  200),
    R("POST", T + "/rounds/{number}/resume/",                401,  403,  403,  409,  409,  409,  409,  403,  409),
    R("POST", "/api/v1/matches/{match_id}/extensions/",      401,  403,  403,  403,  201,  201,  201,  403,  201,
      body={"minutes": 5, "reason": "ruling at the table"}),
    R("POST", "/api/v1/matches/{match_id}/time/",            401,  403,  403,  403,  409,  409,  409,  403,  409,
      body={"active_team": "A"}),
    R("POST", "/api/v1/matches/{match_id}/turns/",           401,  403,  403,  403,  409,  409,  409,  403,  409),
    # matches and results: the match's players report; only scorekeeping staff confirm or change
    R("GET",  "/api/v1/matches/{match_id}/",                 200,  200,  200,  200,  200,  200,  200,  200,  200),
    R("GET",  "/api/v1/matches/{match_id}/",                 404,  404,  404,  200,  200,  200,  200,  404,  200,
      label="unpublished round", prepare=pair_round_two),
    R("PUT",  "/api/v1/matches/{match_id}/result/",          401,  200,  403,  200,  403,  200,  200,  403,  200,
      body={"team_a_wins": 1, "team_b_wins": 0, "draws": 0, "version": 1}, label="first report"),
    R("PUT",  "/api/v1/matches/{match_id}/result/",          401,  403,  409,  200,  403,  200,  200,  403,  200,
      label="change a confirmed result", prepare=lambda ev: ev.ids.update(match_id=ev.confirmed_match.pk),
      body={"team_a_wins": 0, "team_b_wins": 1, "draws": 0, "version": 2, "reason": "slip was swapped"}),
    # seats (primary on the right): any staff role, or a player of the team, until a result is in
    R("PUT",  "/api/v1/matches/{match_id}/seats/",           401,  200,  403,  200,  200,  200,  200,  403,  200,
      body=lambda ev: {"team": ev.teams[0].pk, "players": list(
          ev.teams[0].players.order_by("-position").values_list("pk", flat=True))}),
    R("PUT",  "/api/v1/matches/{match_id}/seats/",           401,  409,  403,  409,  409,  409,  409,  403,  409,
      label="after the result", prepare=confirm_round_one,
      body=lambda ev: {"team": ev.teams[0].pk, "players": list(
          ev.teams[0].players.order_by("-position").values_list("pk", flat=True))}),
    # decklists: the team and the staff only [MTR 2.7]; after the lock only judges change a list
    R("POST", T + "/decklists/",                             401,  409,  403,  409,  201,  201,  201,  403,  201,
      body=lambda ev: {"player": ev.player_row.pk, "text": DECKLIST, "reason": "swapped a land"}),
    R("POST", T + "/decklists/preview/",                     401,  200,  403,  200,  200,  200,  200,  403,  200,
      body=lambda ev: {"player": ev.player_row.pk, "text": DECKLIST}),
    R("GET",  T + "/decklists/{decklist_id}/",               403,  200,  403,  200,  200,  200,  200,  403,  200),
    R("GET",  T + "/teams/{team_id}/decklists/",             403,  200,  403,  200,  200,  200,  200,  403,  200),
    R("GET",  T + "/teams/{team_id}/pool/",                  403,  404,  403,  404,  404,  404,  404,  403,  404,
      found_after_check=True),
    R("POST", T + "/teams/{team_id}/pool/",                  403,  400,  403,  400,  400,  400,  400,  403,  400,
      body={"text": "1 Lightning Bolt\n", "reason": "pool typo"}),
    # penalties: staff only; judges issue; only the head judge deviates or overturns
    R("GET",  T + "/penalties/",                             403,  403,  403,  200,  200,  200,  200,  403,  200),
    R("POST", T + "/penalties/",                             403,  403,  403,  403,  201,  201,  201,  403,  201,
      label="as proposed", body=lambda ev: {
          "player": ev.player_row.pk, "round": 1, "infraction": "TE-SP", "description": "slow"}),
    R("POST", T + "/penalties/",                             403,  403,  403,  403,  403,  201,  403,  403,  201,
      label="deviation", rule="can_deviate", body=lambda ev: {
          "player": ev.player_row.pk, "round": 1, "infraction": "TE-SP", "description": "slow",
          "penalty": "no_penalty", "deviation_reason": "the opponent was stalling too"}),
    R("POST", T + "/penalties/preview/",                     403,  403,  403,  403,  200,  200,  200,  403,  200,
      body=lambda ev: {"player": ev.player_row.pk, "round": 1, "infraction": "TE-SP"}),
    R("POST", "/api/v1/penalties/{id}/overturn/",            403,  403,  403,  403,  403,  200,  403,  403,  200,
      body={"reason": "appeal granted"}),
    # a judge's Disqualification is a proposal the head judge confirms or changes (the event's
    # penalty is a Warning, so the head judge is let in and then told it awaits no decision)
    R("POST", "/api/v1/penalties/{id}/review/",              403,  403,  403,  403,  403,  409,  403,  403,  409,
      body={"decision": "confirm", "reason": "seen it myself"}),
    R("GET",  T + "/infractions/",                           403,  403,  403,  200,  200,  200,  200,  403,  200),
    # printed documents: staff; a staff-only kind (result slips) stays staff-only to download
    R("GET",  T + "/documents/",                             401,  403,  403,  200,  200,  200,  200,  403,  200),
    R("POST", T + "/documents/",                             401,  403,  403,  202,  202,  202,  202,  403,  202,
      body={"kind": "pairings_by_table", "round": 1}),
    R("GET",  "/api/v1/documents/{job_id}/",                 401,  403,  403,  200,  200,  200,  200,  403,  200),
    R("POST", "/api/v1/documents/{job_id}/retry/",           401,  403,  403,  409,  409,  409,  409,  403,  409),
    R("GET",  "/api/v1/documents/{job_id}/file/",            401,  403,  403,  200,  200,  200,  200,  403,  200),
    # judge calls: players of the table and staff call; staff see the queue; judges answer
    R("GET",  T + "/judge-calls/",                           401,  403,  403,  200,  200,  200,  200,  403,  200),
    R("POST", T + "/judge-calls/",                           401,  201,  403,  201,  201,  201,  201,  403,  201,
      body=lambda ev: {"match": ev.match.pk, "reason": "rules question"}),
    R("POST", "/api/v1/judge-calls/{call_id}/claim/",        401,  403,  403,  403,  200,  200,  200,  403,  200),
    R("POST", "/api/v1/judge-calls/{call_id}/escalate/",     401,  403,  403,  403,  200,  200,  200,  403,  200),
    R("POST", "/api/v1/judge-calls/{call_id}/resolve/",      401,  403,  403,  403,  200,  200,  200,  403,  200,
      body={"note": "answered at the table"}),
    # zones and the end-of-round console: staff read; the organizer or head judge lays out zones
    R("GET",  T + "/zones/",                                 401,  403,  403,  200,  200,  200,  200,  403,  200),
    R("POST", T + "/zones/",                                 401,  403,  403,  403,  403,  201,  201,  403,  201,
      body={"name": "Front", "first_table": 1, "last_table": 40}),
    R("GET",  T + "/rounds/{number}/end-of-round/",          401,  403,  403,  200,  200,  200,  200,  403,  200),
    # deck-check planner: judges (400: the plan needs ?round=, which proves the rule let them in)
    R("GET",  T + "/deck-checks/plan/",                      401,  403,  403,  403,  400,  400,  400,  403,  400),
    R("GET",  T + "/deck-checks/contenders/",                401,  403,  403,  403,  200,  200,  200,  403,  200),
    # notes: judges of this event only; the head judge locks
    R("GET",  T + "/notes/",                                 401,  403,  403,  403,  200,  200,  200,  403,  200),
    R("POST", T + "/notes/",                                 401,  403,  403,  403,  201,  201,  201,  403,  201,
      body=lambda ev: {"match": ev.match.pk, "text": "a note"}),
    R("POST", "/api/v1/notes/{note_id}/lock/",               401,  403,  403,  403,  403,  200,  403,  403,  200),
]
# fmt: on


def default_ids(ev: Event) -> dict:
    return {
        "tournament_id": ev.tournament.pk,
        "team_id": ev.teams[0].pk,
        "number": 1,
        "match_id": ev.match.pk,
        "decklist_id": ev.decklist.pk,
        "id": ev.penalty.pk,
        "job_id": ev.job.pk,
        "call_id": ev.judge_call.pk,
        "note_id": ev.note.pk,
        "code": "ACDEFG",
        "invitation_id": 0,
        "key": "0123456789abcdef0123456789abcdef",
    }


@pytest.fixture
def matrix_event(settings, tmp_path, monkeypatch) -> Event:
    """The event of the module docstring; sign-up and login are not throttled here (the matrix
    calls them nine times per row from one address; throttling has its own tests)."""
    settings.MEDIA_ROOT = str(tmp_path)
    settings.LOGIN_THROTTLE_RATE = None
    return build_round_one_event()


def call(ev: Event, row: Row, role: str) -> int:
    """One cell: the request in a savepoint that is rolled back, so the next cell sees the event
    unchanged. The caller is re-read so no role cached on a user object outlives its cell."""
    with transaction.atomic():
        ev.ids.clear()
        if row.prepare is not None:
            row.prepare(ev)
        ids = {**default_ids(ev), **ev.ids}
        path = row.path.format(**ids)
        user = ev.users[role]
        client = client_for(None if user is None else get_user_model().objects.get(pk=user.pk))
        body = row.body(ev) if callable(row.body) else row.body
        method = getattr(client, row.method.lower())
        response = method(path, body, format="json") if body is not None else method(path)
        transaction.set_rollback(True)
    return response.status_code


@pytest.mark.parametrize("row", MATRIX, ids=[row.id for row in MATRIX])
def test_permission_matrix(matrix_event, row):
    expected = dict(zip(ROLES, row.statuses, strict=True))
    actual = {role: call(matrix_event, row, role) for role in ROLES}
    assert actual == expected, f"{row.id}: {[actual[role] for role in ROLES]}"


def schema_operations() -> set[tuple[str, str]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {
        (method.upper(), path)
        for path, operations in schema["paths"].items()
        for method in operations
        if method in {"get", "post", "put", "patch", "delete"}
    }


def test_every_api_operation_is_in_the_matrix():
    """A new endpoint, or a new method on one, must get a row (and so a decision per role)."""
    covered = {(row.method, row.path) for row in MATRIX}
    assert schema_operations() - covered == set()
    assert covered - schema_operations() == set()


def test_every_api_route_is_in_the_schema():
    """The schema is what the meta-test walks; a view hidden from it (``exclude=True``) or a
    route outside DRF would escape the matrix, so every route under /api/v1/ must be in it."""
    from django.urls import get_resolver

    def walk(patterns, prefix=""):
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if hasattr(pattern, "url_patterns"):
                yield from walk(pattern.url_patterns, route)
            else:
                yield route

    routes = {
        "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route).replace("{pk}", "{id}")
        for route in walk(get_resolver().url_patterns)
        if route.startswith("api/v1/")
    }
    assert routes == {path for _, path in schema_operations()}


def _rule_of(ev: Event, row: Row, role: str) -> bool | None:
    """The named rule's answer for the row's caller, asked the way ``RulePermission`` asks it;
    ``None`` for an operation whose view does not use it (sign-up and token)."""
    path = row.path.format(**{**default_ids(ev), **ev.ids})
    match = resolve(path)
    view_class = getattr(match.func, "view_class", None)
    if RulePermission not in getattr(view_class, "permission_classes", ()):
        return None
    user = ev.users[role]
    user = AnonymousUser() if user is None else get_user_model().objects.get(pk=user.pk)
    body = row.body(ev) if callable(row.body) else row.body
    request = Request(getattr(APIRequestFactory(), row.method.lower())(path, body, format="json"))
    request.user = user
    request._full_data = body or {}
    view = view_class()
    view.request, view.args, view.kwargs = request, (), match.kwargs
    try:
        args = view.rule_args(request)
    except Http404:
        return False
    return RULES[row.rule or rule_name(view, request, row.method)](user, *args)


@pytest.mark.parametrize("row", MATRIX, ids=[row.id for row in MATRIX])
def test_matrix_agrees_with_the_named_rules(matrix_event, row):
    """The matrix reads the rules the API enforces: wherever an operation declares a rule, the
    rule says no exactly where the matrix expects a refusal (401, 403, or the 404 hiding an
    unpublished round), so the table and ``tournaments.rules`` cannot drift apart."""
    refused = {401, 403} if row.found_after_check else {401, 403, 404}
    verdicts = {}
    for role, expected in zip(ROLES, row.statuses, strict=True):
        with transaction.atomic():
            matrix_event.ids.clear()
            if row.prepare is not None:
                row.prepare(matrix_event)
            verdict = _rule_of(matrix_event, row, role)
            transaction.set_rollback(True)
        if verdict is not None:
            verdicts[role] = (verdict, expected not in refused)
    assert {role: got for role, (got, _) in verdicts.items()} == {
        role: want for role, (_, want) in verdicts.items()
    }


@pytest.mark.parametrize("method", ["TRACE", "CONNECT", "PROPFIND"])
def test_a_method_no_view_handles_is_405_everywhere(matrix_event, method):
    """TRACE once crashed the penalty views (a KeyError on the method): every API route answers
    405 to a method it does not handle, whoever asks."""
    ids = default_ids(matrix_event)
    paths = sorted({path for _, path in schema_operations()})
    codes = {}
    for role in ("anonymous", "judge", "organizer"):
        user = matrix_event.users[role]
        client = client_for(None if user is None else get_user_model().objects.get(pk=user.pk))
        for path in paths:
            codes[(role, path)] = client.generic(method, path.format(**ids)).status_code
    assert {key: code for key, code in codes.items() if code != 405} == {}
