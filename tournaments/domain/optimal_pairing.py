"""The pairs of a Swiss round at the optimum of ``tournaments.domain.pairing``'s objective.

Three ways to reach that optimum, the cheapest that applies:

* The chain (nearly every round): groups top-down, each paired inside by a maximum rematch-free
  matching (greedy in a shuffled order, then Edmonds' augmenting paths), the team floating down
  from above paired first, a single team left over floating to the next group. If it needs no
  rematch and no boundary between two groups is crossed by more than one match, it is optimal:
  every pairing crosses the boundary below a group at least once when an odd number of teams have
  that group's points or more, a match spanning s groups crosses s boundaries and costs s² >= s,
  so the chain's cost (one per such boundary) is a lower bound; a pairing that meets it crosses the
  same boundaries once each, so its point gaps are the same too.
* The segments (rematches bind around small groups: late rounds, top tables): cut at the large
  score groups, solve the groups between two large groups exactly, and combine (``pair_by_segments``).
* The exact matching (small events where no group is large, or when a rematch is unavoidable): one
  minimum-cost perfect matching over all pairs, the bye a vertex, weights that keep the priorities
  lexicographic (``_Costs``), by Edmonds' weighted blossom algorithm (rustworkx, compiled).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy

from tournaments.domain.matching import UNMATCHED, MaximumMatching, min_cost_perfect_matching
from tournaments.domain.standings import TeamRecord


def pair_chain(
    teams: list[int], points: dict[int, int], avoid: dict[int, set[int]]
) -> list[tuple[int, int]] | None:
    """The chain pairing, or None when it cannot be proven optimal (then the exact matching decides).

    Groups top-down: the team floating down from the group above is paired first, into this group;
    the rest of the group takes a maximum rematch-free matching (greedy in the shuffled order, then
    Edmonds' augmenting paths); a single team left over floats to the next group down. The result is
    optimal exactly when it succeeds this way: no rematch, and every boundary between two groups
    crossed by one match at most, which the parity of the teams above it makes the least possible
    (see the module docstring).
    """
    groups: dict[int, list[int]] = defaultdict(list)
    for team in teams:
        groups[points[team]].append(team)
    chain = _chain([groups[p] for p in sorted(groups, reverse=True)], None, avoid)
    return chain[0] if chain is not None and chain[1] is None else None


def _chain(
    groups: list[list[int]], floater: int | None, avoid: dict[int, set[int]]
) -> tuple[list[tuple[int, int]], int | None] | None:
    """Pair ``groups`` (top-down) as a chain, ``floater`` coming in from above: the pairs and the
    team left floating out below, or None if some boundary would need two crossings or a rematch."""
    pairs: list[tuple[int, int]] = []
    for group in groups:
        vertices = ([floater] if floater is not None else []) + group
        group_pairs, left = _pairs_and_free(vertices, _rematch_free_matching(vertices, avoid))
        if len(left) > 1 or floater in left:
            return None
        pairs.extend(group_pairs)
        floater = left[0] if left else None
    return pairs, floater


def _rematch_free_matching(vertices: list[int], avoid: dict[int, set[int]]) -> list[int]:
    """A maximum rematch-free matching of ``vertices``: greedy in their order, then augmented."""
    blocked = [avoid[t] for t in vertices]
    matching = MaximumMatching(len(vertices), lambda i, j: vertices[j] not in blocked[i])
    matching.greedy(range(len(vertices)))
    free = matching.free_vertices()
    if len(free) > 1:
        for v in free:
            if matching.mate[v] == UNMATCHED:
                matching.augment(v)
    return matching.mate


class _Costs:
    """Integer costs whose weights keep the priorities lexicographic.

    Highest first: the bye team's byes, a rematch or keep-apart pair, the bye team's points above
    the lowest, the square of the groups a match spans, its point gap. Each weight is larger than
    the most that all the lower terms can add up to in one pairing of ``matches`` matches, so no
    amount of a lower term outweighs one unit of a higher one. ``teams`` are the teams being paired;
    their distinct point totals are the score groups.
    """

    def __init__(
        self, teams: Sequence[int], points: dict[int, int], avoid: dict[int, set[int]], matches: int
    ) -> None:
        self.points, self.avoid = points, avoid
        self.level = {p: i for i, p in enumerate(sorted({points[t] for t in teams}))}
        self.low = min(self.level)
        spread = max(self.level) - self.low
        most_gaps = matches * spread
        self.w_span = most_gaps + 1
        most_spans = most_gaps + matches * (len(self.level) - 1) ** 2 * self.w_span
        self.w_bye_points = most_spans + 1
        most_bye_points = most_spans + spread * self.w_bye_points
        self.w_avoid = most_bye_points + 1
        self.w_second_bye = most_bye_points + matches * self.w_avoid + 1

    def pair(self, a: int, b: int) -> int:
        points = self.points
        span = self.level[points[a]] - self.level[points[b]]
        return self.w_avoid * (b in self.avoid[a]) + self.w_span * span * span + abs(points[a] - points[b])

    def matrix(self, teams: Sequence[int]) -> numpy.ndarray:
        """``pair`` for every two of ``teams`` at once (int64 holds the weights up to thousands of teams)."""
        points = numpy.array([self.points[t] for t in teams], dtype=numpy.int64)
        level = numpy.array([self.level[self.points[t]] for t in teams], dtype=numpy.int64)
        span = level[:, None] - level[None, :]
        costs = self.w_span * span * span + numpy.abs(points[:, None] - points[None, :])
        index = {t: i for i, t in enumerate(teams)}
        for i, team in enumerate(teams):
            for other in self.avoid[team]:
                j = index.get(other)
                if j is not None:
                    costs[i, j] += self.w_avoid
        return costs

    def bye(self, team: int, byes: int) -> int:
        return self.w_second_bye * byes + self.w_bye_points * (self.points[team] - self.low)


def pair_exact(
    order: list[int], points: dict[int, int], avoid: dict[int, set[int]], records: dict[int, TeamRecord]
) -> tuple[list[tuple[int, int]], int | None]:
    """Every priority at once: one minimum-cost perfect matching over all pairs, the bye a vertex.

    The score groups are then counted over all active teams; if the bye team was alone in its
    group, that group is not among the teams paired, so the others are matched again without it
    (the bye team is the same: the priorities above the spans fixed its byes and points, and it was
    the only team with those points).
    """
    pairs, bye_team = _min_cost_matching(order, points, avoid, records)
    if bye_team is not None and sum(points[t] == points[bye_team] for t in order) == 1:
        pairs, _ = _min_cost_matching([t for t in order if t != bye_team], points, avoid, records)
    return pairs, bye_team


def _min_cost_matching(
    teams: list[int], points: dict[int, int], avoid: dict[int, set[int]], records: dict[int, TeamRecord]
) -> tuple[list[tuple[int, int]], int | None]:
    """Exact minimum-cost pairing of ``teams``, plus the bye if their number is odd."""
    vertices: list[int | None] = list(teams)
    costs = _Costs(teams, points, avoid, (len(teams) + 1) // 2)
    matrix = costs.matrix(teams)
    if len(teams) % 2:
        vertices.append(None)
        bye = numpy.array([costs.bye(t, records[t].byes) for t in teams] + [0], dtype=numpy.int64)
        matrix = numpy.pad(matrix, ((0, 1), (0, 1)))
        matrix[-1, :] = matrix[:, -1] = bye
    pairs: list[tuple[int, int]] = []
    bye_team = None
    for i, j in min_cost_perfect_matching(matrix):
        a, b = vertices[i], vertices[j]
        if a is None or b is None:
            bye_team = b if a is None else a
        else:
            pairs.append((a, b))
    return pairs, bye_team


def pair_by_segments(
    teams: list[int], points: dict[int, int], avoid: dict[int, set[int]]
) -> list[tuple[int, int]] | None:
    """The exact minimum when the chain is not, cut at large score groups; None if it cannot cut.

    With d the most teams any one team must avoid, a group of at least 6d + 6 teams is large. Why
    that is enough, for some optimal pairing (each step strictly lowers the cost or keeps it):

    1. Any m >= 2d + 2 teams of a group (m even) have a rematch-free pairing among themselves: each
       may meet at least m / 2 of the others (Dirac's theorem gives a Hamiltonian cycle).
    2. A large group sends at most d + 1 teams up and d + 1 down. Among 2d + 2 teams sent up, two
       (v1, v2, partners u1, u2) have u1-u2 and v1-v2 allowed: u1 v u2 and v1 v v2 is cheaper. So at
       most 4d + 2 leave and 2d + 4 stay; then if any two partners above may meet, pair them and
       put their two opponents back into the group, re-paired by 1.
    3. No match skips over a large group: u above it v v below it costs more than u and v each
       against a team staying in it ((a + b)² > a² + b²); two such teams allowed to meet u and v
       exist among the 2d + 4, and the rest re-pair by 1.
    4. Which teams a large group sends does not matter: exchanging a sent team with a staying one
       keeps every cost, and the first 3d + 2 teams of the group (for sending down) and the next
       2d + 1 (for sending up) always hold one allowed to meet the partner and not already sent.

    So the groups between two large groups (a segment) are solved exactly with those teams of the
    large groups around them, for each parity of the number each large group sends (its teams that
    are not sent pair among themselves for nothing), first by the chain through the segment when it
    proves itself (the module docstring's bound, segment by segment), else by the exact matching. A
    small dynamic programme over the large groups picks the parities whose total is least (each
    large group's two sides must add up to its own parity), and the large groups pair the teams they
    keep among themselves, by 1.
    """
    groups: dict[int, list[int]] = defaultdict(list)
    for team in teams:
        groups[points[team]].append(team)
    levels = sorted(groups, reverse=True)
    playing = set(teams)
    degree = max(len(avoid[t] & playing) for t in teams)
    large = [i for i, p in enumerate(levels) if len(groups[p]) >= 6 * degree + 6]
    if not large:
        return None
    costs = _Costs(teams, points, avoid, len(teams) // 2)
    # One team to spare in each pool, to choose the parity of the number sent.
    down_pool = {i: groups[levels[i]][: 3 * degree + 3] for i in large}
    up_pool = {i: groups[levels[i]][3 * degree + 3 : 5 * degree + 5] for i in large}

    def solve(top: int | None, bottom: int | None, up: int, down: int):
        """Cost and pairs of the segment between large groups ``top`` and ``bottom`` (None: the edge),
        with ``up`` (0/1) the parity of the top group's teams sent down and ``down`` that of the
        bottom group's teams sent up."""
        first = 0 if top is None else top + 1
        last = len(levels) if bottom is None else bottom
        own = [t for i in range(first, last) for t in groups[levels[i]]]
        from_top = [] if top is None else _parity_slice(down_pool[top], up)
        from_bottom = [] if bottom is None else _parity_slice(up_pool[bottom], down)
        if (top is None and up) or (bottom is None and down) or (len(own) + up + down) % 2:
            return None
        # The chain through the segment, when it proves itself (the module docstring's bound, per segment).
        chain = _chain([groups[levels[i]] for i in range(first, last)], from_top[0] if up else None, avoid)
        if chain is not None:
            chain_pairs, left = chain
            if left is None and not down:
                return sum(costs.pair(a, b) for a, b in chain_pairs), chain_pairs
            partner = next((b for b in from_bottom if left is not None and b not in avoid[left]), None)
            if left is not None and partner is not None and down:
                chain_pairs = [*chain_pairs, (left, partner)]
                return sum(costs.pair(a, b) for a, b in chain_pairs), chain_pairs
        vertices = own + from_top + from_bottom
        matrix = costs.matrix(vertices)
        # Teams of one large group pair among themselves for nothing: they are paired again at the end.
        for block in (slice(len(own), len(own) + len(from_top)), slice(len(own) + len(from_top), None)):
            matrix[block, block] = 0
        matched = min_cost_perfect_matching(matrix)
        return int(sum(matrix[i, j] for i, j in matched)), [(vertices[i], vertices[j]) for i, j in matched]

    bounds: list[int | None] = [None, *large, None]
    segments = list(zip(bounds, bounds[1:], strict=False))
    # best[parity sent down by the large group above the segment] = (total cost, chosen solutions)
    best: dict[int, tuple[int, list]] = {0: (0, [])}
    for top, bottom in segments:
        after: dict[int, tuple[int, list]] = {}
        for sent_down, (total, chosen) in best.items():
            for up in (0, 1):
                solution = solve(top, bottom, sent_down, up)
                if solution is None:
                    continue
                sent = 0 if bottom is None else (len(groups[levels[bottom]]) - up) % 2
                candidate = (total + solution[0], [*chosen, solution[1]])
                if sent not in after or candidate[0] < after[sent][0]:
                    after[sent] = candidate
        best = after
    if 0 not in best:
        return None
    pairs = [pair for solution in best[0][1] for pair in solution]
    large_points = {levels[i] for i in large}
    crossing = [(a, b) for a, b in pairs if points[a] != points[b] or points[a] not in large_points]
    return _repair_large_groups(crossing, groups, sorted(large_points), avoid)


def _parity_slice(pool: list[int], parity: int) -> list[int]:
    """The first teams of ``pool`` whose number has the given parity (the pool has one to spare)."""
    size = len(pool) if len(pool) % 2 == parity else len(pool) - 1
    return pool[:size]


def _repair_large_groups(
    pairs: list[tuple[int, int]], groups: dict[int, list[int]], large: list[int], avoid: dict[int, set[int]]
) -> list[tuple[int, int]] | None:
    """Pair the teams each large group keeps among themselves, without a rematch (Dirac's theorem)."""
    paired = {t for pair in pairs for t in pair}
    for group_points in large:
        staying = [t for t in groups[group_points] if t not in paired]
        group_pairs, left = _pairs_and_free(staying, _rematch_free_matching(staying, avoid))
        if left:
            return None
        pairs.extend(group_pairs)
    return pairs


def _pairs_and_free(vertices: list[int], mate: list[int]) -> tuple[list[tuple[int, int]], list[int]]:
    pairs, free = [], []
    for i, j in enumerate(mate):
        if j == UNMATCHED:
            free.append(vertices[i])
        elif i < j:
            pairs.append((vertices[i], vertices[j]))
    return pairs, free
