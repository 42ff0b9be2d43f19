"""Properties of the Swiss pairing over random events: its cost is the exact minimum at every size.

Small events are checked against a brute-force search over every pairing; events of 4 to 300 teams,
late rounds included (rematches and keep-apart pairs bind), against an exact minimum-cost perfect
matching computed by networkx on the complete graph, a matcher the engine does not use.
"""

from __future__ import annotations

from collections import Counter

import networkx as nx
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.tournaments.domain.events import (
    brute_force_best,
    conflicts_of,
    pairing_cost,
    simulate,
    teams_in,
)
from tournaments.domain import pair_round, tally
from tournaments.domain.optimal_pairing import pair_by_segments
from tournaments.domain.pairing import _avoid_sets

SMALL = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
EXACT = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _events(teams: st.SearchStrategy[int], rounds: st.SearchStrategy[int]) -> st.SearchStrategy:
    return st.builds(
        lambda teams, rounds, seed, drop_rate, late, keep_apart: (
            simulate(
                teams, rounds, seed, drop_rate=drop_rate, late=min(late, teams - 4), keep_apart=keep_apart
            ),
            rounds + 1,
            seed,
        ),
        teams=teams,
        rounds=rounds,
        seed=st.integers(0, 10**6),
        drop_rate=st.sampled_from([0.0, 0.03, 0.1]),
        late=st.integers(0, 3),
        keep_apart=st.integers(0, 3),
    )


small_events = _events(st.integers(4, 12), st.integers(0, 7))
#: Up to 300 teams, up to round 12: late rounds, where the top groups have met and rematches bind.
any_events = _events(st.integers(4, 300), st.one_of(st.integers(0, 11), st.integers(6, 11)))


def _exact_minimum(state, round_number) -> tuple[int, int, int, int, int]:
    """``pairing_cost``'s lexicographic minimum by networkx's exact minimum-weight matching.

    Weights: each priority's unit outweighs everything the lower ones can add up to. With an odd
    number of teams the bye is a vertex; its choice (byes, then points) ranks above the spans, so
    when the chosen team is alone in its score group (which then is not among the teams paired),
    the others are matched again without it.
    """
    records = tally(state)
    active = state.active_teams(round_number)
    points = {t: records[t].match_points for t in active}
    apart = set(state.keep_apart)
    low = min(points.values())

    def solve(teams):
        level = {p: i for i, p in enumerate(sorted({points[t] for t in teams}))}
        unit = len(teams) * (max(points.values()) - low + 1) + 1
        w_span = unit
        w_bye_points = w_span * unit * (len(level) + 1) ** 2
        w_conflict = w_bye_points * unit
        w_byes = w_conflict * unit
        graph = nx.Graph()
        vertices = list(teams) + ([None] if len(teams) % 2 else [])
        for i, a in enumerate(vertices):
            for b in vertices[i + 1 :]:
                if a is None or b is None:
                    team = a if b is None else b
                    weight = w_byes * records[team].byes + w_bye_points * (points[team] - low)
                else:
                    conflict = b in records[a].opponents or (min(a, b), max(a, b)) in apart
                    span = level[points[a]] - level[points[b]]
                    weight = w_conflict * conflict + w_span * span * span + abs(points[a] - points[b])
                graph.add_edge(("v", a), ("v", b), weight=weight)
        matching = nx.min_weight_matching(graph)
        assert len(matching) == len(vertices) // 2
        pairs = [(a, b) for (_, a), (_, b) in matching if a is not None and b is not None]
        bye = next((a if b is None else b for (_, a), (_, b) in matching if None in (a, b)), None)
        return pairs, bye

    pairs, bye = solve(active)
    if bye is not None and sum(points[t] == points[bye] for t in active) == 1:
        pairs, _ = solve([t for t in active if t != bye])
    return pairing_cost(state, round_number, pairs, bye)


def _check_complete_and_byes(state, round_number, pairing) -> None:
    active = state.active_teams(round_number)
    assert Counter(teams_in(pairing)) == Counter(active), "each active team plays exactly once or has the bye"
    assert (pairing.bye_team is not None) == (len(active) % 2 == 1)
    if pairing.bye_team is not None:
        records = tally(state)
        assert pairing.second_bye == (records[pairing.bye_team].byes > 0)
    tables = [t.table for t in pairing.tables if t.team_b is not None]
    assert sorted(tables) == list(range(1, len(tables) + 1))
    inactive = set(state.team_ids) - set(active)
    assert not inactive & set(teams_in(pairing)), "dropped teams are never paired"


@given(small_events)
@SMALL
def test_small_events_meet_every_priority_of_the_brute_force_optimum(event) -> None:
    state, round_number, seed = event
    pairing = pair_round(state, round_number=round_number, seed=seed)
    _check_complete_and_byes(state, round_number, pairing)
    got = pairing_cost(state, round_number, pairing.matches, pairing.bye_team)
    assert got == brute_force_best(state, round_number)
    points = {t: r.match_points for t, r in tally(state).items()}
    assert sum(abs(points[a] - points[b]) for a, b in pairing.matches) == got[4]
    assert sum(d.higher_points - d.lower_points for d in pairing.paired_down) == got[4]
    assert set(map(frozenset, pairing.rematches + pairing.unmet_keep_apart)) == set(
        map(frozenset, conflicts_of(state, pairing))
    )


@given(any_events)
@EXACT
def test_cost_equals_the_exact_minimum_cost_perfect_matching_from_4_to_300_teams(event) -> None:
    state, round_number, seed = event
    pairing = pair_round(state, round_number=round_number, seed=seed)
    _check_complete_and_byes(state, round_number, pairing)
    got = pairing_cost(state, round_number, pairing.matches, pairing.bye_team)
    assert got == _exact_minimum(state, round_number)
    assert pairing == pair_round(state, round_number=round_number, seed=seed)


@given(_events(st.integers(40, 300), st.integers(0, 8)))
@EXACT
def test_the_segment_path_alone_is_exact_wherever_it_applies(event) -> None:
    """The path for rounds the chain cannot prove, forced on every round it can cut at a large group."""
    state, round_number, seed = event
    records = tally(state)
    active = state.active_teams(round_number)
    points = {t: records[t].match_points for t in active}
    avoid = _avoid_sets(state, records, active)
    bye = min(active, key=lambda t: (records[t].byes, points[t], t)) if len(active) % 2 else None
    teams = [t for t in active if t != bye]
    pairs = pair_by_segments(teams, points, avoid)
    assume(pairs is not None)
    assert sorted(t for pair in pairs for t in pair) == sorted(teams)
    got = pairing_cost(state, round_number, pairs, bye)
    assume(got[1] == 0)
    assert got == _exact_minimum(state, round_number)
