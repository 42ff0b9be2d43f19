"""The clock API: exact payloads, the end-of-round turn sequence with Slow Play, error shapes
and who may do what. Time is frozen with time-machine, because the views read ``now``."""

from __future__ import annotations

import pytest
import time_machine

from clock.services import match_time_call, round_start, time_extension_grant
from tests.clock.conftest import T0, at, client_for
from tests.factories import UserFactory
from tournaments.enums import StaffRole
from tournaments.models import AuditEntry, TimeExtension

pytestmark = pytest.mark.django_db


def clock_url(round_row, action="clock"):
    return f"/api/v1/tournaments/{round_row.tournament_id}/rounds/{round_row.number}/{action}/"


def post(client, url, body=None, *, when):
    with time_machine.travel(when, tick=False):
        return client.post(url, body or {}, format="json")


def get(client, url, *, when):
    with time_machine.travel(when, tick=False):
        return client.get(url)


def row(table, ends_at, extension=0, total=3, played=0, active=None, since=None, result_in=False):
    return {
        "table": table,
        "ends_at": ends_at,
        "extension_minutes": extension,
        "extra_turns_total": total,
        "extra_turns_played": played,
        "active_team": active,
        "extra_turns_since": since,
        "result_in": result_in,
    }


def test_clock_payload_before_the_start(round_one, tables):
    response = get(client_for(None), clock_url(round_one), when=at(-5))

    assert response.status_code == 200
    assert response.json() == {
        "state": "not_started",
        "ends_at": None,
        "remaining_seconds": 3000,
        "tables": [row(1, None), row(2, None), row(3, None)],
    }


def test_clock_payload_through_a_round(round_one, tables, judge, slow_play):
    judge_client = client_for(judge)
    assert post(judge_client, clock_url(round_one, "start"), when=T0).status_code == 200
    with time_machine.travel(at(12), tick=False):
        time_extension_grant(match=tables[1], actor=judge, minutes=9, reason="deck check (6 + 3)")
    slow_play[tables[2].pk] = [at(30)]
    assert post(judge_client, clock_url(round_one, "pause"), when=at(20)).json()["state"] == "paused"
    assert post(judge_client, clock_url(round_one, "resume"), when=at(22)).json()["state"] == "running"

    response = get(client_for(None), clock_url(round_one), when=at(40, 0.5))

    assert response.json() == {
        "state": "running",
        "ends_at": "2026-07-04T10:52:00Z",
        "remaining_seconds": 720,
        "tables": [
            row(1, "2026-07-04T10:52:00Z"),
            row(2, "2026-07-04T11:01:00Z", extension=9),
            row(3, "2026-07-04T10:52:00Z", total=5),
        ],
    }
    match_time_call(match=tables[0], actor=judge, active_team="B", at=at(53))
    late = get(client_for(None), clock_url(round_one), when=at(55)).json()
    assert (late["state"], late["remaining_seconds"], late["ends_at"]) == (
        "time_up",
        0,
        "2026-07-04T10:52:00Z",
    )
    assert late["tables"][0] == row(1, "2026-07-04T10:52:00Z", active="B", since="2026-07-04T10:52:00Z")


def test_clock_while_paused_projects_the_end_from_now(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)
    post(client_for(judge), clock_url(round_one, "pause"), when=at(20))

    body = get(client_for(None), clock_url(round_one), when=at(30)).json()

    assert (body["state"], body["remaining_seconds"], body["ends_at"]) == (
        "paused",
        1800,
        "2026-07-04T11:00:00Z",
    )


@pytest.mark.parametrize(
    ("penalties", "expected_sequence"),
    [
        (0, ["A", "B", "A", "B"]),
        (1, ["A", "B", "A", "B", "A", "B"]),
        (2, ["A", "B", "A", "B", "A", "B", "A", "B"]),
    ],
)
def test_turn_sequence_through_the_api(round_one, tables, judge, slow_play, penalties, expected_sequence):
    """Time on team A's turn: A finishes (turn 0), then 3 turns alternating from B, plus 2 per
    Slow Play penalty given before time was called (MTR 2.4, IPG 3.3)."""
    round_start(round_row=round_one, actor=judge, at=T0)
    match = tables[0]
    slow_play[match.pk] = [at(10 + 5 * n) for n in range(penalties)]
    client = client_for(judge)
    called = post(client, f"/api/v1/matches/{match.pk}/time/", {"active_team": "A"}, when=at(50))
    assert called.status_code == 200
    total = 3 + 2 * penalties
    assert called.json() == row(
        1, "2026-07-04T10:50:00Z", total=total, active="A", since="2026-07-04T10:50:00Z"
    )

    seen = [called.json()["active_team"]]
    for turn in range(1, total + 1):
        response = post(client, f"/api/v1/matches/{match.pk}/turns/", when=at(50 + turn))
        assert response.status_code == 200
        body = response.json()
        assert (body["extra_turns_played"], body["extra_turns_total"]) == (turn - 1, total)
        seen.append(body["active_team"])

    last = post(client, f"/api/v1/matches/{match.pk}/turns/", when=at(60))
    assert last.json() == row(
        1, "2026-07-04T10:50:00Z", total=total, played=total, active=None, since="2026-07-04T10:50:00Z"
    )
    assert seen == expected_sequence
    refused = post(client, f"/api/v1/matches/{match.pk}/turns/", when=at(61))
    assert (refused.status_code, refused.json()["detail"]) == (409, "every end-of-round turn has been played")
    match.refresh_from_db()
    assert match.turns_completed == total + 1
    assert AuditEntry.objects.filter(action="match.turn_completed").count() == total + 1


def test_slow_play_during_extra_turns_adds_nothing(round_one, tables, judge, slow_play):
    round_start(round_row=round_one, actor=judge, at=T0)
    match = tables[0]
    client = client_for(judge)
    post(client, f"/api/v1/matches/{match.pk}/time/", {"active_team": "B"}, when=at(50))
    post(client, f"/api/v1/matches/{match.pk}/turns/", when=at(51))
    slow_play[match.pk] = [at(52)]

    body = get(client, clock_url(round_one), when=at(53)).json()["tables"][0]

    assert body == row(1, "2026-07-04T10:50:00Z", total=3, played=0, active="A", since="2026-07-04T10:50:00Z")


def test_slow_play_exactly_when_time_is_called_adds_nothing(round_one, tables, judge, slow_play):
    round_start(round_row=round_one, actor=judge, at=T0)
    slow_play[tables[0].pk] = [at(50)]

    body = post(
        client_for(judge), f"/api/v1/matches/{tables[0].pk}/time/", {"active_team": "A"}, when=at(50)
    ).json()

    assert body["extra_turns_total"] == 3


def test_extension_api_answers_with_the_grant(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)

    response = post(
        client_for(judge),
        f"/api/v1/matches/{tables[0].pk}/extensions/",
        {"minutes": 4, "reason": "ruling took 4 minutes"},
        when=at(15),
    )

    extension = TimeExtension.objects.get()
    assert (response.status_code, response.json()) == (
        201,
        {
            "id": extension.pk,
            "match": tables[0].pk,
            "table": 1,
            "minutes": 4,
            "reason": "ruling took 4 minutes",
            "granted_by": judge.username,
            "created_at": "2026-07-04T10:15:00Z",
        },
    )


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"reason": "deck check"}, "minutes"),
        ({"minutes": 0, "reason": "deck check"}, "minutes"),
        ({"minutes": 61, "reason": "deck check"}, "minutes"),
        ({"minutes": "ten", "reason": "deck check"}, "minutes"),
        ({"minutes": 5}, "reason"),
        ({"minutes": 5, "reason": ""}, "reason"),
    ],
)
def test_bad_extension_body_names_the_field(round_one, tables, judge, body, field):
    response = post(client_for(judge), f"/api/v1/matches/{tables[0].pk}/extensions/", body, when=at(5))

    assert response.status_code == 400
    assert [error["field"] for error in response.json()["errors"]] == [field]
    assert TimeExtension.objects.count() == 0


def test_time_call_body_is_checked(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)
    client = client_for(judge)

    missing = post(client, f"/api/v1/matches/{tables[0].pk}/time/", {}, when=at(50))
    wrong = post(client, f"/api/v1/matches/{tables[0].pk}/time/", {"active_team": "C"}, when=at(50))

    assert (missing.status_code, missing.json()["errors"][0]["field"]) == (400, "active_team")
    assert (wrong.status_code, wrong.json()["errors"][0]["field"]) == (400, "active_team")
    assert wrong.json()["detail"] == "active_team must be 'A', 'B' or the id of a team at this table, got 'C'"


def test_time_call_before_the_end_is_a_conflict_with_the_message(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)

    response = post(
        client_for(judge), f"/api/v1/matches/{tables[1].pk}/time/", {"active_team": "A"}, when=at(49)
    )

    assert (response.status_code, response.json()) == (
        409,
        {
            "detail": "table 2 still has time on its clock",
            "errors": [{"message": "table 2 still has time on its clock", "code": "time_not_up"}],
            "code": "time_not_up",
        },
    )


def test_time_call_accepts_the_team_id(round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)

    response = post(
        client_for(judge),
        f"/api/v1/matches/{tables[0].pk}/time/",
        {"active_team": tables[0].team_a_id},
        when=at(50),
    )

    assert response.json()["active_team"] == "A"


def test_double_pause_through_the_api_is_a_conflict(round_one, tables, judge):
    client = client_for(judge)
    post(client, clock_url(round_one, "start"), when=T0)
    post(client, clock_url(round_one, "pause"), when=at(10))

    response = post(client, clock_url(round_one, "pause"), when=at(10, 1))

    assert (response.status_code, response.json()["detail"]) == (409, "the round is already paused")


def test_start_untimed_through_the_api_is_refused_for_swiss(round_one, judge):
    response = post(client_for(judge), clock_url(round_one, "start"), {"untimed": True}, when=T0)

    assert (response.status_code, response.json()["errors"][0]["field"]) == (400, "untimed")


def test_unknown_round_or_match_is_404(round_one, tables, judge):
    client = client_for(judge)

    assert (
        get(client, f"/api/v1/tournaments/{round_one.tournament_id}/rounds/9/clock/", when=T0).status_code
        == 404
    )
    assert post(client, "/api/v1/tournaments/999999/rounds/1/start/", when=T0).status_code == 404
    assert post(client, "/api/v1/matches/999999/turns/", when=T0).status_code == 404


MATCH_ACTIONS = [
    ("extensions", {"minutes": 3, "reason": "deck check"}),
    ("time", {"active_team": "A"}),
    ("turns", {}),
]


@pytest.mark.parametrize(
    ("role", "allowed"),
    [
        (StaffRole.ORGANIZER, True),
        (StaffRole.HEAD_JUDGE, True),
        (StaffRole.JUDGE, True),
        (StaffRole.SCOREKEEPER, True),
        ("player", False),
        ("stranger", False),
    ],
)
def test_round_clock_actions_are_for_staff(round_one, tables, staff, player_user, role, allowed):
    user = staff.get(role) or (player_user if role == "player" else UserFactory())
    client = client_for(user)

    codes = [
        post(client, clock_url(round_one, "start"), when=T0).status_code,
        post(client, clock_url(round_one, "pause"), when=at(1)).status_code,
        post(client, clock_url(round_one, "resume"), when=at(2)).status_code,
    ]

    assert codes == ([200, 200, 200] if allowed else [403, 403, 403])


@pytest.mark.parametrize(
    ("role", "allowed"),
    [
        (StaffRole.ORGANIZER, True),
        (StaffRole.HEAD_JUDGE, True),
        (StaffRole.JUDGE, True),
        (StaffRole.SCOREKEEPER, False),
        ("player", False),
        ("stranger", False),
    ],
)
def test_table_actions_are_for_judges(round_one, tables, staff, player_user, role, allowed):
    round_start(round_row=round_one, actor=staff[StaffRole.ORGANIZER], at=T0)
    user = staff.get(role) or (player_user if role == "player" else UserFactory())
    client = client_for(user)
    extended, called = tables[1], tables[0]

    codes = [
        post(
            client, f"/api/v1/matches/{extended.pk}/extensions/", MATCH_ACTIONS[0][1], when=at(40)
        ).status_code,
        post(client, f"/api/v1/matches/{called.pk}/time/", MATCH_ACTIONS[1][1], when=at(50)).status_code,
        post(client, f"/api/v1/matches/{called.pk}/turns/", MATCH_ACTIONS[2][1], when=at(51)).status_code,
    ]

    assert codes == ([201, 200, 200] if allowed else [403, 403, 403])


def test_anonymous_writes_are_refused(round_one, tables):
    client = client_for(None)

    assert post(client, clock_url(round_one, "start"), when=T0).status_code == 401
    assert post(client, f"/api/v1/matches/{tables[0].pk}/turns/", when=T0).status_code == 401


def test_unpublished_round_clock_is_for_staff_only(round_one, tables, staff, player_user):
    round_one.published_at = None
    round_one.save()

    codes = [
        get(client_for(user), clock_url(round_one), when=T0).status_code
        for user in (None, player_user, staff[StaffRole.SCOREKEEPER])
    ]

    assert codes == [401, 403, 200]


def test_published_and_finished_rounds_are_public(round_one, tables):
    round_one.finished_at = T0
    round_one.save()

    assert get(client_for(None), clock_url(round_one), when=T0).status_code == 200


def test_round_finished_without_publishing_keeps_its_clock_staff_only(round_one, tables, staff):
    """Every result entered before the pairings were published: the round's detail is a 404 for
    the public, so its clock must not be public either."""
    round_one.published_at = None
    round_one.finished_at = T0
    round_one.save()
    anonymous = client_for(None)

    codes = [
        get(anonymous, f"/api/v1/tournaments/{round_one.tournament_id}/rounds/1/", when=T0).status_code,
        get(anonymous, clock_url(round_one), when=T0).status_code,
        get(client_for(staff[StaffRole.SCOREKEEPER]), clock_url(round_one), when=T0).status_code,
    ]

    assert codes == [404, 401, 200]


def test_schema_documents_the_clock_endpoints(client):
    paths = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()["paths"]

    for path in [
        "/api/v1/tournaments/{tournament_id}/rounds/{number}/clock/",
        "/api/v1/tournaments/{tournament_id}/rounds/{number}/start/",
        "/api/v1/tournaments/{tournament_id}/rounds/{number}/pause/",
        "/api/v1/tournaments/{tournament_id}/rounds/{number}/resume/",
        "/api/v1/matches/{match_id}/extensions/",
        "/api/v1/matches/{match_id}/time/",
        "/api/v1/matches/{match_id}/turns/",
    ]:
        assert path in paths
    table_schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()["components"]["schemas"][
        "TableClock"
    ]
    assert sorted(table_schema["properties"]) == [
        "active_team",
        "ends_at",
        "extension_minutes",
        "extra_turns_played",
        "extra_turns_since",
        "extra_turns_total",
        "result_in",
        "table",
    ]


def test_slow_play_after_the_tables_end_adds_nothing_when_time_is_clicked_later(
    round_one, tables, judge, slow_play
):
    """Table 1 ran out at 10:50; the Slow Play at 10:52 came in extra turns (IPG 3.3), so the
    judge reaching the table at 10:53 still sees 3 turns, not 5."""
    round_start(round_row=round_one, actor=judge, at=T0)
    slow_play[tables[0].pk] = [at(52)]

    body = post(
        client_for(judge), f"/api/v1/matches/{tables[0].pk}/time/", {"active_team": "A"}, when=at(53)
    ).json()

    assert body == row(1, "2026-07-04T10:50:00Z", total=3, active="A", since="2026-07-04T10:50:00Z")


@pytest.mark.parametrize(
    ("team_size", "penalties", "total"),
    [(1, 0, 5), (1, 1, 7), (2, 0, 3), (2, 1, 5)],
)
def test_extra_turns_follow_the_events_team_size(
    tournament, round_one, tables, judge, slow_play, team_size, penalties, total
):
    """MTR 2.4: five additional turns in a one-versus-one match, three in 2HG; +2 per Slow Play."""
    tournament.team_size = team_size
    tournament.save()
    round_start(round_row=round_one, actor=judge, at=T0)
    match = tables[0]
    slow_play[match.pk] = [at(10 + 5 * n) for n in range(penalties)]
    client = client_for(judge)

    before = get(client, clock_url(round_one), when=at(40)).json()["tables"][0]
    called = post(client, f"/api/v1/matches/{match.pk}/time/", {"active_team": "A"}, when=at(50))

    assert before["extra_turns_total"] == total
    assert called.json()["extra_turns_total"] == total
    teams = [called.json()["active_team"]]
    for turn in range(1, total + 2):
        teams.append(
            post(client, f"/api/v1/matches/{match.pk}/turns/", when=at(50 + turn)).json()["active_team"]
        )
    assert teams == ["A", "B"] * ((total + 1) // 2) + [None]
