from __future__ import annotations

import random

import pytest

from tournaments.domain.play_draw import play_draw_chooser

RANKS = {11: 1, 22: 4, 33: 2, 44: 3}


@pytest.mark.parametrize(("a", "b", "expected"), [(11, 22, 11), (22, 11, 11), (44, 33, 33), (33, 44, 33)])
def test_higher_seed_the_better_swiss_rank_chooses(a, b, expected) -> None:
    assert play_draw_chooser(team_a=a, team_b=b, swiss_rank=RANKS, policy="higher_seed", seed=7) == expected


def test_higher_seed_ignores_the_seed() -> None:
    choices = {
        play_draw_chooser(team_a=22, team_b=44, swiss_rank=RANKS, policy="higher_seed", seed=s)
        for s in range(50)
    }
    assert choices == {44}


def test_random_is_drawn_from_the_round_seed_and_the_sorted_team_ids() -> None:
    for seed in range(30):
        expected = random.Random(f"{seed}:11:22").choice((11, 22))
        assert play_draw_chooser(team_a=22, team_b=11, swiss_rank={}, policy="random", seed=seed) == expected


def test_random_is_deterministic_and_symmetric_in_argument_order() -> None:
    for seed in range(100):
        first = play_draw_chooser(team_a=5, team_b=9, swiss_rank=RANKS, policy="random", seed=seed)
        assert first in (5, 9)
        assert play_draw_chooser(team_a=5, team_b=9, swiss_rank=RANKS, policy="random", seed=seed) == first
        assert play_draw_chooser(team_a=9, team_b=5, swiss_rank=RANKS, policy="random", seed=seed) == first


def test_random_does_not_follow_the_ranks_and_picks_both_sides_over_seeds() -> None:
    choices = [
        play_draw_chooser(team_a=11, team_b=22, swiss_rank=RANKS, policy="random", seed=s) for s in range(100)
    ]
    assert set(choices) == {11, 22}
    assert 25 < choices.count(11) < 75


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"team_a": 1, "team_b": 2, "swiss_rank": {1: 1}, "policy": "higher_seed"},
            "no final Swiss rank for team 2",
        ),
        ({"team_a": 1, "team_b": 2, "swiss_rank": {1: 3, 2: 3}, "policy": "higher_seed"}, "share Swiss rank"),
        ({"team_a": 1, "team_b": 2, "swiss_rank": {}, "policy": "coin"}, "unknown play/draw policy"),
        ({"team_a": 3, "team_b": 3, "swiss_rank": {3: 1}, "policy": "random"}, "two different teams"),
    ],
)
def test_refuses_what_it_cannot_decide(kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        play_draw_chooser(seed=1, **kwargs)
