"""Random Swiss events for the property tests: the engine pairs every round, results are random.

Includes draws, drops (taking effect the next round) and late entries (their missed rounds recorded
as missed-round losses, as the adapter does by default).
"""

from __future__ import annotations

import random
from dataclasses import replace

from tournaments.domain import EventState, MatchResult, RoundPairing, pair_round, tally


def random_result(rng: random.Random, round_number: int, a: int, b: int, draw_rate: float) -> MatchResult:
    roll = rng.random()
    if roll < draw_rate:
        return MatchResult.played(round_number, a, b, 0, 0, 1)
    return (
        MatchResult.played(round_number, a, b, 1, 0)
        if roll < (1 + draw_rate) / 2
        else MatchResult.played(round_number, a, b, 0, 1)
    )


def simulate(
    teams: int,
    rounds: int,
    seed: int,
    *,
    draw_rate: float = 0.1,
    drop_rate: float = 0.0,
    late: int = 0,
    keep_apart: int = 0,
) -> EventState:
    """An event of ``teams`` teams (``late`` of them joining after round 1) after ``rounds`` rounds."""
    rng = random.Random(seed)
    joins = {t: rng.randint(2, rounds + 1) for t in range(teams - late + 1, teams + 1)} if rounds else {}
    apart = [tuple(rng.sample(range(1, teams + 1), 2)) for _ in range(keep_apart)]
    state = EventState(tuple(t for t in range(1, teams + 1) if t not in joins))
    for round_number in range(1, rounds + 2):
        state = _register_late_entries(state, joins, round_number, apart)
        if round_number > rounds:
            return state
        pairing = pair_round(state, round_number=round_number, seed=seed * 1000 + round_number)
        results = [
            MatchResult.bye(round_number, t.team_a)
            if t.team_b is None
            else random_result(rng, round_number, t.team_a, t.team_b, draw_rate)
            for t in pairing.tables
        ]
        drops = dict(state.drops)
        for team in state.active_teams(round_number + 1):
            if len(state.active_teams(round_number + 1)) - len(drops) > 4 and rng.random() < drop_rate:
                drops[team] = round_number + 1
        state = replace(state, results=state.results + tuple(results), drops=drops)
    return state


def _register_late_entries(
    state: EventState, joins: dict[int, int], round_number: int, apart: list
) -> EventState:
    """Late entries registering before ``round_number``: their missed rounds become missed-round losses."""
    new = [t for t, joined in joins.items() if joined == round_number]
    missed = tuple(MatchResult.missed_round(r, t) for t in new for r in range(1, round_number))
    known = set(state.team_ids) | set(new)
    return replace(
        state,
        team_ids=state.team_ids + tuple(new),
        results=state.results + missed,
        keep_apart=tuple(p for p in apart if set(p) <= known),
    )


def perfect_matchings(items: list):
    """Every way to split ``items`` (even length) into pairs."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for i, partner in enumerate(rest):
        for tail in perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, partner), *tail]


def pairing_cost(state: EventState, round_number: int, pairs, bye_team) -> tuple[int, int, int, int, int]:
    """The pairing objective, highest priority first, written out independently of the engine.

    (byes the bye team already had, rematches + keep-apart pairs, bye points above the lowest,
    sum over matches of the squared number of score groups spanned, sum of point gaps). The score
    groups are the distinct point totals of the teams in ``pairs`` (the bye team plays no match).
    """
    records = tally(state)
    active = state.active_teams(round_number)
    points = {t: records[t].match_points for t in active}
    apart = set(state.keep_apart)
    conflicts = sum(1 for a, b in pairs if b in records[a].opponents or (min(a, b), max(a, b)) in apart)
    level = {p: i for i, p in enumerate(sorted({points[t] for pair in pairs for t in pair}))}
    spans = sum((level[points[a]] - level[points[b]]) ** 2 for a, b in pairs)
    gaps = sum(abs(points[a] - points[b]) for a, b in pairs)
    if bye_team is None:
        return (0, conflicts, 0, spans, gaps)
    return (records[bye_team].byes, conflicts, points[bye_team] - min(points.values()), spans, gaps)


def brute_force_best(state: EventState, round_number: int) -> tuple[int, int, int, int, int]:
    """The lexicographic minimum of ``pairing_cost`` over every bye choice and every pairing."""
    active = state.active_teams(round_number)
    byes = [None] if len(active) % 2 == 0 else active
    return min(
        pairing_cost(state, round_number, pairs, bye_team)
        for bye_team in byes
        for pairs in perfect_matchings([t for t in active if t != bye_team])
    )


def teams_in(pairing: RoundPairing) -> list[int]:
    return [t for table in pairing.tables for t in (table.team_a, table.team_b) if t is not None]


def conflicts_of(state: EventState, pairing: RoundPairing) -> set[tuple[int, int]]:
    records = tally(state)
    apart = set(state.keep_apart)
    return {
        (min(a, b), max(a, b))
        for a, b in pairing.matches
        if b in records[a].opponents or (min(a, b), max(a, b)) in apart
    }
