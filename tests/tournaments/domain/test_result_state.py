"""The result state machine: each transition, and properties over any sequence of entries."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.domain.choices import TeamSide
from tournaments.domain.result_state import (
    Entry,
    EntrySource,
    ResultRefused,
    ResultState,
    apply,
    derive,
)
from tournaments.domain.results import ResultKind

A, B = TeamSide.A, TeamSide.B
WIN_A, WIN_B, TIME_DRAW, INTENTIONAL_DRAW = (1, 0, 0), (0, 1, 0), (0, 0, 1), (0, 0, 3)


def player(side: TeamSide, counts: tuple[int, int, int], source=EntrySource.PLAYER) -> Entry:
    return Entry(source, side, *counts)


def staff(counts: tuple[int, int, int], reason: str = "") -> Entry:
    return Entry(EntrySource.STAFF, None, *counts, reason=reason)


def penalty(loser: TeamSide | None) -> Entry:
    return Entry(EntrySource.PENALTY, loser, reason="TE-DLP upgraded")


CLEAR = Entry(EntrySource.PENALTY_CLEARED, reason="appeal upheld")


def run(*entries: Entry) -> ResultState:
    return derive(entries)


def test_a_players_report_waits_for_the_other_team():
    state = run(player(A, WIN_A))
    assert (state.result.kind, state.result.confirmed, state.result.side) == (ResultKind.PLAYED, False, A)


def test_the_same_report_from_a_player_of_the_other_team_confirms_it():
    for first in (EntrySource.PLAYER, EntrySource.SLIP):
        state = run(player(A, WIN_A, first), player(B, WIN_A))
        assert (state.result.counts, state.result.confirmed, state.result.disputed) == (WIN_A, True, False)


def test_a_slip_report_never_confirms():
    for first in (EntrySource.PLAYER, EntrySource.SLIP):
        with pytest.raises(ResultRefused):
            apply(run(player(A, WIN_A, first)), player(B, WIN_A, EntrySource.SLIP))


def test_a_slip_stands_for_one_team_only_and_may_correct_its_own_report():
    with pytest.raises(ResultRefused, match="already reported for the other team"):
        apply(run(player(A, WIN_A, EntrySource.SLIP)), player(B, WIN_B, EntrySource.SLIP))
    corrected = run(player(A, WIN_A, EntrySource.SLIP), player(A, TIME_DRAW, EntrySource.SLIP))
    assert (corrected.result.counts, corrected.result.side, corrected.result.confirmed) == (
        TIME_DRAW,
        A,
        False,
    )


def test_a_slip_disputes_a_players_report_but_cannot_replace_it():
    disputed = apply(run(player(A, WIN_A)), player(B, WIN_B, EntrySource.SLIP))
    assert (disputed.audit, disputed.state.result.disputed) == ("match_result_disputed", True)
    with pytest.raises(ResultRefused, match="already reported on their phone"):
        apply(run(player(A, WIN_A)), player(A, WIN_B, EntrySource.SLIP))


SLIP_ENTRIES = st.builds(
    player,
    st.sampled_from([TeamSide.A, TeamSide.B]),
    st.sampled_from([(1, 0, 0), (0, 1, 0), (0, 0, 1)]),
    st.just(EntrySource.SLIP),
)


@given(st.lists(SLIP_ENTRIES, max_size=10))
def test_any_number_of_slip_reports_alone_never_make_a_result_final(entries):
    state = ResultState()
    for entry in entries:
        try:
            state = apply(state, entry).state
        except ResultRefused:
            continue
        assert not state.result.confirmed and not state.result.disputed


def test_a_team_may_change_its_own_unconfirmed_report():
    state = run(player(A, WIN_A), player(A, TIME_DRAW))
    assert (state.result.counts, state.result.confirmed) == (TIME_DRAW, False)


def test_a_different_report_from_the_other_team_is_a_dispute_for_staff():
    transition = apply(run(player(A, WIN_A)), player(B, WIN_B))
    assert transition.audit == "match_result_disputed"
    assert (transition.state.result.disputed, transition.state.result.confirmed) == (True, False)
    decided = apply(transition.state, staff(WIN_B))
    assert decided.audit == "match_result_decide"
    assert (decided.state.result.counts, decided.state.result.confirmed, decided.state.result.disputed) == (
        WIN_B,
        True,
        False,
    )


def test_players_cannot_change_a_confirmed_result():
    with pytest.raises(ResultRefused, match="already confirmed"):
        apply(run(staff(WIN_A)), player(B, WIN_B))


def test_a_staff_correction_needs_a_reason_and_is_audited():
    with pytest.raises(ResultRefused) as refused:
        apply(run(staff(WIN_A)), staff(INTENTIONAL_DRAW))
    assert refused.value.field == "reason"
    corrected = apply(run(staff(WIN_A)), staff(INTENTIONAL_DRAW, reason="slip misread"))
    assert (corrected.audit, corrected.state.result.counts) == ("match_result_correct", INTENTIONAL_DRAW)
    assert apply(run(staff(WIN_A)), staff(WIN_A)).audit == ""


def test_a_penalty_decides_the_match_and_blocks_reports_until_cleared():
    state = run(player(A, WIN_A), penalty(A))
    assert (state.result.kind, state.result.counts, state.result.confirmed) == (
        ResultKind.MATCH_LOSS,
        (0, 1, 0),
        True,
    )
    for entry in (player(B, WIN_A), staff(WIN_B)):
        with pytest.raises(ResultRefused, match="penalty"):
            apply(state, entry)
    assert run(player(A, WIN_A), penalty(A), CLEAR) == run(player(A, WIN_A))


def test_a_double_loss_and_a_match_loss_in_best_of_three():
    assert run(penalty(None)).result.kind == ResultKind.DOUBLE_LOSS
    best_of_three = derive([penalty(B)], games_per_match=3)
    assert best_of_three.result.counts == (2, 0, 0)


def test_clearing_without_a_penalty_is_refused():
    with pytest.raises(ResultRefused, match="not set by a penalty"):
        apply(run(staff(WIN_A)), CLEAR)


COUNTS = st.sampled_from([WIN_A, WIN_B, TIME_DRAW, INTENTIONAL_DRAW, (1, 0, 1)])
SIDES = st.sampled_from([A, B])
ENTRIES = st.one_of(
    st.builds(player, SIDES, COUNTS, st.sampled_from([EntrySource.PLAYER, EntrySource.SLIP])),
    st.builds(staff, COUNTS, st.sampled_from(["", "slip misread"])),
    st.builds(penalty, st.sampled_from([A, B, None])),
    st.just(CLEAR),
)


def accepted(entries: list[Entry]) -> tuple[ResultState, list[Entry]]:
    """Apply each entry as the service would: a refused one is not stored."""
    state, kept = ResultState(), []
    for entry in entries:
        try:
            state = apply(state, entry).state
        except ResultRefused:
            continue
        kept.append(entry)
    return state, kept


@given(st.lists(ENTRIES, max_size=12))
def test_any_sequence_ends_in_the_state_its_stored_entries_give(entries):
    state, kept = accepted(entries)
    assert derive(kept) == state
    result = state.result
    assert not (result.confirmed and result.disputed)
    assert not result.disputed or result.side is not None
    assert (result.kind in (ResultKind.MATCH_LOSS, ResultKind.DOUBLE_LOSS)) == state.by_penalty
    reports_kept = any(entry.source not in PENALTY_SOURCES for entry in kept)
    assert (result.kind is ResultKind.PENDING) == (not state.by_penalty and not reports_kept)


PENALTY_SOURCES = (EntrySource.PENALTY, EntrySource.PENALTY_CLEARED)


@given(
    st.lists(ENTRIES, max_size=8), st.lists(ENTRIES, min_size=1, max_size=6), st.sampled_from([A, B, None])
)
def test_a_clear_after_any_penalties_gives_what_recomputing_without_them_gives(before, during, loser):
    """Penalties (and whatever is tried while one stands) then a clear: the state is exactly what the
    entries stored without any penalty entry give."""
    state, kept = accepted([*before, penalty(loser), *during])
    if state.by_penalty:
        state, kept = accepted([*kept, CLEAR])
    assert derive(kept) == state
    assert state == derive([entry for entry in kept if entry.source not in PENALTY_SOURCES])
