"""Swiss pairing: one round's matches, table numbers and a written explanation.

The objective, highest priority first; every one is met exactly, at every size (docs/decisions.md,
"Pair-downs"):

1. Dropped and disqualified teams are never paired; every other team plays once or has the bye.
2. No second bye while a team without one can take it.
3. The fewest rematches and "keep apart" pairs (family, travel mates): none while any pairing avoids them.
4. The bye goes to a team with the lowest points among those without a bye, at random among equals.
5. The least sum, over the matches, of the square of the number of score groups the match spans.
   The score groups are the distinct point totals of the teams playing a match this round (not of
   the bye team); a match inside a group spans 0, one between adjacent groups 1, two groups apart 2
   (cost 4). So an odd group's extra team plays a team of the next group down and that group's
   extra team floats on in turn: 12(1) 9(6) 6(6) 3(5) gives 12 v 9, 9 v 6, 6 v 3 (cost 3), never
   12 v 3 (cost 9); and no more teams leave their group than the rules force.
6. The least sum of point gaps over the matches.
7. Everything else is random from the round's seed: the same state and seed give the same pairing.

``tournaments.domain.optimal_pairing`` reaches that optimum, the cheapest of its three ways that
applies. The chain and the segments take the bye as chosen up front (fewest byes, then lowest
points, then at random), which is the optimal choice whenever the round needs no rematch; otherwise
the exact matching weighs the bye against the rematches (up to ``ALL_PAIRS_LIMIT`` teams).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from common.translatable import N_
from tournaments.domain.errors import PairingError
from tournaments.domain.event import EventState
from tournaments.domain.optimal_pairing import pair_by_segments, pair_chain, pair_exact
from tournaments.domain.standings import TeamRecord, standings_order, tally

#: Up to this many teams an unavoidable rematch sends the round to the matching over all pairs, which
#: weighs the bye choice against rematches too (about 0.2 s at 300 teams). Above it the bye is chosen
#: first (fewest byes, lowest points), which decides the same unless a rematch is unavoidable there.
ALL_PAIRS_LIMIT = 400


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
    #: Teams not paired this round because they hold an awarded bye for it (a bye line each, last).
    awarded_byes: tuple[int, ...] = ()

    @property
    def pairs(self) -> list[tuple[int | None, int, int | None]]:
        """(table, team_a, team_b or None) for each line, as the adapter stores them."""
        return [(t.table, t.team_a, t.team_b) for t in self.tables]

    @property
    def matches(self) -> list[tuple[int, int]]:
        return [(t.team_a, t.team_b) for t in self.tables if t.team_b is not None]


def pair_round(state: EventState, *, round_number: int, seed: int) -> RoundPairing:
    """Pair ``round_number`` from every result recorded before it.

    ``seed`` is the round's stored random seed (round 1 is entirely random from it). Raises
    ``PairingError`` if the round already has results or fewer than two teams are active.
    """
    if round_number < 1:
        raise PairingError(N_("round number must be at least 1, got %(number)s", number=round_number))
    if any(r.round_number >= round_number for r in state.results):
        raise PairingError(
            N_(
                "round %(number)s cannot be paired: results exist for round %(number)s or later",
                number=round_number,
            )
        )
    active = state.active_teams(round_number)
    if len(active) < 2:
        raise PairingError(
            N_(
                "round %(number)s needs at least two active teams, found %(found)s",
                number=round_number,
                found=len(active),
            )
        )

    records = tally(state)
    rank = {
        team: position for position, team in enumerate(standings_order(state, seed=seed, records=records))
    }
    awarded = tuple(sorted(t for t in active if state.has_awarded_bye(t, round_number)))
    points = {t: records[t].match_points for t in active if t not in awarded}
    avoid = _avoid_sets(state, records, points)
    rng = random.Random(f"{seed}:pairing:{round_number}")
    order = sorted(points)
    rng.shuffle(order)

    pairs: list[tuple[int, int]] | None
    if len(order) < 2:
        pairs, bye_team = [], (order[0] if order else None)
    else:
        bye_team = _choose_bye(order, points, records, rng) if len(order) % 2 else None
        teams = [t for t in order if t != bye_team]
        pairs = pair_chain(teams, points, avoid)
        if pairs is None:
            pairs = pair_by_segments(teams, points, avoid)
        if pairs is None or (len(order) <= ALL_PAIRS_LIMIT and any(b in avoid[a] for a, b in pairs)):
            pairs, bye_team = pair_exact(order, points, avoid, records)
    pairing = _describe(state, round_number, seed, pairs, bye_team, points, records, rank, len(active))
    if not awarded:
        return pairing
    lines = [
        N_(
            "Awarded bye: team %(team)s, round %(round)s of its %(rounds)s-round awarded bye.",
            team=t,
            round=round_number,
            rounds=state.awarded_byes[t],
        )
        for t in awarded
    ]
    return replace(
        pairing,
        tables=pairing.tables + tuple(TablePairing(None, t, None) for t in awarded),
        awarded_byes=awarded,
        explanation=pairing.explanation + tuple(lines),
    )


def _avoid_sets(
    state: EventState, records: dict[int, TeamRecord], active: Iterable[int]
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
    at_or_above = Counter(points[t] for t in points if t != bye_team)
    running = 0
    for group_points in sorted(at_or_above, reverse=True):
        running = at_or_above[group_points] = running + at_or_above[group_points]
    keep_apart = set(state.keep_apart)
    lines = [
        N_(
            "Round %(round)s: %(count)s teams, %(tables)s tables, seed %(seed)s.",
            round=round_number,
            count=active_count,
            tables=len(oriented),
            seed=seed,
        )
    ]

    paired_down, rematches, unmet_keep_apart = [], [], []
    for a, b in oriented:
        if points[a] != points[b]:
            higher, lower = (a, b) if points[a] > points[b] else (b, a)
            odd = at_or_above[points[higher]] % 2 == 1
            reason = (
                N_("an odd number of teams have %(points)s points or more", points=points[higher])
                if odd
                else N_("every pairing with fewer or nearer pair-downs needed a rematch or a keep-apart pair")
            )
            paired_down.append(PairedDown(higher, lower, points[higher], points[lower], reason))
            lines.append(
                N_(
                    "Team %(team_higher)s (%(points_higher)s points) paired down to team %(team_lower)s "
                    "(%(points_lower)s points): %(reason)s.",
                    team_higher=higher,
                    points_higher=points[higher],
                    team_lower=lower,
                    points_lower=points[lower],
                    reason=reason,
                )
            )
        if b in records[a].opponents:
            rematches.append((a, b))
            lines.append(
                N_(
                    "Rematch: team %(team_a)s v team %(team_b)s; no pairing of this round avoids it.",
                    team_a=a,
                    team_b=b,
                )
            )
        if (min(a, b), max(a, b)) in keep_apart:
            unmet_keep_apart.append((a, b))
            lines.append(
                N_(
                    "Keep-apart not met: team %(team_a)s v team %(team_b)s; no pairing of this round avoids it.",
                    team_a=a,
                    team_b=b,
                )
            )

    second_bye = bye_team is not None and records[bye_team].byes > 0
    if bye_team is not None:
        lines.append(_bye_line(bye_team, points[bye_team], records[bye_team].byes))

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


def _bye_line(team: int, points: int, byes: int) -> N_:
    """Why this team has the bye: a second bye only once every active team has had one."""
    if byes > 0:
        return N_(
            "Bye: team %(team)s (%(points)s points), its bye number %(number)s: "
            "every active team has had a bye.",
            team=team,
            points=points,
            number=byes + 1,
        )
    return N_(
        "Bye: team %(team)s (%(points)s points): lowest points among the teams without a bye, "
        "drawn at random among equals.",
        team=team,
        points=points,
    )


def _number_tables(
    state: EventState, oriented: list[tuple[int, int]], lines: list[N_]
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
            lines.append(
                N_("Fixed table: team %(team)s at table %(table)s.", team=wanted[0], table=fixed[wanted[0]])
            )
            for other in wanted[1:]:
                unmet.append(other)
                lines.append(
                    N_(
                        "Fixed table not met: team %(team)s (table %(wanted)s) plays team %(team_fixed)s "
                        "at table %(table)s.",
                        team=other,
                        wanted=fixed[other],
                        team_fixed=wanted[0],
                        table=fixed[wanted[0]],
                    )
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
