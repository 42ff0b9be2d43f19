"""Standings and tiebreakers (MTR 3.1 and Appendix C; docs/rules.md#tiebreakers).

Percentages are exact fractions, never floats, so two teams with equal tiebreakers are equal, and a
standings page never reorders because of a rounding error; they are rounded only for display (4
decimals). For speed at 2,048 teams the engine works on integers: every MW% (or GW%) is scaled to a
common denominator once, opponents' averages are integer sums, and the sort compares integers;
``Fraction`` objects are made only for the rows handed back.

Rules encoded here:

* Match points: win 3, draw 1, loss 0; a bye is a win; plus the team's penalty adjustment, which
  may take it below its earned points (and below zero). MW% uses the adjusted points.
* MW% = match points / (3 x rounds played), a bye and a missed round (late entry) counting as
  played rounds; GW% = game points / (3 x games played), a bye counting as the games needed to win.
  Both floored at the event's floor (1/3 by default, 0.33 if the event chooses the MTR's print).
* OMW% and OGW% average each opponent's floored value; byes and missed rounds have no opponent,
  so a team's own byes are left out. A team that has no opponent yet gets the floor.
* Ranking: the event's tiebreaker list, then a random order drawn from the round's seed, so ties
  are broken the same way on every reload.
* Dropped teams stay with their record at the time they dropped; disqualified teams are removed and
  everyone below moves up; their matches still count for their opponents' tiebreakers.
* Teams eliminated at a cut to day 2 keep their rows, marked; their tiebreakers go on counting their
  opponents' later rounds (MTR), or stay as they were after the cut if the event freezes them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from math import lcm

from tournaments.domain.event import EventState, Tiebreaker
from tournaments.domain.results import MatchResult, ResultKind, games_to_win


@dataclass(frozen=True, slots=True)
class TeamRecord:
    """One team's tally over the results given: what pairings and tiebreakers are built from."""

    team_id: int
    earned_points: int
    penalty_points: int
    wins: int
    losses: int
    draws: int
    byes: int
    rounds_played: int
    game_points: int
    games_played: int
    opponents: tuple[int, ...]

    @property
    def match_points(self) -> int:
        return self.earned_points + self.penalty_points


@dataclass(frozen=True, slots=True)
class StandingRow:
    """A line of the standings. Percentages are exact; use ``format_percentage`` to print them."""

    rank: int
    team_id: int
    match_points: int
    penalty_points: int
    wins: int
    losses: int
    draws: int
    byes: int
    rounds_played: int
    mw: Fraction
    omw: Fraction
    gw: Fraction
    ogw: Fraction
    dropped: bool
    eliminated: bool = False


def format_percentage(value: Fraction, decimals: int = 4) -> str:
    """Round half up to ``decimals`` places, exactly (no float on the way): 0.61640625 -> "0.6164"."""
    scale = 10**decimals
    scaled = (value.numerator * scale * 2 + value.denominator) // (2 * value.denominator)
    whole, part = divmod(scaled, scale)
    return f"{whole}.{part:0{decimals}d}"


def tally(state: EventState, results: Iterable[MatchResult] | None = None) -> dict[int, TeamRecord]:
    """Sum up every team's results (all of ``state.results`` unless ``results`` is given)."""
    games_for_bye = games_to_win(state.settings.games_per_match)
    ids = state.team_ids
    earned = dict.fromkeys(ids, 0)
    wins = dict.fromkeys(ids, 0)
    losses = dict.fromkeys(ids, 0)
    draws = dict.fromkeys(ids, 0)
    byes = dict.fromkeys(ids, 0)
    rounds = dict.fromkeys(ids, 0)
    game_points = dict.fromkeys(ids, 0)
    games = dict.fromkeys(ids, 0)
    opponents: dict[int, list[int]] = {t: [] for t in ids}
    played, bye, match_loss = ResultKind.PLAYED, ResultKind.BYE, ResultKind.MATCH_LOSS
    for result in state.results if results is None else results:
        a, b, kind = result.team_a, result.team_b, result.kind
        rounds[a] += 1
        if b is None:
            if kind is bye:
                earned[a] += 3
                wins[a] += 1
                byes[a] += 1
                game_points[a] += 3 * games_for_bye
                games[a] += games_for_bye
            else:
                losses[a] += 1
            continue
        rounds[b] += 1
        opponents[a].append(b)
        opponents[b].append(a)
        aw, bw, dr = result.a_wins, result.b_wins, result.draws
        game_points[a] += 3 * aw + dr
        game_points[b] += 3 * bw + dr
        games[a] += aw + bw + dr
        games[b] += aw + bw + dr
        if kind is played and aw == bw:
            earned[a] += 1
            earned[b] += 1
            draws[a] += 1
            draws[b] += 1
        elif kind is played or kind is match_loss:
            winner, loser = (a, b) if kind is played and aw > bw else (b, a)
            earned[winner] += 3
            wins[winner] += 1
            losses[loser] += 1
        else:
            losses[a] += 1
            losses[b] += 1
    penalties = state.penalty_points
    return {
        t: TeamRecord(
            t,
            earned[t],
            penalties.get(t, 0),
            wins[t],
            losses[t],
            draws[t],
            byes[t],
            rounds[t],
            game_points[t],
            games[t],
            tuple(opponents[t]),
        )
        for t in ids
    }


def _floored_scaled(values: dict[int, tuple[int, int]], floor: Fraction) -> tuple[dict[int, int], int]:
    """Each team's floored percentage num/den as an integer over one common denominator.

    Returns (scaled values, denominator). A team with nothing played (den 0) gets the floor.
    """
    denominator = lcm(floor.denominator, *{den for _, den in values.values() if den})
    floor_scaled = floor.numerator * (denominator // floor.denominator)
    scaled = {}
    for team, (num, den) in values.items():
        value = num * (denominator // den) if den else floor_scaled
        scaled[team] = value if value > floor_scaled else floor_scaled
    return scaled, denominator


def _opponent_sums(
    records: dict[int, TeamRecord], scaled: dict[int, int], floor_scaled: int
) -> dict[int, tuple[int, int]]:
    """(sum of opponents' scaled values, number of opponents); no opponent yet counts as the floor."""
    sums = {}
    for team, record in records.items():
        opponents = record.opponents
        if opponents:
            sums[team] = (sum([scaled[o] for o in opponents]), len(opponents))
        else:
            sums[team] = (floor_scaled, 1)
    return sums


def _sort_keys(sums: dict[int, tuple[int, int]]) -> dict[int, int]:
    """Integers ordered like sum/count, by bringing every average to one denominator."""
    common = lcm(*{count for _, count in sums.values()})
    return {team: total * (common // count) for team, (total, count) in sums.items()}


@dataclass(frozen=True, slots=True)
class _Tiebreakers:
    """Integer-scaled percentages of every team, and the order they give."""

    order: list[int]
    mw: dict[int, int]
    mw_den: int
    gw: dict[int, int]
    gw_den: int
    omw: dict[int, tuple[int, int]]
    ogw: dict[int, tuple[int, int]]


def _rank(state: EventState, records: dict[int, TeamRecord], seed: int) -> _Tiebreakers:
    settings = state.settings
    floor = settings.percentage_floor
    mw, mw_den = _floored_scaled(
        {t: (r.match_points, 3 * r.rounds_played) for t, r in records.items()}, floor
    )
    gw, gw_den = _floored_scaled({t: (r.game_points, 3 * r.games_played) for t, r in records.items()}, floor)
    omw = _opponent_sums(records, mw, floor.numerator * (mw_den // floor.denominator))
    ogw = _opponent_sums(records, gw, floor.numerator * (gw_den // floor.denominator))
    columns = {
        Tiebreaker.MATCH_POINTS: {t: r.match_points for t, r in records.items()},
        Tiebreaker.OPPONENTS_MATCH_WIN: _sort_keys(omw),
        Tiebreaker.GAME_WIN: gw,
        Tiebreaker.OPPONENTS_GAME_WIN: _sort_keys(ogw),
    }
    shuffled = sorted(state.team_ids)
    random.Random(seed).shuffle(shuffled)
    final_tiebreak = {team: position for position, team in enumerate(shuffled)}
    keys = [columns[tiebreaker] for tiebreaker in settings.tiebreakers]
    order = [t for t in state.team_ids if _in_standings(state, records[t])]
    order.sort(key=lambda t: (*(-key[t] for key in keys), final_tiebreak[t]))
    return _Tiebreakers(order, mw, mw_den, gw, gw_den, omw, ogw)


def standings_order(
    state: EventState, *, seed: int, records: dict[int, TeamRecord] | None = None
) -> list[int]:
    """Team ids in standings order, without building the rows (pairing needs only this)."""
    return _rank(state, tally(state) if records is None else records, seed).order


def compute_standings(
    state: EventState, *, seed: int, records: dict[int, TeamRecord] | None = None
) -> list[StandingRow]:
    """The standings after every result in ``state``, best first, ranks 1..n with no gaps.

    ``seed`` is the round's stored random seed: it orders teams still tied after every tiebreaker,
    so the same state and seed always give the same page. ``records`` may be passed when the caller
    already tallied ``state``, to avoid counting twice.
    """
    records = tally(state) if records is None else records
    rows = _rows(state, records, seed)
    cut = state.settings.day_two
    if cut is None or not cut.frozen or not state.eliminated:
        return rows
    at_cut = replace(state, results=state.results_through(cut.after_round), eliminated=frozenset())
    frozen = {
        row.team_id: row for row in compute_standings(at_cut, seed=seed) if row.team_id in state.eliminated
    }
    rows = [row for row in rows if row.team_id not in frozen]
    rows += [replace(row, eliminated=True, dropped=row.team_id in state.drops) for row in frozen.values()]
    rows.sort(key=lambda row: -row.match_points)
    return [replace(row, rank=rank) for rank, row in enumerate(rows, start=1)]


def _rows(state: EventState, records: dict[int, TeamRecord], seed: int) -> list[StandingRow]:
    ranked = _rank(state, records, seed)
    rows = []
    for rank, team in enumerate(ranked.order, start=1):
        record = records[team]
        omw_total, omw_count = ranked.omw[team]
        ogw_total, ogw_count = ranked.ogw[team]
        rows.append(
            StandingRow(
                rank=rank,
                team_id=team,
                match_points=record.match_points,
                penalty_points=record.penalty_points,
                wins=record.wins,
                losses=record.losses,
                draws=record.draws,
                byes=record.byes,
                rounds_played=record.rounds_played,
                mw=Fraction(ranked.mw[team], ranked.mw_den),
                omw=Fraction(omw_total, ranked.mw_den * omw_count),
                gw=Fraction(ranked.gw[team], ranked.gw_den),
                ogw=Fraction(ogw_total, ranked.gw_den * ogw_count),
                dropped=team in state.drops,
                eliminated=team in state.eliminated,
            )
        )
    return rows


def day_two_eliminated(state: EventState) -> frozenset[int]:
    """The teams that do not make the cut to day 2: still in the event (not dropped before it,
    not disqualified) with fewer than the cut's match points after its round, penalties counted."""
    cut = state.settings.day_two
    if cut is None:
        return frozenset()
    records = tally(state, state.results_through(cut.after_round))
    before = replace(state, eliminated=frozenset())
    return frozenset(
        team
        for team in state.team_ids
        if before.is_active(team, cut.after_round + 1) and records[team].match_points < cut.min_match_points
    )


def day_two_counts(state: EventState) -> tuple[int, int]:
    """(teams that advanced, teams that were still in the event at the cut), for the public line
    "18 of 32 teams advanced with 6+ points"."""
    cut = state.settings.day_two
    if cut is None:
        return 0, 0
    before = replace(state, eliminated=frozenset())
    contested = before.active_teams(cut.after_round + 1)
    return len(contested) - len(day_two_eliminated(state)), len(contested)


def with_day_two_cut(state: EventState) -> EventState:
    """``state`` with the cut made (for day-2 rounds and the standings once day 2 has begun)."""
    return replace(state, eliminated=day_two_eliminated(state))


def _in_standings(state: EventState, record: TeamRecord) -> bool:
    """Disqualified teams are removed; a team dropped before round 1 never took part (MTR 2.10)."""
    if record.team_id in state.disqualified:
        return False
    dropped = state.drops.get(record.team_id)
    return not (dropped is not None and dropped <= 1 and record.rounds_played == 0)
