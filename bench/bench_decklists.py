"""Benchmark: validate 1,000 two-player 2HG teams built from the 200 real MTGO lists.

Run from the repository root: ``.venv/bin/python bench/bench_decklists.py``. Prints a
markdown table. Target: the 1,000 teams (parse + resolve + per-deck + UDC) in under 2 s;
loading the 34k-card snapshot is reported separately because it happens once per process.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from decklists.domain import (  # noqa: E402
    Deck,
    UdcMode,
    check_constructed_team,
    load_card_index,
    load_snapshot,
    read_deck,
)

FIXTURES = ROOT / "tests" / "fixtures" / "decklists"
TEAMS = 1_000
SEED = 2026
TYPOS = [
    "Lightnig Bolt",
    "Tarmagoyf",
    "Counterspel",
    "Ragavan Nimble Pilferer",
    "Urzas Saga",
    "Snapcaster Mag",
]


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def _teams(records: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Pairs of distinct decks of the same format, drawn with a fixed seed."""
    rng = random.Random(SEED)
    by_format: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        by_format.setdefault(record["format"], []).append(record)
    formats = sorted(by_format)
    teams = []
    while len(teams) < TEAMS:
        a, b = rng.sample(by_format[rng.choice(formats)], 2)
        teams.append((a, b))
    return teams


def _text(record: dict[str, Any]) -> str:
    """A 2HG registration: the main deck only, one line per MTGO entry."""
    return "\n".join(f"{count} {name}" for count, name in record["main"]) + "\n"


def main() -> None:
    records = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(FIXTURES.glob("*.json"))]
    teams = _teams(records)

    cold_load, index = _timed(load_snapshot)
    cached_load, _ = _timed(load_card_index)
    cached_again, _ = _timed(load_card_index)

    def read_all() -> list[tuple[Deck, Deck]]:
        pairs = []
        for a, b in teams:
            deck_a = read_deck(_text(a), index, player=a["player"], format_id=a["format"]).deck
            deck_b = read_deck(_text(b), index, player=b["player"], format_id=b["format"]).deck
            assert deck_a is not None and deck_b is not None
            pairs.append((deck_a, deck_b))
        return pairs

    read_time, pairs = _timed(read_all)

    def check_all(mode: UdcMode) -> int:
        return sum(len(check_constructed_team(pair, index, udc_mode=mode).errors) for pair in pairs)

    mtr_time, mtr_errors = _timed(lambda: check_all(UdcMode.MTR))
    legacy_time, legacy_errors = _timed(lambda: check_all(UdcMode.LEGACY4))

    index.suggest("warm up the trigram index")
    suggest_times = []
    for typo in TYPOS * 10:
        elapsed, _ = _timed(lambda t=typo: index.match(t))
        suggest_times.append(elapsed)

    total = read_time + mtr_time
    lines = sum(len(a["main"]) + len(b["main"]) for a, b in teams)
    rows = [
        ("Card index load, cold (34,622 cards, gzip JSON → index)", f"{cold_load * 1000:.0f} ms"),
        (
            "Card index load via in-process cache, first / second call",
            f"{cached_load * 1000:.0f} ms / {cached_again * 1e6:.1f} µs",
        ),
        (f"Parse + resolve {2 * TEAMS:,} MTGO lists ({lines:,} lines)", f"{read_time * 1000:.0f} ms"),
        (f"Check {TEAMS:,} teams, per-deck + UDC mtr ({mtr_errors:,} errors)", f"{mtr_time * 1000:.0f} ms"),
        (
            f"Check {TEAMS:,} teams, per-deck + UDC legacy4 ({legacy_errors:,} errors)",
            f"{legacy_time * 1000:.0f} ms",
        ),
        (
            f"**Total: {TEAMS:,} teams parsed, resolved and checked (mtr)** — target < 2 s",
            f"**{total * 1000:.0f} ms**",
        ),
        (
            "Unknown name → 3 suggestions (median / 95th pct. of 60 lookups)",
            f"{statistics.median(suggest_times) * 1000:.2f} ms / "
            f"{statistics.quantiles(suggest_times, n=20)[-1] * 1000:.2f} ms",
        ),
    ]
    print(f"Decklist validation benchmark (Python {sys.version.split()[0]}, seed {SEED})\n")
    print("| step | time |")
    print("|---|---:|")
    for step, value in rows:
        print(f"| {step} | {value} |")
    if total >= 2.0:
        print(f"\nOVER TARGET: {total:.2f} s for {TEAMS} teams")


if __name__ == "__main__":
    main()
