"""The clock pages: the public projector, the judges' list with its forms, a player's table."""

from __future__ import annotations

import re

import pytest
import time_machine

from clock.services import (
    match_time_call,
    match_turn_complete,
    round_start,
    round_time_up_record,
    time_extension_grant,
)
from tests.clock.conftest import T0, at
from tests.clock.factories import MatchFactory, RoundFactory
from tests.factories import UserFactory
from tournaments.enums import RoundKind, StaffRole
from tournaments.models import TimeExtension

pytestmark = pytest.mark.django_db


def page(client, url, *, when):
    with time_machine.travel(when, tick=False):
        return client.get(url)


def submit(client, url, data=None, *, when):
    with time_machine.travel(when, tick=False):
        return client.post(url, data or {})


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())).strip()


def test_projector_is_public_and_lists_extended_tables(client, tournament, round_one, tables, judge):
    round_start(round_row=round_one, actor=judge, at=T0)
    with time_machine.travel(at(5), tick=False):
        time_extension_grant(match=tables[1], actor=judge, minutes=9, reason="deck check")

    response = page(client, f"/events/{tournament.pk}/clock/", when=at(10, 30))

    assert response.status_code == 200
    body = text(response)
    assert "Round 1" in body
    assert (
        '<div class="clock-digits" id="clock-remaining" data-clock-remaining aria-live="off">39:30</div>'
        in (response.content.decode())
    )
    assert "Table 2 +9 min · ends 10:59" in body
    assert "Table 1" not in body
    assert f'data-api-base="/api/v1/tournaments/{tournament.pk}/rounds/"' in response.content.decode()


def test_projector_keeps_the_running_round_until_the_next_one_starts(
    client, tournament, round_one, tables, judge
):
    round_start(round_row=round_one, actor=judge, at=T0)
    round_two = RoundFactory(tournament=tournament, number=2)

    before = text(page(client, f"/events/{tournament.pk}/clock/", when=at(55)))
    round_start(round_row=round_two, actor=judge, at=at(60))
    after = text(page(client, f"/events/{tournament.pk}/clock/", when=at(61)))

    assert "Round 1 0:00 Time" in before
    assert "Round 2 49:00" in after


def test_projector_hides_an_unpublished_round_from_the_public(client, tournament, round_one, tables):
    round_one.published_at = None
    round_one.save()

    body = text(page(client, f"/events/{tournament.pk}/clock/", when=T0))

    assert "No round yet" in body


def test_judge_list_is_sorted_by_end_and_shows_extra_turns(
    client, tournament, round_one, tables, judge, slow_play
):
    round_start(round_row=round_one, actor=judge, at=T0)
    with time_machine.travel(at(5), tick=False):
        time_extension_grant(match=tables[0], actor=judge, minutes=6, reason="deck check (3 + 3)")
    slow_play[tables[2].pk] = [at(20)]
    match_time_call(match=tables[1], actor=judge, active_team="B", at=at(51))
    client.force_login(judge)

    response = page(client, f"/events/{tournament.pk}/clock/judge/", when=at(52))

    assert response.status_code == 200
    rows = re.findall(r'data-table-row="(\d+)"', response.content.decode())
    assert rows == ["2", "3", "1"]
    body = text(response)
    assert f"Time called : team B ({tables[1].team_b.name}) finishing its turn; then 3 extra turns" in body
    assert "Out of time : call time (5 extra turns)" in body
    assert "+6: deck check (3 + 3)" in body


def test_judge_list_is_for_staff(client, tournament, round_one, tables, player_user):
    client.force_login(player_user)

    assert page(client, f"/events/{tournament.pk}/clock/judge/", when=T0).status_code == 403


def test_scorekeeper_sees_the_list_without_judge_forms(client, tournament, round_one, tables, staff):
    client.force_login(staff[StaffRole.SCOREKEEPER])

    response = page(client, f"/events/{tournament.pk}/clock/judge/", when=T0)

    assert response.status_code == 200
    assert "Add extension" not in response.content.decode()
    assert "Start round" in response.content.decode()


def test_judge_forms_run_the_services(client, tournament, round_one, tables, judge):
    client.force_login(judge)
    base = f"/events/{tournament.pk}/clock/judge"

    started = submit(client, f"{base}/rounds/1/start/", when=T0)
    extended = submit(
        client, f"{base}/matches/{tables[0].pk}/extension/", {"minutes": "4", "reason": "ruling"}, when=at(3)
    )
    early = submit(client, f"{base}/matches/{tables[1].pk}/time/", {"active_team": "A"}, when=at(49))
    called = submit(client, f"{base}/matches/{tables[1].pk}/time/", {"active_team": "A"}, when=at(50))
    turned = submit(client, f"{base}/matches/{tables[1].pk}/turn/", when=at(51))

    assert [r.status_code for r in (started, extended, early, called, turned)] == [302] * 5
    assert started["Location"] == f"{base}/?round=1"
    assert list(TimeExtension.objects.values_list("match__table", "minutes", "reason")) == [(1, 4, "ruling")]
    tables[1].refresh_from_db()
    assert (tables[1].time_called_at, tables[1].active_team, tables[1].turns_completed) == (at(50), "A", 1)
    messages = [str(m) for m in list(client.get(f"{base}/").context["messages"])]
    assert messages == [
        "Round 1: clock started.",
        "Table 1: +4 min (ruling).",
        "table 2 still has time on its clock",
        "Table 2: time called, team A active.",
        "Table 2: turn completed.",
    ]


def test_scorekeeper_cannot_post_judge_forms(client, tournament, round_one, tables, staff):
    client.force_login(staff[StaffRole.SCOREKEEPER])

    response = submit(
        client,
        f"/events/{tournament.pk}/clock/judge/matches/{tables[0].pk}/extension/",
        {"minutes": "4", "reason": "ruling"},
        when=T0,
    )

    assert response.status_code == 403
    assert TimeExtension.objects.count() == 0


def test_player_sees_their_tables_end_with_extensions(
    client, tournament, round_one, tables, judge, player_user
):
    round_start(round_row=round_one, actor=judge, at=T0)
    with time_machine.travel(at(5), tick=False):
        time_extension_grant(match=tables[1], actor=judge, minutes=9, reason="deck check")
    client.force_login(player_user)

    response = page(client, f"/events/{tournament.pk}/clock/me/", when=at(20))

    body = text(response)
    assert "Round 1 · Table 2 · you are team B" in body
    assert "Your table's time ends at 10:59 , including 9 min of extensions." in body
    assert "When time runs out: 3 extra turns after the active team finishes its turn." in body


def test_player_sees_extra_turn_status(client, tournament, round_one, tables, judge, player_user):
    round_start(round_row=round_one, actor=judge, at=T0)
    match_time_call(match=tables[1], actor=judge, active_team="A", at=at(50))
    client.force_login(player_user)

    body = text(page(client, f"/events/{tournament.pk}/clock/me/", when=at(51)))

    assert "Time has been called: team A finishes its turn, then 3 extra turns." in body


def test_someone_not_playing_is_told_so(client, tournament, round_one, tables):
    client.force_login(UserFactory())

    body = text(page(client, f"/events/{tournament.pk}/clock/me/", when=T0))

    assert "You are not registered on a team in this event." in body


def mark_time_up(round_row, when):
    """What the time-up task's run at ``when`` records (marks tables past their own end)."""
    round_time_up_record(round_id=round_row.pk, at=when)


def test_projector_has_no_site_navigation(client, tournament, round_one, tables, judge):
    """The hall's screen shows the clock only: no "Log in / Sign up" bar."""
    round_start(round_row=round_one, actor=judge, at=T0)

    html = page(client, f"/events/{tournament.pk}/clock/", when=at(10)).content.decode()

    assert ('<header class="site">' in html, "Log in" in html, "Sign up" in html) == (False, False, False)
    assert '<header class="site">' in page(client, "/", when=at(10)).content.decode()


def test_clock_pages_show_times_in_the_events_time_zone(
    client, settings, tournament, round_one, tables, judge
):
    """Server-rendered times and the script's (via data-time-zone) both use the event's time zone."""
    settings.TIME_ZONE = "America/New_York"  # the site's zone: not the event's
    tournament.time_zone = "Europe/Paris"
    tournament.save(update_fields=["time_zone"])
    round_start(round_row=round_one, actor=judge, at=T0)
    client.force_login(judge)

    projector = page(client, f"/events/{tournament.pk}/clock/", when=at(10))
    judges = page(client, f"/events/{tournament.pk}/clock/judge/", when=at(10))

    assert 'data-time-zone="Europe/Paris"' in projector.content.decode()
    assert "Time ends at 12:50" in text(projector)
    assert 'data-time-zone="Europe/Paris"' in judges.content.decode()
    assert "Times in Europe/Paris." in text(judges)


def test_tables_in_extra_turns_wait_for_the_time_call_on_the_judge_list_and_projector(
    client, tournament, round_one, tables, judge
):
    """The time-up task marked tables 1 and 3 at 10:50; table 2 (+9) still plays; table 3's
    judge has recorded the active team."""
    round_start(round_row=round_one, actor=judge, at=T0)
    with time_machine.travel(at(5), tick=False):
        time_extension_grant(match=tables[1], actor=judge, minutes=9, reason="deck check")
    mark_time_up(round_one, at(50, 40))
    match_time_call(match=tables[2], actor=judge, active_team="A", at=at(51))
    client.force_login(judge)

    judges = text(page(client, f"/events/{tournament.pk}/clock/judge/", when=at(52)))
    projector = text(page(client, f"/events/{tournament.pk}/clock/", when=at(52)))

    waiting = "In extra turns since 10:50 : waiting for a judge to record the active team (3 extra turns)"
    assert judges.count(waiting) == 1
    assert "Table 1 In extra turns since 10:50 · waiting for a judge to record the active team" in projector
    assert "Table 3 Time called · team A finishing turn" in projector
    assert "Table 2 +9 min · ends 10:59" in projector


def finish_playoff_table(tournament, judge):
    playoff = RoundFactory(tournament=tournament, number=5, kind=RoundKind.PLAYOFF)
    match = MatchFactory(round=playoff, table=1)
    round_start(round_row=playoff, actor=judge, at=T0)
    match_time_call(match=match, actor=judge, active_team="A", at=at(90))
    for _ in range(4):
        match_turn_complete(match=match, actor=judge)
    return playoff, match


@pytest.mark.parametrize(
    ("life_a", "life_b", "message"),
    [
        (
            "12",
            "7",
            "Table 1: team A ({a}) wins on life totals, 12 to 7 (MTR 2.4). Enter the result as usual.",
        ),
        (
            "-2",
            "3",
            "Table 1: team B ({b}) wins on life totals, 3 to -2 (MTR 2.4). Enter the result as usual.",
        ),
        (
            "9",
            "9",
            "Table 1: life totals equal (9 each): play on. A playoff has no draws: as soon as one team is "
            "ahead, the team not at the highest life total loses (MTR 2.4).",
        ),
        ("", "9", "Table 1: enter both life totals as whole numbers"),
    ],
)
def test_life_totals_after_a_playoff_tables_last_turn_tell_the_outcome(
    client, tournament, judge, slow_play, life_a, life_b, message
):
    playoff, match = finish_playoff_table(tournament, judge)
    client.force_login(judge)
    base = f"/events/{tournament.pk}/clock/judge"

    form_page = page(client, f"{base}/?round=5", when=at(100)).content.decode()
    response = submit(
        client, f"{base}/matches/{match.pk}/life-totals/", {"life_a": life_a, "life_b": life_b}, when=at(100)
    )

    assert 'name="life_a"' in form_page
    assert (response.status_code, response["Location"]) == (302, f"{base}/?round=5")
    shown = [str(m) for m in client.get(f"{base}/?round=5").context["messages"]]
    assert shown == [message.format(a=match.team_a.name, b=match.team_b.name)]


def test_life_totals_before_the_last_turn_are_refused(client, tournament, judge, slow_play):
    playoff = RoundFactory(tournament=tournament, number=5, kind=RoundKind.PLAYOFF)
    match = MatchFactory(round=playoff, table=1)
    round_start(round_row=playoff, actor=judge, at=T0)
    match_time_call(match=match, actor=judge, active_team="A", at=at(90))
    client.force_login(judge)
    base = f"/events/{tournament.pk}/clock/judge"

    form_page = page(client, f"{base}/?round=5", when=at(91)).content.decode()
    submit(client, f"{base}/matches/{match.pk}/life-totals/", {"life_a": "5", "life_b": "3"}, when=at(91))

    assert 'name="life_a"' not in form_page
    shown = [str(m) for m in client.get(f"{base}/?round=5").context["messages"]]
    assert shown == ["Table 1: its end-of-round turns are not over yet"]


def test_life_totals_are_for_judges(client, tournament, judge, staff, slow_play):
    _, match = finish_playoff_table(tournament, judge)
    client.force_login(staff[StaffRole.SCOREKEEPER])

    response = submit(
        client,
        f"/events/{tournament.pk}/clock/judge/matches/{match.pk}/life-totals/",
        {"life_a": "5", "life_b": "3"},
        when=at(100),
    )

    assert response.status_code == 403


def test_a_table_whose_result_is_in_leaves_the_end_of_round_views(
    client, tournament, round_one, tables, judge, staff
):
    """Issue 19: 45 minutes after its result was in, table 1 was listed in red as waiting for a
    judge, offered "call time" and shown as playing. A table with a result is finished."""
    from tournaments.services.results import match_result_report

    round_start(round_row=round_one, actor=judge, at=T0)
    with time_machine.travel(at(5), tick=False):
        time_extension_grant(match=tables[0], actor=judge, minutes=5, reason="deck check")
    with time_machine.travel(at(10), tick=False):
        match_result_report(
            match=tables[0],
            actor=staff[StaffRole.SCOREKEEPER],
            team_a_wins=1,
            team_b_wins=0,
            draws=0,
            version=tables[0].version,
        )
    mark_time_up(round_one, at(55, 40))
    client.force_login(judge)

    judges = page(client, f"/events/{tournament.pk}/clock/judge/", when=at(56))
    projector = text(page(client, f"/events/{tournament.pk}/clock/", when=at(56)))
    api = page(client, f"/api/v1/tournaments/{tournament.pk}/rounds/1/clock/", when=at(56)).json()

    assert "Table 1" not in projector
    assert "Table 2 In extra turns since 10:50" in projector
    finished_row = re.search(r'<tr data-table-row="1".*?</tr>', judges.content.decode(), re.S).group(0)
    assert "Finished" in text_of(finished_row) and "result in" in text_of(finished_row)
    assert "waiting for a judge" not in finished_row
    assert "Active team:" not in finished_row
    assert "playing" not in text_of(finished_row)
    row = next(row for row in api["tables"] if row["table"] == 1)
    assert (row["result_in"], row["extra_turns_since"]) == (True, None)


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()
