"""Matching algorithms behind the Swiss pairing.

Two tools, for two jobs:

* ``MaximumMatching``: Edmonds' blossom algorithm for maximum-cardinality matching in a general
  graph, where an edge means "may play" (no rematch, not kept apart). Started from a greedy
  matching, it only has to augment a few free vertices, and Berge's theorem makes it exact: if any
  rematch-free pairing of the vertices exists, augmenting finds a perfect matching. The graph is
  implicit (a compatibility test), because Swiss graphs are nearly complete and listing their edges
  would be quadratic.
* ``min_cost_perfect_matching``: a minimum-cost perfect matching over all pairs with arbitrary
  integer costs (Edmonds' weighted blossom algorithm, compiled, from rustworkx), for the rounds
  where the fast chain pairing cannot be proven optimal.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

import numpy
import rustworkx

UNMATCHED = -1


class MaximumMatching:
    """Maximum-cardinality matching on vertices 0..n-1 with an implicit edge test.

    ``mate[v]`` is v's partner or ``UNMATCHED``. Seed ``mate`` with any valid matching (for example
    a greedy one), then call ``augment(v)`` for free vertices; each success grows the matching by
    one without unmatching anybody. A vertex that cannot be augmented once never can be later
    (a standard property of Edmonds' algorithm), so one attempt per free vertex is enough.
    """

    def __init__(
        self, size: int, compatible: Callable[[int, int], bool], mate: list[int] | None = None
    ) -> None:
        self.size = size
        self.compatible = compatible
        self.mate = [UNMATCHED] * size if mate is None else mate

    def greedy(self, order: Sequence[int]) -> None:
        """Pair free vertices in ``order`` with the first compatible free vertex after them."""
        mate = self.mate
        free = [v for v in order if mate[v] == UNMATCHED]
        taken = [False] * len(free)
        compatible = self.compatible
        for i, v in enumerate(free):
            if taken[i]:
                continue
            for j in range(i + 1, len(free)):
                if not taken[j] and compatible(v, free[j]):
                    taken[i] = taken[j] = True
                    mate[v], mate[free[j]] = free[j], v
                    break

    def augment(self, root: int) -> bool:
        """Try to match the free vertex ``root`` along an augmenting path; True on success."""
        n, mate, compatible = self.size, self.mate, self.compatible
        parent = [UNMATCHED] * n
        base = list(range(n))
        used = [False] * n
        used[root] = True
        queue = deque([root])

        def lowest_common_ancestor(a: int, b: int) -> int:
            seen = [False] * n
            while True:
                a = base[a]
                seen[a] = True
                if mate[a] == UNMATCHED:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[mate[b]]

        def mark_path(v: int, stem: int, child: int, in_blossom: list[bool]) -> None:
            while base[v] != stem:
                in_blossom[base[v]] = in_blossom[base[mate[v]]] = True
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        while queue:
            v = queue.popleft()
            for to in range(n):
                if to == v or base[v] == base[to] or mate[v] == to or not compatible(v, to):
                    continue
                if to == root or (mate[to] != UNMATCHED and parent[mate[to]] != UNMATCHED):
                    stem = lowest_common_ancestor(v, to)
                    in_blossom = [False] * n
                    mark_path(v, stem, to, in_blossom)
                    mark_path(to, stem, v, in_blossom)
                    for i in range(n):
                        if in_blossom[base[i]]:
                            base[i] = stem
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == UNMATCHED:
                    parent[to] = v
                    if mate[to] == UNMATCHED:
                        self._flip(to, parent)
                        return True
                    used[mate[to]] = True
                    queue.append(mate[to])
        return False

    def _flip(self, end: int, parent: list[int]) -> None:
        mate = self.mate
        v = end
        while v != UNMATCHED:
            pv = parent[v]
            next_v = mate[pv]
            mate[v] = pv
            mate[pv] = v
            v = next_v

    def free_vertices(self) -> list[int]:
        return [v for v in range(self.size) if self.mate[v] == UNMATCHED]


def min_cost_perfect_matching(costs: numpy.ndarray) -> list[tuple[int, int]]:
    """Minimum-cost perfect matching of vertices 0..n-1 (n even) over all pairs, exactly.

    ``costs`` is the symmetric n x n matrix of integer pair costs. Edmonds' weighted blossom
    algorithm, compiled (rustworkx): the maximum-weight matching among the maximum-cardinality ones,
    with weight ``most - cost`` so that the heaviest perfect matching is the cheapest. Integer costs
    keep it exact.
    """
    size = len(costs)
    if size % 2:
        raise ValueError("a perfect matching needs an even number of vertices")
    rows, cols = numpy.triu_indices(size, 1)
    pair_costs = costs[rows, cols]
    weights = (pair_costs.max(initial=0) + 1 - pair_costs).tolist()
    graph = rustworkx.PyGraph()
    graph.add_nodes_from(range(size))
    graph.add_edges_from(list(zip(rows.tolist(), cols.tolist(), weights, strict=True)))
    matching = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return sorted((min(i, j), max(i, j)) for i, j in matching)
