from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from tournaments.domain.seating import seat_order


@dataclass(frozen=True)
class Member:
    pk: int
    position: int


def order(members, recorded):
    return [
        m.pk for m in seat_order(members, recorded, member_id=lambda m: m.pk, position=lambda m: m.position)
    ]


def test_recorded_seats_win_over_registration_order():
    team = [Member(10, 0), Member(11, 1)]
    assert order(team, [11, 10]) == [11, 10]


def test_without_recorded_seats_registration_order_stands():
    team = [Member(11, 1), Member(10, 0)]
    assert order(team, None) == [10, 11]
    assert order(team, []) == [10, 11]


def test_members_missing_from_the_record_follow_in_registration_order():
    team = [Member(1, 0), Member(2, 1), Member(3, 2), Member(4, 3)]
    assert order(team, [3]) == [3, 1, 2, 4]


@given(st.permutations(list(range(4))), st.booleans())
def test_every_member_is_seated_exactly_once(recorded, use_record):
    team = [Member(pk, pk) for pk in range(4)]
    seated = order(team, recorded if use_record else None)
    assert sorted(seated) == [0, 1, 2, 3]
    assert seated == (list(recorded) if use_record else [0, 1, 2, 3])
