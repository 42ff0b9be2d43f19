"""The deck-check planner: which tables to check this round, and who could still make the cut.

Judges check at least 10% of decks at Competitive REL (MTR 2.8) and want every team that can
still reach the top cut checked before it. The planner proposes tables among teams not checked
yet, at random early on and weighted toward the top tables from the middle rounds on (where the
teams that will play the cut sit); the contenders list is the judges' spreadsheet: every active
team whose points plus a win in each remaining Swiss round reach the team at the cut line.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from common.translatable import N_

WIN_POINTS = 3


class PlanError(Exception):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class PlanTable:
    """A seated match of the round: its table and its two teams."""

    match_id: int
    table: int
    team_a: int
    team_b: int


@dataclass(frozen=True)
class ProposedCheck:
    match_id: int
    table: int
    team_id: int


def weighted_from_round(round_number: int, swiss_rounds: int) -> bool:
    """Top tables weigh more once the first half of the Swiss rounds is over (round 3 of 5,
    round 4 of 6): by then the tables sort the teams that will play the cut."""
    return 2 * round_number > swiss_rounds


def plan_checks(
    tables: Sequence[PlanTable],
    *,
    checked_teams: Iterable[int],
    without_lists: Iterable[int] = (),
    count: int,
    round_number: int,
    swiss_rounds: int,
    seed: int,
) -> list[ProposedCheck]:
    """Propose up to ``count`` tables to check, each with one unchecked team to check there.

    Only tables with at least one unchecked team that has registered its lists are candidates
    (a team ``without_lists`` has nothing to check against); a table is proposed once (its
    check covers every deck at the table, so both teams count as checked afterwards). Early
    rounds draw uniformly; from the middle round on, table ``t`` of ``n`` weighs ``n - t + 1``,
    so table 1 is ``n`` times as likely as the last. The draw is weighted sampling without
    replacement (Efraimidis-Spirakis keys) from ``seed``: the same round and count give the same
    proposal on every phone and reload. Proposals come back by table number.
    """
    if count < 1:
        raise PlanError("count", N_("ask for at least one table"))
    checked = set(checked_teams) | set(without_lists)
    rng = random.Random(seed)
    ordered = sorted(tables, key=lambda t: t.table)
    weighted = weighted_from_round(round_number, swiss_rounds)
    highest = max((t.table for t in ordered), default=0)
    keyed: list[tuple[float, ProposedCheck]] = []
    for table in ordered:
        unchecked = [team for team in (table.team_a, table.team_b) if team not in checked]
        # Draw both numbers for every table, so one table's checked state never shifts the others' keys.
        pick, draw = rng.random(), rng.random()
        if not unchecked:
            continue
        team = unchecked[0] if len(unchecked) == 1 else unchecked[int(pick * 2)]
        weight = (highest - table.table + 1) if weighted else 1
        keyed.append((draw ** (1 / weight), ProposedCheck(table.match_id, table.table, team)))
    keyed.sort(key=lambda item: (-item[0], item[1].table))
    return sorted((proposal for _, proposal in keyed[:count]), key=lambda p: p.table)


@dataclass(frozen=True)
class StandingsEntry:
    """A team in standings order (best first), with its points and whether it still plays."""

    team_id: int
    match_points: int
    active: bool


@dataclass(frozen=True)
class Contenders:
    cut: int
    cut_line_points: int | None
    remaining_rounds: int
    teams: tuple[int, ...]


def cut_contenders(
    standings: Sequence[StandingsEntry],
    *,
    cut: int,
    remaining_rounds: int,
    checked_teams: Iterable[int],
) -> Contenders:
    """The active teams that can still reach the cut and whose decks were not checked, best first.

    The cut line is the points of the ``cut``-th active team in standings order (dropped and
    disqualified teams take no playoff place). A team can still make it when its points plus
    3 for each remaining Swiss round reach that line. With fewer active teams than the cut,
    every active team makes it. No cut (0): nobody to check before it.
    """
    if remaining_rounds < 0:
        raise PlanError("remaining_rounds", N_("cannot be negative"))
    if cut <= 0:
        return Contenders(cut=0, cut_line_points=None, remaining_rounds=remaining_rounds, teams=())
    checked = set(checked_teams)
    active = [entry for entry in standings if entry.active]
    line = active[cut - 1].match_points if len(active) >= cut else None
    reach = WIN_POINTS * remaining_rounds
    teams = tuple(
        entry.team_id
        for entry in active
        if entry.team_id not in checked and (line is None or entry.match_points + reach >= line)
    )
    return Contenders(cut=cut, cut_line_points=line, remaining_rounds=remaining_rounds, teams=teams)
