"""Zones, the end-of-round order, the deck-check plan, the contenders and the extension rounding."""

from __future__ import annotations

import datetime
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from decklists.domain.deck_checks import check_duration_minutes
from floor.domain.deck_checks import (
    PlanError,
    PlanTable,
    StandingsEntry,
    cut_contenders,
    plan_checks,
    weighted_from_round,
)
from floor.domain.zones import TableRange, ZoneError, check_zone, order_by_end

T0 = datetime.datetime(2026, 7, 18, 10, 0, tzinfo=datetime.UTC)


@pytest.mark.parametrize(
    ("minutes", "seconds", "expected"),
    [(6, 10, 7), (6, 0, 6), (0, 1, 1), (0, 0, 0), (12, 59, 13)],
)
def test_deck_check_length_rounds_up_to_a_whole_minute(minutes, seconds, expected):
    assert check_duration_minutes(datetime.timedelta(minutes=minutes, seconds=seconds)) == expected


def test_zones_refuse_overlaps_and_reversed_ranges():
    front = TableRange("Front", 1, 40)
    check_zone(TableRange("Back", 41, 80), [front])
    with pytest.raises(ZoneError) as overlap:
        check_zone(TableRange("Back", 30, 80), [front])
    assert overlap.value.message == "tables 30-40 are already in zone 'Front' (1-40)"
    with pytest.raises(ZoneError):
        check_zone(TableRange("Back", 80, 41), [])
    with pytest.raises(ZoneError):
        check_zone(TableRange(" ", 1, 2), [])


def test_order_by_end_puts_untimed_last_and_breaks_ties_by_table():
    rows = [(5, T0), (2, None), (3, T0 - datetime.timedelta(minutes=1)), (1, T0)]
    ordered = order_by_end(rows, table_of=lambda r: r[0], ends_at_of=lambda r: r[1])
    assert [r[0] for r in ordered] == [3, 1, 5, 2]


def tables(count: int) -> list[PlanTable]:
    return [PlanTable(match_id=100 + n, table=n, team_a=2 * n - 1, team_b=2 * n) for n in range(1, count + 1)]


def test_plan_skips_checked_teams_and_is_reproducible():
    plan = plan_checks(tables(10), checked_teams={1, 2, 3}, count=4, round_number=1, swiss_rounds=5, seed=42)
    assert len(plan) == 4
    assert all(p.table != 1 for p in plan)
    assert all(p.team_id != 3 for p in plan)
    assert plan == plan_checks(
        tables(10), checked_teams={1, 2, 3}, count=4, round_number=1, swiss_rounds=5, seed=42
    )
    assert [p.table for p in plan] == sorted(p.table for p in plan)
    with pytest.raises(PlanError):
        plan_checks(tables(3), checked_teams=(), count=0, round_number=1, swiss_rounds=5, seed=1)


@given(st.sets(st.integers(min_value=1, max_value=20)), st.integers(min_value=0, max_value=10**6))
def test_plan_never_names_a_team_without_a_list(without, seed):
    plan = plan_checks(
        tables(10),
        checked_teams=(),
        without_lists=without,
        count=10,
        round_number=1,
        swiss_rounds=5,
        seed=seed,
    )
    assert all(p.team_id not in without for p in plan)
    assert {p.table for p in plan} == {n for n in range(1, 11) if {2 * n - 1, 2 * n} - without}


def test_later_rounds_favour_the_top_tables():
    top_half_early = top_half_late = 0
    for seed in range(300):
        early = plan_checks(tables(20), checked_teams=(), count=2, round_number=1, swiss_rounds=6, seed=seed)
        late = plan_checks(tables(20), checked_teams=(), count=2, round_number=5, swiss_rounds=6, seed=seed)
        top_half_early += sum(p.table <= 10 for p in early)
        top_half_late += sum(p.table <= 10 for p in late)
    assert 240 < top_half_early < 360  # about half of 600
    assert top_half_late > 400  # weighted n - t + 1: about 3/4 land in the top half
    assert [weighted_from_round(n, 5) for n in range(1, 6)] == [False, False, True, True, True]


def brute_contenders(points, active, checked, cut, remaining):
    pool = [t for t in points if active[t]]
    line = sorted((points[t] for t in pool), reverse=True)[cut - 1] if len(pool) >= cut else None
    return {t for t in pool if t not in checked and (line is None or points[t] + 3 * remaining >= line)}


@given(
    st.lists(st.integers(min_value=0, max_value=18), min_size=1, max_size=24),
    st.data(),
)
def test_contenders_agree_with_a_brute_force_reading(points_list, data):
    teams = list(range(1, len(points_list) + 1))
    points = dict(zip(teams, points_list, strict=True))
    active = {t: data.draw(st.booleans()) or t % 3 != 0 for t in teams}
    checked = set(data.draw(st.lists(st.sampled_from(teams), max_size=len(teams))))
    cut = data.draw(st.sampled_from([4, 8]))
    remaining = data.draw(st.integers(min_value=0, max_value=4))
    standings = [
        StandingsEntry(t, points[t], active[t]) for t in sorted(teams, key=lambda t: (-points[t], t))
    ]
    result = cut_contenders(standings, cut=cut, remaining_rounds=remaining, checked_teams=checked)
    assert set(result.teams) == brute_contenders(points, active, checked, cut, remaining)
    order = [entry.team_id for entry in standings]
    assert list(result.teams) == sorted(result.teams, key=order.index)


def test_no_cut_means_no_contenders():
    standings = [StandingsEntry(t, 9 - t, True) for t in range(1, 5)]
    assert cut_contenders(standings, cut=0, remaining_rounds=2, checked_teams=()).teams == ()
    assert list(
        itertools.islice(cut_contenders(standings, cut=8, remaining_rounds=0, checked_teams=()).teams, 9)
    ) == [1, 2, 3, 4]
