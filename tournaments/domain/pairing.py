"""Swiss pairing: one round's matches, table numbers and a written explanation.

Priorities, highest first (they are what the explanation reports when one cannot be met):

1. Dropped and disqualified teams are never paired; every other team plays once or has the bye.
2. No second bye while a team without one can take it.
3. No rematch and no "keep apart" pair (family, travel mates) while any pairing avoids them; when
   none does, the fewest such pairs.
4. The bye goes to a team with the lowest points among those without a bye, at random among equals.
5. Teams play inside their match-point group; the fewest teams are paired out of their group, and
   then by the smallest point gap. An odd group's extra team meets the extra team of the nearest
   odd group below it, so a single pair crosses the even groups in between instead of a chain of
   pair-downs through each of them.
6. Everything else is random from the round's seed: the same state and seed give the same pairing.

Two ways to meet these. Small events (``exact_limit`` teams or fewer) are paired by an exact
minimum-cost search over all pairings, so every priority holds exactly. Larger events use the
score-group structure: each group is paired inside itself by a greedy matching repaired with
Edmonds' augmenting paths (exact for "can this group avoid rematches?"), leftovers float down to the
next group that can take them, and a final global augmentation removes any rematch still avoidable.
That keeps a 2,048-team round far below a second, where a search over all team pairs could not.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.domain.errors import PairingError
from tournaments.domain.event import EventState
from tournaments.domain.matching import UNMATCHED, MaximumMatching, exact_min_cost_pairing
from tournaments.domain.standings import TeamRecord, standings_order, tally

#: Up to this many active teams (16 vertices, the bye counting as one), pairing is the exact search: ~10 ms.
EXACT_LIMIT = 16


@dataclass(frozen=True, slots=True)
class TablePairing:
    """A line of the pairings sheet; the bye has no table and no team B."""

    table: int | None
    team_a: int
    team_b: int | None


@dataclass(frozen=True, slots=True)
class PairedDown:
    """A match between two match-point groups: ``higher`` paired down, ``lower`` paired up."""

    higher: int
    lower: int
    higher_points: int
    lower_points: int
    reason: str


@dataclass(frozen=True)
class RoundPairing:
    """The pairing of one round, with the structured facts and the human-readable explanation."""

    round_number: int
    seed: int
    tables: tuple[TablePairing, ...]
    bye_team: int | None
    second_bye: bool
    paired_down: tuple[PairedDown, ...]
    rematches: tuple[tuple[int, int], ...]
    unmet_keep_apart: tuple[tuple[int, int], ...]
    unmet_fixed_tables: tuple[int, ...]
    explanation: tuple[str, ...]

    @property
    def pairs(self) -> list[tuple[int | None, int, int | None]]:
        """(table, team_a, team_b or None) for each line, as the adapter stores them."""
        return [(t.table, t.team_a, t.team_b) for t in self.tables]

    @property
    def matches(self) -> list[tuple[int, int]]:
        return [(t.team_a, t.team_b) for t in self.tables if t.team_b is not None]


def pair_round(
    state: EventState, *, round_number: int, seed: int, exact_limit: int = EXACT_LIMIT
) -> RoundPairing:
    """Pair ``round_number`` from every result recorded before it.

    ``seed`` is the round's stored random seed (round 1 is entirely random from it). Raises
    ``PairingError`` if the round already has results or fewer than two teams are active.
    """
    if round_number < 1:
        raise PairingError(f"round number must be at least 1, got {round_number}")
    if any(r.round_number >= round_number for r in state.results):
        raise PairingError(
            f"round {round_number} cannot be paired: results exist for round {round_number} or later"
        )
    active = state.active_teams(round_number)
    if len(active) < 2:
        raise PairingError(f"round {round_number} needs at least two active teams, found {len(active)}")

    records = tally(state)
    rank = {
        team: position for position, team in enumerate(standings_order(state, seed=seed, records=records))
    }
    points = {t: records[t].match_points for t in active}
    avoid = _avoid_sets(state, records, active)
    rng = random.Random(f"{seed}:pairing:{round_number}")
    order = sorted(active)
    rng.shuffle(order)

    if len(active) <= exact_limit:
        pairs, bye_team = _pair_exact(order, points, avoid, records)
    else:
        bye_team = _choose_bye(order, points, records, rng) if len(order) % 2 else None
        pairs = _pair_by_groups([t for t in order if t != bye_team], points, avoid)
    return _describe(state, round_number, seed, pairs, bye_team, points, records, rank, len(order))


def _avoid_sets(
    state: EventState, records: dict[int, TeamRecord], active: Sequence[int]
) -> dict[int, set[int]]:
    """For each active team, the teams it should not meet: past opponents and keep-apart partners."""
    avoid = {t: set(records[t].opponents) for t in active}
    for a, b in state.keep_apart:
        if a in avoid and b in avoid:
            avoid[a].add(b)
            avoid[b].add(a)
    return avoid


def _choose_bye(
    order: Sequence[int], points: dict[int, int], records: dict[int, TeamRecord], rng: random.Random
) -> int:
    """Fewest byes first (no second bye while avoidable), then lowest points, then at random."""
    fewest = min(records[t].byes for t in order)
    eligible = [t for t in order if records[t].byes == fewest]
    lowest = min(points[t] for t in eligible)
    return rng.choice([t for t in eligible if points[t] == lowest])


def _pair_exact(
    order: list[int], points: dict[int, int], avoid: dict[int, set[int]], records: dict[int, TeamRecord]
) -> tuple[list[tuple[int, int]], int | None]:
    """Every priority at once, as one integer cost per pair whose weights keep them lexicographic.

    Highest first: second bye, rematch or keep-apart pair, bye points above the lowest, off-group
    pair, and last the point gap of each off-group pair, so the gap only breaks ties between
    pairings equal on everything above it. Each weight is larger than the most that all the lower
    terms can add up to in one pairing (at most ``pairs_max - 1`` pairs, gaps below ``span``), so
    no amount of a lower term can outweigh one unit of a higher one.

    The gap measure is the sum of |points_a - points_b|. With the number of pair-downs fixed, it
    prefers the adjacent group: for groups a > b > c > d, a-b + c-d is smaller than a-c + b-d and
    a-d + b-c by 2(b - c), so nesting or crossing pair-downs never ties with pairing next to each
    other, and a 6-point team meets a 3-point team rather than a 0-point one. It stays a per-pair
    integer, which the subset search needs; a "largest gap first" measure would not be additive.
    """
    vertices: list[int | None] = list(order)
    if len(vertices) % 2:
        vertices.append(None)
    low, high = min(points.values()), max(points.values())
    span = high - low + 1
    pairs_max = len(vertices) // 2 + 1
    w_off = pairs_max * span
    w_bye_points = pairs_max * w_off
    w_avoid = span * w_bye_points
    w_second_bye = pairs_max * w_avoid

    def cost(i: int, j: int) -> int:
        a, b = vertices[i], vertices[j]
        if a is None or b is None:
            team = b if a is None else a
            assert team is not None
            return w_second_bye * records[team].byes + w_bye_points * (points[team] - low)
        gap = abs(points[a] - points[b])
        return w_avoid * (b in avoid[a]) + (w_off + gap if gap else 0)

    _, index_pairs = exact_min_cost_pairing(len(vertices), cost)
    pairs: list[tuple[int, int]] = []
    bye_team = None
    for i, j in index_pairs:
        a, b = vertices[i], vertices[j]
        if a is None or b is None:
            bye_team = b if a is None else a
        else:
            pairs.append((a, b))
    return pairs, bye_team


def _pair_by_groups(
    teams: list[int], points: dict[int, int], avoid: dict[int, set[int]]
) -> list[tuple[int, int]]:
    """Score groups top-down; leftovers float to the next group; a global repair at the end."""
    groups: dict[int, list[int]] = defaultdict(list)
    for team in teams:
        groups[points[team]].append(team)
    pairs: list[tuple[int, int]] = []
    floaters: list[int] = []
    for group_points in sorted(groups, reverse=True):
        members = groups[group_points]
        group_pairs, leftovers = _max_matching(members, avoid)
        if floaters and (leftovers or len(floaters) > 1):
            group_pairs, floaters = _land_floaters(floaters, members, group_pairs, leftovers, avoid)
        else:
            floaters = floaters + leftovers
        pairs.extend(group_pairs)
    if floaters:
        pairs = _repair_globally(teams, pairs, floaters, points, avoid)
    return pairs


def _max_matching(members: list[int], avoid: dict[int, set[int]]) -> tuple[list[tuple[int, int]], list[int]]:
    """A maximum rematch-free matching of one group, and the teams it leaves over (in order)."""
    blocked = [avoid[t] for t in members]
    matching = MaximumMatching(len(members), lambda i, j: members[j] not in blocked[i])
    matching.greedy(range(len(members)))
    free = matching.free_vertices()
    if len(free) > 1:
        for v in free:
            if matching.mate[v] == UNMATCHED:
                matching.augment(v)
    return _pairs_and_free(members, matching.mate)


def _land_floaters(
    floaters: list[int],
    members: list[int],
    group_pairs: list[tuple[int, int]],
    leftovers: list[int],
    avoid: dict[int, set[int]],
) -> tuple[list[tuple[int, int]], list[int]]:
    """Pair teams floating down from above into this group where possible, keeping its own pairs.

    Augmenting paths start only from the floaters, so every team the group had already paired stays
    paired: a floater lands by taking a leftover, possibly after reshuffling the group's pairs.
    """
    vertices = floaters + members
    index = {t: i for i, t in enumerate(vertices)}
    blocked = [avoid[t] for t in vertices]
    mate = [UNMATCHED] * len(vertices)
    for a, b in group_pairs:
        mate[index[a]], mate[index[b]] = index[b], index[a]
    matching = MaximumMatching(len(vertices), lambda i, j: vertices[j] not in blocked[i], mate)
    matching.greedy([index[t] for t in floaters + leftovers])
    for t in floaters:
        if mate[index[t]] == UNMATCHED:
            matching.augment(index[t])
    return _pairs_and_free(vertices, mate)


def _repair_globally(
    teams: list[int],
    pairs: list[tuple[int, int]],
    unpaired: list[int],
    points: dict[int, int],
    avoid: dict[int, set[int]],
) -> list[tuple[int, int]]:
    """Augment over the whole event; whoever is still unpaired must play a rematch (the fewest possible).

    After this the matching is maximum, so the number of rematches is the least any pairing has;
    the remaining teams are paired with the nearest in points.
    """
    index = {t: i for i, t in enumerate(teams)}
    blocked = [avoid[t] for t in teams]
    mate = [UNMATCHED] * len(teams)
    for a, b in pairs:
        mate[index[a]], mate[index[b]] = index[b], index[a]
    matching = MaximumMatching(len(teams), lambda i, j: teams[j] not in blocked[i], mate)
    for t in unpaired:
        if mate[index[t]] == UNMATCHED:
            matching.augment(index[t])
    matched, still_free = _pairs_and_free(teams, mate)
    still_free.sort(key=lambda t: -points[t])
    return matched + [(still_free[i], still_free[i + 1]) for i in range(0, len(still_free), 2)]


def _pairs_and_free(vertices: list[int], mate: list[int]) -> tuple[list[tuple[int, int]], list[int]]:
    pairs, free = [], []
    for i, j in enumerate(mate):
        if j == UNMATCHED:
            free.append(vertices[i])
        elif i < j:
            pairs.append((vertices[i], vertices[j]))
    return pairs, free


def _describe(
    state: EventState,
    round_number: int,
    seed: int,
    pairs: list[tuple[int, int]],
    bye_team: int | None,
    points: dict[int, int],
    records: dict[int, TeamRecord],
    rank: dict[int, int],
    active_count: int,
) -> RoundPairing:
    """Order the matches by standings, number the tables and write down what was and wasn't met."""
    oriented = sorted(((a, b) if rank[a] < rank[b] else (b, a) for a, b in pairs), key=lambda p: rank[p[0]])
    group_sizes: dict[int, int] = defaultdict(int)
    for team in points:
        if team != bye_team:
            group_sizes[points[team]] += 1
    keep_apart = set(state.keep_apart)
    lines = [f"Round {round_number}: {active_count} teams, {len(oriented)} tables, seed {seed}."]

    paired_down, rematches, unmet_keep_apart = [], [], []
    for a, b in oriented:
        if points[a] != points[b]:
            higher, lower = (a, b) if points[a] > points[b] else (b, a)
            odd = group_sizes[points[higher]] % 2 == 1
            reason = (
                f"the {points[higher]}-point group had an odd number of teams"
                if odd
                else f"no pairing inside the {points[higher]}-point group avoided a rematch or a keep-apart pair"
            )
            paired_down.append(PairedDown(higher, lower, points[higher], points[lower], reason))
            lines.append(
                f"Team {higher} ({points[higher]} points) paired down to team {lower} ({points[lower]} points): {reason}."
            )
        if b in records[a].opponents:
            rematches.append((a, b))
            lines.append(f"Rematch: team {a} v team {b}; no pairing of this round avoids it.")
        if (min(a, b), max(a, b)) in keep_apart:
            unmet_keep_apart.append((a, b))
            lines.append(f"Keep-apart not met: team {a} v team {b}; no pairing of this round avoids it.")

    second_bye = False
    if bye_team is not None:
        byes = records[bye_team].byes
        second_bye = byes > 0
        if second_bye:
            lines.append(
                f"Bye: team {bye_team} ({points[bye_team]} points), its bye number {byes + 1}: "
                "every active team has had a bye."
            )
        else:
            lines.append(
                f"Bye: team {bye_team} ({points[bye_team]} points): lowest points among the teams without a bye, "
                "drawn at random among equals."
            )

    tables, unmet_fixed = _number_tables(state, oriented, lines)
    if bye_team is not None:
        tables.append(TablePairing(None, bye_team, None))
    return RoundPairing(
        round_number=round_number,
        seed=seed,
        tables=tuple(tables),
        bye_team=bye_team,
        second_bye=second_bye,
        paired_down=tuple(paired_down),
        rematches=tuple(rematches),
        unmet_keep_apart=tuple(unmet_keep_apart),
        unmet_fixed_tables=tuple(unmet_fixed),
        explanation=tuple(lines),
    )


def _number_tables(
    state: EventState, oriented: list[tuple[int, int]], lines: list[str]
) -> tuple[list[TablePairing], list[int]]:
    """Tables from the top of the standings; a team with a fixed table gets it, the rest fill the gaps.

    If both teams of a match have fixed tables, the better-ranked team's table is used and the other
    team is reported.
    """
    fixed = state.fixed_tables
    assigned: dict[int, int] = {}
    unmet: list[int] = []
    for position, (a, b) in enumerate(oriented):
        wanted = [t for t in (a, b) if t in fixed]
        if wanted:
            assigned[position] = fixed[wanted[0]]
            lines.append(f"Fixed table: team {wanted[0]} at table {fixed[wanted[0]]}.")
            for other in wanted[1:]:
                unmet.append(other)
                lines.append(
                    f"Fixed table not met: team {other} (table {fixed[other]}) plays team {wanted[0]} "
                    f"at table {fixed[wanted[0]]}."
                )
    used = set(assigned.values())
    next_table = 1
    tables = []
    for position, (a, b) in enumerate(oriented):
        table = assigned.get(position)
        if table is None:
            while next_table in used:
                next_table += 1
            table = next_table
            next_table += 1
        tables.append(TablePairing(table, a, b))
    tables.sort(key=lambda t: t.table or 0)
    return tables, unmet
