"""The round phase is a pure function of the round's timestamps."""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from tournaments.domain.round_phase import RoundPhase, is_public, round_phase

T = dt.datetime(2026, 7, 4, 10, 0, tzinfo=dt.UTC)
moments = st.one_of(st.none(), st.just(T))


def test_each_fact_moves_the_round_one_phase_on():
    steps = [
        {"published_at": None, "started_at": None, "time_up_at": None, "finished_at": None},
        {"published_at": T, "started_at": None, "time_up_at": None, "finished_at": None},
        {"published_at": T, "started_at": T, "time_up_at": None, "finished_at": None},
        {"published_at": T, "started_at": T, "time_up_at": T, "finished_at": None},
        {"published_at": T, "started_at": T, "time_up_at": T, "finished_at": T},
    ]

    assert [round_phase(**facts) for facts in steps] == list(RoundPhase)


def test_results_in_before_the_clock_started_finish_a_published_round():
    assert round_phase(published_at=T, started_at=None, time_up_at=None, finished_at=T) == RoundPhase.FINISHED


@given(started=moments, time_up=moments, finished=moments)
def test_an_unpublished_round_is_paired_and_private_whatever_else_happened(started, time_up, finished):
    phase = round_phase(published_at=None, started_at=started, time_up_at=time_up, finished_at=finished)

    assert (phase, is_public(phase)) == (RoundPhase.PAIRED, False)


@given(started=moments, time_up=moments, finished=moments)
def test_a_published_round_is_public_in_every_phase(started, time_up, finished):
    assert is_public(
        round_phase(published_at=T, started_at=started, time_up_at=time_up, finished_at=finished)
    )
