"""Benchmark of the Swiss engine: full simulated events, timing pairing and standings per round.

Run with ``make bench`` (or ``.venv/bin/python bench/bench_swiss.py``). For each size it plays
whole Swiss events (rounds from the MTR chart, random results with 5% draws, 1% of teams dropping
after each round so that odd rounds and byes occur), over a few seeds, and prints a markdown table:
median and worst time to pair a round and to compute the standings, and the totals of rematches,
second byes, off-group pairings, and the pairing objective: the sum over matches of the squared number
of score groups spanned, with its lower bound (the number of boundaries between groups with an odd
number of teams above them), which a round meets unless rematches force more.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.domain import (  # noqa: E402
    EventState,
    MatchResult,
    compute_standings,
    pair_round,
    recommended_rounds,
    tally,
)

DRAW_RATE = 0.05
DROP_RATE = 0.01


def _result(rng: random.Random, round_number: int, a: int, b: int) -> MatchResult:
    roll = rng.random()
    if roll < DRAW_RATE:
        return MatchResult.played(round_number, a, b, 0, 0, 1)
    return (
        MatchResult.played(round_number, a, b, 1, 0)
        if roll < (1 + DRAW_RATE) / 2
        else MatchResult.played(round_number, a, b, 0, 1)
    )


def run_event(teams: int, rounds: int, seed: int) -> dict[str, list[float] | int]:
    rng = random.Random(seed)
    state = EventState(tuple(range(1, teams + 1)))
    stats: dict[str, list[float] | int] = {"pair": [], "standings": [], "rematches": 0, "second_byes": 0}
    stats |= {"off_group": 0, "spans": 0, "spans_bound": 0}
    for round_number in range(1, rounds + 1):
        records = tally(state)
        active = state.active_teams(round_number)
        start = time.perf_counter()
        pairing = pair_round(state, round_number=round_number, seed=seed * 100 + round_number)
        stats["pair"].append(time.perf_counter() - start)
        stats["rematches"] += len(pairing.rematches)
        stats["second_byes"] += int(pairing.second_bye)
        stats["off_group"] += len(pairing.paired_down)
        groups = Counter(records[t].match_points for t in active if t != pairing.bye_team)
        level = {p: i for i, p in enumerate(sorted(groups))}
        points = {t: records[t].match_points for t in active}
        stats["spans"] += sum((level[points[a]] - level[points[b]]) ** 2 for a, b in pairing.matches)
        above = 0
        for group_points in sorted(groups, reverse=True)[:-1]:
            above += groups[group_points]
            stats["spans_bound"] += above % 2
        results = [
            MatchResult.bye(round_number, t.team_a)
            if t.team_b is None
            else _result(rng, round_number, t.team_a, t.team_b)
            for t in pairing.tables
        ]
        drops = dict(state.drops)
        for team in active:
            if rng.random() < DROP_RATE:
                drops[team] = round_number + 1
        state = replace(state, results=state.results + tuple(results), drops=drops)
        start = time.perf_counter()
        compute_standings(state, seed=seed * 100 + round_number)
        stats["standings"].append(time.perf_counter() - start)
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="events simulated per size")
    args = parser.parse_args()
    sizes = [(n, recommended_rounds(n).swiss_rounds) for n in (16, 128, 512, 2048)] + [(2048, 11)]
    print(
        "| Teams | Rounds | Pair median | Pair worst | Standings median | Standings worst | Rematches | Second byes | Off-group pairings | Squared spans (lower bound) |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for teams, rounds in sizes:
        merged: dict[str, list[float] | int] = {}
        for seed in range(1, args.seeds + 1):
            for key, value in run_event(teams, rounds, seed).items():
                merged[key] = merged.get(key, [] if isinstance(value, list) else 0) + value
        pair, standings = merged["pair"], merged["standings"]
        print(
            f"| {teams:,} | {rounds} | {statistics.median(pair) * 1000:.1f} ms | {max(pair) * 1000:.1f} ms "
            f"| {statistics.median(standings) * 1000:.1f} ms | {max(standings) * 1000:.1f} ms "
            f"| {merged['rematches']} | {merged['second_byes']} | {merged['off_group']} | {merged['spans']} ({merged['spans_bound']}) |"
        )
    print(f"\n{args.seeds} events per size; times per round; Python {sys.version.split()[0]}.")


if __name__ == "__main__":
    main()
