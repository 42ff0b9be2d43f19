"""No 500 from any page, for any parameter (issue 24, point 3): the pages' counterpart of the API's
schemathesis run (``test_api_fuzz.py``).

Every route of the URLconf (read at collection, so a page someone adds is fuzzed without a word
here) except the API's own operations, which schemathesis covers, and Django's admin, is asked
with GET, POST, HEAD and OPTIONS as each role (signed out, a player of the event, a judge, the
organizer), each parameter the pages read (every name the project's views and forms take from
``request.GET``/``request.POST``, collected from the source and the form classes) set to each
hostile value at once: letters, superscript digits (``"²".isdigit()`` is true, ``int("²")``
fails), a negative, an integer past any database column, a NUL character, and (as a player and
as the organizer) 100 KB strings in forms, a few parameters a request, under the upload limit.
Run it on PostgreSQL too (CI's service run): there a string past a column's length is an error
that SQLite never raises. The path's own ids are real objects of a
floor event, so the pages get past their lookups to the parameters. Any 5xx fails, naming the
route, method, role and value.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django import forms
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from floor.services.calls import judge_call_raise
from floor.services.notes import investigation_open
from penalties.services import penalty_issue
from tests.floor.conftest import build_floor_event
from tournaments.models import Player, Staff

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "clock", "common", "decklists", "documents", "floor", "penalties", "tournaments")
SKIPPED_PREFIXES = ("api/v1/", "admin/")

HUGE = "1566942233533210932386201600"
HOSTILE = {
    "letters": "abc",
    "superscript": "²",
    "negative": "-1",
    "huge": HUGE,
    "nul": "a\x00b",
}
LONG = "x" * 100_000
#: 100 KB values per request: the whole body stays under DATA_UPLOAD_MAX_MEMORY_SIZE (1 MB).
LONG_PER_REQUEST = 8
ROLES = ("anonymous", "player", "judge", "organizer")
#: The roles whose forms are filled with 100 KB strings: a player's few forms, and every staff form.
WRITERS = ("player", "organizer")


def _read_names() -> list[str]:
    """Every parameter name the project's code reads from a request: string keys of
    ``request.GET``/``request.POST`` (``.get``, ``.getlist``, ``[...]``, ``in``) and the views'
    helpers that take ``(request, "name")``, plus the fields of every form class."""
    names: set[str] = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and node.args:
                    first = node.args[0]
                    func = node.func
                    if (
                        isinstance(func, ast.Attribute)
                        and func.attr in ("get", "getlist")
                        and isinstance(func.value, ast.Attribute)
                        and func.value.attr in ("GET", "POST", "data", "query_params")
                        and isinstance(first, ast.Constant)
                        and isinstance(first.value, str)
                    ):
                        names.add(first.value)
                    if (
                        len(node.args) >= 2
                        and isinstance(node.args[0], ast.Name)
                        and node.args[0].id == "request"
                        and isinstance(node.args[1], ast.Constant)
                        and isinstance(node.args[1].value, str)
                    ):
                        names.add(node.args[1].value)
                elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute):
                    if node.value.attr in ("GET", "POST") and isinstance(node.slice, ast.Constant):
                        names.add(str(node.slice.value))
    names |= {name for form in _form_classes() for name in form.base_fields}
    return sorted(n for n in names if n.isidentifier() or "-" in n)


def _form_classes() -> list[type]:
    found, stack = [], [forms.BaseForm]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__.split(".")[0] in APPS:
            found.append(cls)
    return found


def _routes() -> list[tuple[str, dict]]:
    """(route, its path converters) for every page route, from the URLconf."""
    found = []

    def walk(patterns, prefix: str, converters: dict) -> None:
        for pattern in patterns:
            merged = {**converters, **getattr(pattern.pattern, "converters", {})}
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, route, merged)
            elif isinstance(pattern, URLPattern) and not route.startswith(SKIPPED_PREFIXES):
                found.append((route, merged))

    walk(get_resolver().url_patterns, "", {})
    return found


ROUTES = _routes()


class World:
    """A floor event with one of each object a page route names."""

    def __init__(self):
        self.floor = build_floor_event(teams=4)
        tournament, match = self.floor.tournament, self.floor.matches[0]
        player = Player.objects.filter(tournament=tournament, user=self.floor.players[0]).get()
        penalty = penalty_issue(
            tournament=tournament,
            actor=self.floor.head_judge,
            player=player,
            round_row=self.floor.round,
            infraction="TE-SP",
            description="slow play",
            context={},
        )
        call = judge_call_raise(
            tournament=tournament, match=match, actor=self.floor.players[0], at=timezone.now()
        )
        investigation = investigation_open(
            tournament=tournament, actor=self.floor.head_judge, title="Statements", player=player
        )
        self.ids = {
            "tournament_id": tournament.pk,
            "match_id": match.pk,
            "team_id": player.team_id,
            "round_id": self.floor.round.pk,
            "player_id": player.pk,
            "pk": match.pk,
            "staff_id": Staff.objects.filter(tournament=tournament).first().pk,
            "penalty_id": penalty.pk,
            "number": 1,
            "job_id": 1,
            "invitation_id": 1,
            "investigation_id": investigation.pk,
            "call_id": call.pk,
            "code": player.team.join_code or "ACDEFGHJKMNP",
            "secret": "x",
            "language": "es",
            "action": "claim",
        }

    def path(self, route: str, converters: dict) -> str:
        path = route
        for name, converter in converters.items():
            value = self.ids.get(name, 1 if type(converter).__name__ == "IntConverter" else "x")
            path = path.replace(f"<{type_name(converter)}:{name}>", str(value)).replace(
                f"<{name}>", str(value)
            )
        return "/" + path

    def client(self, role: str) -> Client:
        client = Client(raise_request_exception=False)
        user = {
            "anonymous": None,
            "player": self.floor.players[0],
            "judge": self.floor.judge,
            "organizer": self.floor.organizer,
        }[role]
        if user is not None:
            client.force_login(user)
        return client


def type_name(converter) -> str:
    return {
        "IntConverter": "int",
        "StringConverter": "str",
        "SlugConverter": "slug",
        "PathConverter": "path",
        "UUIDConverter": "uuid",
    }.get(type(converter).__name__, type(converter).__name__)


def _requests(names: list[str], *, long: bool):
    """(method, label, data) for each hostile value: all names at once in a query string and in a
    form, and (``long``) the 100 KB value in forms, a few names at a time (no server takes a 100 KB
    address)."""
    for label, value in HOSTILE.items():
        for method in ("get", "post"):
            yield method, label, dict.fromkeys(names, value)
    if long:
        for start in range(0, len(names), LONG_PER_REQUEST):
            yield "post", "100 KB", dict.fromkeys(names[start : start + LONG_PER_REQUEST], LONG)


NAMES = _read_names()


def test_the_fuzzer_sees_the_pages_and_their_parameters():
    routes = {route for route, _converters in ROUTES}
    assert {"events/<int:tournament_id>/floor/notes/", "join/<str:code>/", "api/docs/"} <= routes
    assert {"match", "player", "penalty", "lock", "delete", "q", "page", "round"} <= set(NAMES)


@pytest.mark.parametrize(("route", "converters"), ROUTES, ids=[route or "/" for route, _c in ROUTES])
def test_no_page_answers_500(route, converters):
    world = World()
    path = world.path(route, converters)
    failures = []
    for role in ROLES:
        client = world.client(role)
        # Long strings and the methods every view answers alike need only the roles that reach
        # the most code: the one who may do everything and the one who may do least.
        for method, label, data in _requests(NAMES, long=role in WRITERS):
            response = getattr(client, method)(path, data)
            if response.status_code >= 500:
                failures.append(f"{method.upper()} {path} as {role}, {label}: {response.status_code}")
        for method in ("head", "options") if role in ("anonymous", "organizer") else ():
            response = getattr(client, method)(path, dict.fromkeys(NAMES, "²"))
            if response.status_code >= 500:
                failures.append(f"{method.upper()} {path} as {role}: {response.status_code}")
    assert not failures, "\n".join(failures)
