"""Booster Draft pods: seating, pairing within pods (odd pods give their own bye), the draft playoff."""

from __future__ import annotations

import pytest

from tournaments.domain import EventState, MatchResult, next_playoff_round
from tournaments.domain.errors import PlayoffError
from tournaments.domain.pods import (
    draft_playoff_first_round,
    draft_playoff_seats,
    pair_round_in_pods,
    pod_sizes,
    seat_pods,
)


@pytest.mark.parametrize(
    ("teams", "team_size", "sizes"),
    [(12, 2, [4, 4, 4]), (10, 2, [4, 3, 3]), (9, 2, [3, 3, 3]), (16, 1, [8, 8]), (13, 2, [4, 3, 3, 3])],
)
def test_pods_seat_at_most_eight_players_as_evenly_as_possible(teams, team_size, sizes):
    assert pod_sizes(teams, team_size=team_size) == sizes


def test_seating_is_random_from_the_seed_and_covers_every_team_once():
    teams = list(range(1, 13))

    first = seat_pods(teams, seed=7, draft=1, team_size=2)
    again = seat_pods(list(reversed(teams)), seed=7, draft=1, team_size=2)
    second_draft = seat_pods(teams, seed=7, draft=2, team_size=2)

    assert first == again
    assert sorted(t for pod in first for t in pod.team_ids) == teams
    assert [pod.number for pod in first] == [1, 2, 3]
    assert first != second_draft


def _pod_of(pods):
    return {t: pod.number for pod in pods for t in pod.team_ids}


@pytest.mark.parametrize("seed", range(20))
def test_a_twelve_team_event_pairs_round_one_inside_its_pods(seed):
    teams = tuple(range(1, 13))
    pods = seat_pods(teams, seed=seed, draft=1, team_size=2)

    paired = pair_round_in_pods(EventState(teams), pods, round_number=1, seed=seed)

    pod_of = _pod_of(pods)
    matches = paired.pairing.matches
    assert len(matches) == 6
    assert all(pod_of[a] == pod_of[b] for a, b in matches)
    assert sorted(t for m in matches for t in m) == list(teams)
    assert [t.table for t in paired.pairing.tables] == [1, 2, 3, 4, 5, 6]
    assert paired.pod_of_team == pod_of


def test_each_odd_pod_gives_its_own_bye_and_later_rounds_stay_in_pods():
    teams = tuple(range(1, 10))
    pods = seat_pods(teams, seed=3, draft=1, team_size=2)
    pod_of = _pod_of(pods)
    state = EventState(teams)
    for number in (1, 2, 3):
        paired = pair_round_in_pods(state, pods, round_number=number, seed=100 + number).pairing
        byes = [t.team_a for t in paired.tables if t.team_b is None]
        assert sorted(pod_of[t] for t in byes) == [1, 2, 3]
        assert all(pod_of[a] == pod_of[b] for a, b in paired.matches)
        assert paired.rematches == ()
        state = state.with_results(
            [MatchResult.played(number, a, b, 1, 0) for a, b in paired.matches]
            + [MatchResult.bye(number, t) for t in byes]
        )


def test_second_draft_pods_pair_the_rounds_after_it():
    teams = tuple(range(1, 13))
    first = seat_pods(teams, seed=5, draft=1, team_size=2)
    state = EventState(teams)
    for number in (1, 2, 3):
        paired = pair_round_in_pods(state, first, round_number=number, seed=number).pairing
        state = state.with_results([MatchResult.played(number, a, b, 1, 0) for a, b in paired.matches])
    second = seat_pods(teams, seed=5, draft=2, team_size=2)

    paired = pair_round_in_pods(state, second, round_number=4, seed=4).pairing

    assert all(_pod_of(second)[a] == _pod_of(second)[b] for a, b in paired.matches)


def test_draft_playoff_plays_seat_1_v_5_and_semifinals_join_1_5_with_3_7():
    seated = draft_playoff_seats([11, 12, 13, 14, 15, 16, 17, 18], seed=9)
    assert sorted(seated) == [11, 12, 13, 14, 15, 16, 17, 18]

    quarterfinals = draft_playoff_first_round(seated)

    assert [(m.seed_a, m.seed_b) for m in quarterfinals] == [(1, 5), (3, 7), (2, 6), (4, 8)]
    assert (quarterfinals[0].team_a, quarterfinals[0].team_b) == (seated[0], seated[4])
    winners = [seated[4], seated[2], seated[1], seated[7]]
    semifinals = next_playoff_round(quarterfinals, winners)
    assert [(m.team_a, m.team_b) for m in semifinals] == [(seated[4], seated[2]), (seated[1], seated[7])]


def test_draft_playoff_needs_eight_teams():
    with pytest.raises(PlayoffError):
        draft_playoff_seats([1, 2, 3, 4], seed=1)
