"""The clock core refuses with one error family, whichever part refuses (clock or end of round)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from clock.domain.end_of_round import EndOfRoundError
from clock.domain.errors import ClockUserError
from clock.domain.round_clock import ClockError, RoundClock

START = datetime(2026, 3, 7, 10, 0, tzinfo=UTC)


def test_both_parts_of_the_clock_refuse_with_one_error_family() -> None:
    assert issubclass(ClockError, ClockUserError)
    assert issubclass(EndOfRoundError, ClockUserError)
    assert not issubclass(ClockError, EndOfRoundError) and not issubclass(EndOfRoundError, ClockError)


def test_a_refused_clock_step_is_caught_as_a_clock_user_error_with_its_code() -> None:
    clock = RoundClock(length=timedelta(minutes=50)).start(START)
    with pytest.raises(ClockUserError) as error:
        clock.start(START + timedelta(minutes=1))
    assert (type(error.value), error.value.code) == (ClockError, "already_started")
