"""No 500s on any input: schemathesis fuzzes every operation of the API's own OpenAPI schema.

The schema is loaded from ``/api/schema/`` through the WSGI app, so the fuzzer tests what the
project publishes. Every operation is fuzzed as each role (anonymous, a player, scorekeeper,
judge, head judge, organizer, superuser; token auth) against a real event: round 1 paired,
published and started, one result confirmed, a decklist, a penalty and a printed document. Path
parameters mostly point at those objects (``as_strategy(path_parameters=...)``), so the fuzzer
reaches the views' logic and not only 404s; a share of cases keeps generated ids.

Each response must be a status the schema documents, match its schema, never be a 5xx, and a
4xx must carry ``detail`` and a non-empty ``errors`` list. Each case runs in a savepoint that is
rolled back, so a DELETE or a drop does not change what the next case sees.

``test_hostile_bodies`` sends hand-made garbage (bad JSON, wrong types, huge and negative
numbers, NUL and lone-surrogate text, deep nesting, 5 MB, non-UTF-8) to every POST and PUT.
"""

from __future__ import annotations

import json
import traceback
from dataclasses import dataclass

import hypothesis
import pytest
import schemathesis
from django.core.signals import got_request_exception
from django.db import transaction
from django.test.client import ClientHandler
from hypothesis import HealthCheck, Phase
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from documents.enums import DocumentKind, JobStatus
from documents.models import DocumentJob
from tests.factories import UserFactory
from tests.reliability.event import build_round_one_event
from tournaments.models import Team, TeamInvitation

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "player", "scorekeeper", "judge", "head_judge", "organizer", "admin")
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
EXAMPLES_PER_OPERATION = 6
"""Per operation and role: 43 operations x 7 roles keep the whole file within ~2 minutes."""


class _RecordingApp:
    """Django's test request handler as a WSGI app, keeping the traceback of any view crash.

    Django's own WSGIHandler would close the test's database connection at the end of each
    request (it runs inside the test's transaction); the test client's handler does not. A crash
    still becomes the 500 response the fuzzer checks, and its traceback is added to the failure.
    """

    def __init__(self):
        self.handler = ClientHandler(enforce_csrf_checks=True)
        self.crashes: list[str] = []
        got_request_exception.connect(self._record, weak=False)

    def _record(self, **kwargs):
        self.crashes.append(traceback.format_exc())

    def __call__(self, environ, start_response):
        response = self.handler(environ)
        headers = [
            *response.items(),
            *(("Set-Cookie", c.output(header="")) for c in response.cookies.values()),
        ]
        start_response(f"{response.status_code} {response.reason_phrase}", headers)
        return response


APP = _RecordingApp()


@pytest.fixture(scope="module")
def api_schema():
    return schemathesis.openapi.from_wsgi("/api/schema/?format=json", APP)


@dataclass
class FuzzEvent:
    """The shared round-1 event, and the ids a path parameter takes: the player's own objects
    (their team, their open match, a done job) or another team's (the confirmed match, a failed job)."""

    tournament: object
    users: dict
    own_ids: dict
    other_ids: dict


def build_event() -> FuzzEvent:
    ev = build_round_one_event()
    failed = DocumentJob.objects.create(
        kind=DocumentKind.PAIRINGS_BY_TABLE,
        tournament=ev.tournament,
        round=ev.match.round,
        status=JobStatus.FAILED,
        error="boom",
    )
    Team.objects.filter(pk=ev.teams[0].pk).update(join_code="ACDEFG")
    invitation = TeamInvitation.objects.create(
        tournament=ev.tournament, team=ev.teams[0], invitee=UserFactory(), invited_by=ev.users["organizer"]
    )
    common = {
        "tournament_id": ev.tournament.pk,
        "number": 1,
        "id": ev.penalty.pk,
        "call_id": ev.judge_call.pk,
        "note_id": ev.note.pk,
        "code": "ACDEFG",
        "invitation_id": invitation.pk,
        "key": "0123456789abcdef0123456789abcdef",  # a mirror's copy on this server (PUT /mirrors/)
    }
    own = {
        **common,
        "team_id": ev.teams[0].pk,
        "match_id": ev.match.pk,
        "decklist_id": ev.decklist.pk,
        "job_id": ev.job.pk,
    }
    other = {
        **common,
        "team_id": ev.teams[2].pk,
        "match_id": ev.confirmed_match.pk,
        "decklist_id": ev.decklist.pk,
        "job_id": failed.pk,
    }
    return FuzzEvent(tournament=ev.tournament, users=ev.users, own_ids=own, other_ids=other)


@pytest.fixture
def event(settings, tmp_path, monkeypatch):
    """The event, with uploads under a temporary folder and the log-in limit out of the way.

    The limit would answer 429 after 20 sign-ups a minute, and the fuzzer sends more; 429 is
    documented, but the views behind it must be reached too.
    """
    settings.MEDIA_ROOT = tmp_path
    settings.LOGIN_THROTTLE_RATE = None
    return build_event()


def auth_headers(user) -> dict[str, str]:
    if user is None:
        return {}
    token, _ = Token.objects.get_or_create(user=user)
    return {"Authorization": f"Token {token.key}"}


def assert_error_body(response) -> None:
    """A 4xx names what was wrong: the one error shape with a non-empty ``errors`` list."""
    if not 400 <= response.status_code < 500:
        return
    body = response.json()
    assert isinstance(body, dict) and body.get("detail"), (response.status_code, body)
    assert isinstance(body.get("errors"), list) and body["errors"], (response.status_code, body)
    assert all(isinstance(item, dict) and item.get("message") for item in body["errors"]), body


def _strategy(operation, event: FuzzEvent):
    """Real ids (two sets of objects) most of the time, generated ids sometimes; valid and invalid data."""
    names = {parameter.name for parameter in operation.path_parameters}

    def real(ids):
        return {name: ids[name] for name in names}

    modes = [schemathesis.GenerationMode.POSITIVE]
    if operation.body or operation.query:
        modes.append(schemathesis.GenerationMode.NEGATIVE)
    strategies = [
        operation.as_strategy(mode, path_parameters=real(ids) if names else None)
        for ids in (event.own_ids, event.other_ids)
        for mode in modes
    ]
    if names:
        strategies.append(operation.as_strategy(schemathesis.GenerationMode.POSITIVE))
    return st.one_of(strategies)


def _fuzz_operation(operation, event: FuzzEvent, headers: dict[str, str]) -> int:
    calls = 0

    @hypothesis.settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    @hypothesis.given(case=_strategy(operation, event))
    def run(case):
        nonlocal calls
        calls += 1
        APP.crashes.clear()
        with transaction.atomic():
            response = case.call(headers=headers)
            crash = "\n".join(APP.crashes)
            assert response.status_code < 500, (
                f"{case.method} {case.formatted_path}: {response.status_code}\n{crash}"
            )
            case.validate_response(response, checks=CHECKS, headers=headers)
            assert_error_body(response)
            transaction.set_rollback(True)

    run()
    return calls


@pytest.mark.parametrize("role", ROLES)
def test_every_operation_as_each_role(api_schema, event, role):
    headers = auth_headers(event.users[role])
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 40, "the schema lost operations"
    calls, failures = {}, []
    for operation in operations:
        try:
            calls[operation.label] = _fuzz_operation(operation, event, headers)
        except Exception as exc:  # noqa: BLE001 - gathered, so one run reports every operation's failure
            failures.append(f"--- {operation.label} as {role}:\n{exc}")
    assert not failures, "\n".join(failures)
    assert all(calls.values()), [label for label, count in calls.items() if not count]


# --- Hand-made hostile bodies --------------------------------------------------------------

HUGE = 10**30
FIELD_VALUES = [
    None,
    HUGE,
    -HUGE,
    2**63,
    -1,
    0,
    1.5,
    "\x00",
    "a\x00b",
    "\ud800",
    "x" * 20_001,
    [],
    {},
    True,
    [[{"a": None}]],
]
RAW_BODIES = [
    ("invalid json", b'{"name": ', "application/json"),
    ("json array", b"[1, 2, 3]", "application/json"),
    ("json string", b'"hello"', "application/json"),
    ("json null", b"null", "application/json"),
    ("deep nesting", b"[" * 100_000 + b"]" * 100_000, "application/json"),
    ("non-utf8", b'{"name": "\xff\xfe\xfd"}', "application/json"),
    ("nul form", b"name=a%00b&text=%00&player=1", "application/x-www-form-urlencoded"),
    ("non-utf8 form", b"name=%ff%fe&text=%ff", "application/x-www-form-urlencoded"),
    ("5 MB json", b'{"text": "' + b"x" * (5 * 1024 * 1024) + b'"}', "application/json"),
    ("5 MB form", b"text=" + b"x" * (5 * 1024 * 1024), "application/x-www-form-urlencoded"),
    ("bad multipart", b"--x\r\nContent-Disposition: form-data\r\n\r\n", "multipart/form-data; boundary=x"),
]


def _write_operations(schema: dict) -> list[tuple[str, str, list[str]]]:
    def resolve(node):
        while isinstance(node, dict) and "$ref" in node:
            node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
        return node

    found = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method not in ("post", "put"):
                continue
            content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
            fields = sorted(resolve(content.get("schema", {})).get("properties", {}))
            found.append((method, path, fields))
    return found


def _schema_dict() -> dict:
    from drf_spectacular.generators import SchemaGenerator

    return json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True), default=str))


WRITE_OPERATIONS = _write_operations(_schema_dict())


def _url(path: str, ids: dict) -> str:
    return path.format(**ids)


@pytest.mark.parametrize(
    ("method", "path", "fields"), WRITE_OPERATIONS, ids=[f"{m} {p}" for m, p, _ in WRITE_OPERATIONS]
)
def test_hostile_bodies(event, method, path, fields):
    """Garbage as the organizer (who reaches deepest) and as the player: never a 5xx, and 4xx name the problem."""
    for role in ("organizer", "player"):
        client = APIClient()
        client.credentials(**{"HTTP_" + k.upper(): v for k, v in auth_headers(event.users[role]).items()})
        url = _url(path, event.own_ids)
        send = getattr(client, method)
        cases = [(label, body, content_type) for label, body, content_type in RAW_BODIES]
        for field in fields or ["body"]:
            for value in FIELD_VALUES:
                body = json.dumps({field: value})
                cases.append((f"{field}={value!r:.30}", body.encode(), "application/json"))
        cases.append(("every field null", json.dumps(dict.fromkeys(fields)).encode(), "application/json"))
        cases.append(
            ("every field huge", json.dumps(dict.fromkeys(fields, HUGE)).encode(), "application/json")
        )
        cases.append(
            ("every field NUL", json.dumps(dict.fromkeys(fields, "\x00")).encode(), "application/json")
        )
        for label, body, content_type in cases:
            with transaction.atomic():
                response = send(url, body, content_type=content_type)
                assert response.status_code < 500, f"{role} {method} {url} [{label}]: {response.status_code}"
                assert_error_body(response)
                transaction.set_rollback(True)
