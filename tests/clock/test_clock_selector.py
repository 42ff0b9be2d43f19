"""The clock read: rebuilt from rows alone (a restart changes nothing), in a fixed number of
queries whatever the number of tables."""

from __future__ import annotations

import pytest
import time_machine
from django.core.cache import cache

from clock.selectors import round_clock
from clock.services import (
    match_time_call,
    match_turn_complete,
    round_pause,
    round_resume,
    round_start,
    time_extension_grant,
)
from tests.clock.conftest import T0, at
from tests.clock.factories import MatchFactory
from tournaments.models import Round

pytestmark = pytest.mark.django_db


def test_restart_mid_round_rebuilds_the_same_clock(round_one, tables, judge, slow_play):
    """Everything the clock shows comes from stored timestamps: after dropping every in-memory
    object and the cache (what a restart loses), a fresh read from the rows is identical."""
    round_start(round_row=round_one, actor=judge, at=T0)
    with time_machine.travel(at(8), tick=False):
        time_extension_grant(match=tables[2], actor=judge, minutes=7, reason="deck check (4 + 3)")
    round_pause(round_row=round_one, actor=judge, at=at(15))
    round_resume(round_row=round_one, actor=judge, at=at(18))
    slow_play[tables[1].pk] = [at(30)]
    match_time_call(match=tables[0], actor=judge, active_team="A", at=at(54))
    match_turn_complete(match=tables[0], actor=judge)
    match_turn_complete(match=tables[0], actor=judge)
    now = at(56, 30)
    before = round_clock(Round.objects.select_related("tournament").get(pk=round_one.pk), now=now)

    cache.clear()
    del round_one, tables
    after = round_clock(Round.objects.select_related("tournament").get(number=1), now=now)

    assert after == before
    assert (after.state, after.ends_at, after.remaining_seconds) == ("time_up", at(53), 0)
    assert [
        (row.table, row.ends_at, row.extra_turns_total, row.extra_turns_played, row.active_team)
        for row in after.tables
    ] == [
        (1, at(53), 3, 1, "A"),
        (2, at(53), 5, 0, None),
        (3, at(60), 3, 0, None),
    ]


@pytest.mark.parametrize("table_count", [1, 3])
def test_clock_read_is_a_fixed_number_of_queries(
    round_one, judge, slow_play, django_assert_num_queries, table_count
):
    for number in range(1, table_count + 1):
        match = MatchFactory(round=round_one, table=number)
        with time_machine.travel(at(1), tick=False):
            time_extension_grant(match=match, actor=judge, minutes=2, reason="judge call")
    round_start(round_row=round_one, actor=judge, at=T0)
    loaded = Round.objects.select_related("tournament").get(pk=round_one.pk)

    with django_assert_num_queries(3):
        view = round_clock(loaded, now=at(10))

    assert len(view.tables) == table_count


def test_a_bye_has_no_row_on_the_clock(round_one, tables, slow_play):
    MatchFactory(round=round_one, table=None, team_b=None)

    view = round_clock(round_one, now=T0)

    assert [row.table for row in view.tables] == [1, 2, 3]
