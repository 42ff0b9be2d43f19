"""Booster Draft: pods, pairing within pods, and the draft playoff [MTR 7.6, 10.4; rules §2.2(6), §2.3].

A draft seats the teams in random pods, teammates side by side (a team's players take
neighbouring seats). The Swiss rounds after a draft are paired within the pods: each pod is paired
by the ordinary engine (``pair_round``) on its own, so every Swiss rule holds inside the pod, and
a pod with an odd number of teams gives its own bye. At Regular REL the organizer may announce
cross-pod pairing instead; the adapter then calls ``pair_round`` for the whole event.

Pods hold at most eight players (MTR 7.6's pod of eight), so 2HG pods are four teams; the teams
are spread over as few pods as that allows, as evenly as possible. That can leave a pod too small
for the rounds after the draft (5 teams: pods of 3 and 2, and the pod of 2 can only rematch); the
organizer is warned before seating (``forced_rematch_pods``) and may seat one pod of every team
instead, or announce cross-pod pairing at Regular REL.

The Booster Draft playoff: the Top 8 draft at random seats, then seat 1 plays seat 5, 2 v 6,
3 v 7, 4 v 8; the semifinals are winner(1/5) v winner(3/7) and winner(2/6) v winner(4/8). Listing
the quarterfinals as (1/5, 3/7, 2/6, 4/8) makes ``next_playoff_round``'s "neighbouring winners"
give exactly those semifinals.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from common.translatable import N_
from tournaments.domain.errors import PairingError, PlayoffError
from tournaments.domain.event import EventState
from tournaments.domain.pairing import PairedDown, RoundPairing, TablePairing, pair_round
from tournaments.domain.rounds import PlayoffMatch

#: MTR 7.6: a draft pod seats eight players.
POD_PLAYERS = 8
#: Draft playoff quarterfinals by draft seat, in bracket order (see the module docstring).
DRAFT_BRACKET = ((1, 5), (3, 7), (2, 6), (4, 8))


@dataclass(frozen=True, slots=True)
class Pod:
    """One draft table: ``team_ids`` in seat order (team k's players sit side by side)."""

    number: int
    team_ids: tuple[int, ...]


def pod_sizes(teams: int, *, team_size: int) -> list[int]:
    """How many teams each pod seats: as few pods of at most eight players as possible, as even
    as possible (the larger pods first)."""
    if teams < 1:
        return []
    per_pod = max(POD_PLAYERS // max(team_size, 1), 2)
    pods = -(-teams // per_pod)
    small, extra = divmod(teams, pods)
    return [small + 1] * extra + [small] * (pods - extra)


def rounds_without_rematch(teams: int) -> int:
    """How many Swiss rounds a pod of ``teams`` can pair before a rematch is forced: a round robin,
    ``teams - 1`` rounds, or ``teams`` for an odd pod (one team has the bye each round)."""
    return teams if teams % 2 else teams - 1


def forced_rematch_pods(sizes: Sequence[int], rounds: int, *, team_size: int) -> list[int]:
    """The pods (sizes in teams) among ``sizes`` smaller than a full pod of eight players that
    cannot play ``rounds`` Swiss rounds without a rematch. Full pods are the MTR's own choice (its
    chart plays 9-16 teams four rounds in pods of four), so only a split's leftover pod is flagged."""
    full = max(POD_PLAYERS // max(team_size, 1), 2)
    return [size for size in sizes if size < full and rounds_without_rematch(size) < rounds]


def seat_pods(
    team_ids: Sequence[int], *, seed: int, draft: int, team_size: int, single_pod: bool = False
) -> tuple[Pod, ...]:
    """Random pods for ``draft`` (1 for the first draft of the event, 2 for the second...), the
    same for the same teams, seed and draft; ``single_pod`` seats every team at one table."""
    if len(set(team_ids)) != len(team_ids):
        raise PairingError(N_("a team is seated twice"))
    if len(team_ids) < 2:
        raise PairingError(N_("a draft needs at least two teams, found %(found)s", found=len(team_ids)))
    order = sorted(team_ids)
    random.Random(f"{seed}:pods:{draft}").shuffle(order)
    pods = []
    start = 0
    sizes = [len(order)] if single_pod else pod_sizes(len(order), team_size=team_size)
    for number, size in enumerate(sizes, start=1):
        pods.append(Pod(number, tuple(order[start : start + size])))
        start += size
    return tuple(pods)


@dataclass(frozen=True)
class PodRoundPairing:
    """A round paired within pods: the usual ``RoundPairing`` (tables numbered pod after pod) and
    the pod of each team that plays or has a bye."""

    pairing: RoundPairing
    pod_of_team: Mapping[int, int]


def pair_round_in_pods(
    state: EventState, pods: Sequence[Pod], *, round_number: int, seed: int
) -> PodRoundPairing:
    """Pair ``round_number`` inside each pod with ``pair_round``.

    A pod is paired on the whole event's state with every team outside it set aside for the round
    (its results still count for standings and for rematches). Active teams seated in no pod
    (entered after the draft) form one more pod. Fixed tables are not applied: a pod's tables are
    numbered after the previous pod's. Each pod gets its own seed derived from the round's.
    """
    active = state.active_teams(round_number)
    active_set = set(active)
    groups = [(pod.number, [t for t in pod.team_ids if t in active_set]) for pod in pods]
    seated = {t for _, members in groups for t in members}
    unseated = [t for t in active if t not in seated]
    if unseated:
        groups.append((max((pod.number for pod in pods), default=0) + 1, unseated))
    groups = [(number, members) for number, members in groups if members]
    tables: list[TablePairing] = []
    explanation: list[N_] = []
    pod_of_team: dict[int, int] = {}
    rematches: list[tuple[int, int]] = []
    unmet_keep_apart: list[tuple[int, int]] = []
    paired_down: list[PairedDown] = []
    awarded: list[int] = []
    bye_team = None
    second_bye = False
    next_table = 1
    for number, members in groups:
        pod_of_team.update(dict.fromkeys(members, number))
        if len(members) == 1:
            team = members[0]
            tables.append(TablePairing(None, team, None))
            bye_team = team if bye_team is None else bye_team
            explanation.append(
                N_("Pod %(pod)s: team %(team)s is alone in its pod and gets the bye.", pod=number, team=team)
            )
            continue
        outside = set(state.team_ids) - set(members)
        drops = {**state.drops, **{t: min(state.drops.get(t, round_number), round_number) for t in outside}}
        pod_state = replace(state, drops=drops, fixed_tables={})
        pairing = pair_round(pod_state, round_number=round_number, seed=_pod_seed(seed, number))
        for line in sorted(pairing.tables, key=lambda t: (t.table is None, t.table or 0)):
            if line.team_b is None:
                tables.append(line)
            else:
                tables.append(TablePairing(next_table, line.team_a, line.team_b))
                next_table += 1
        if pairing.bye_team is not None and bye_team is None:
            bye_team = pairing.bye_team
        second_bye = second_bye or pairing.second_bye
        rematches.extend(pairing.rematches)
        unmet_keep_apart.extend(pairing.unmet_keep_apart)
        paired_down.extend(pairing.paired_down)
        awarded.extend(pairing.awarded_byes)
        explanation.append(N_("Pod %(pod)s (%(count)s teams):", pod=number, count=len(members)))
        explanation.extend(N_("  %(line)s", line=line) for line in pairing.explanation)
    tables.sort(key=lambda t: (t.table is None, t.table or 0))
    merged = RoundPairing(
        round_number=round_number,
        seed=seed,
        tables=tuple(tables),
        bye_team=bye_team,
        second_bye=second_bye,
        paired_down=tuple(paired_down),
        rematches=tuple(rematches),
        unmet_keep_apart=tuple(unmet_keep_apart),
        unmet_fixed_tables=(),
        explanation=(
            N_("Round %(round)s: paired within %(count)s draft pods.", round=round_number, count=len(groups)),
            *explanation,
        ),
        awarded_byes=tuple(sorted(awarded)),
    )
    return PodRoundPairing(merged, pod_of_team)


def _pod_seed(seed: int, pod: int) -> int:
    return random.Random(f"{seed}:pod:{pod}").getrandbits(48)


def draft_playoff_seats(top_teams: Sequence[int], *, seed: int) -> tuple[int, ...]:
    """The Top 8's random seats at the playoff draft table: team ids in seat order (seat 1 first)."""
    if len(top_teams) != 8 or len(set(top_teams)) != 8:
        raise PlayoffError(
            N_("a Booster Draft playoff seats 8 different teams, got %(got)s", got=len(top_teams))
        )
    seats = sorted(top_teams)
    random.Random(f"{seed}:draft-playoff").shuffle(seats)
    return tuple(seats)


def draft_playoff_first_round(seated: Sequence[int]) -> list[PlayoffMatch]:
    """Quarterfinals by draft seat: 1v5, 3v7, 2v6, 4v8 (in bracket order; ``seed_a``/``seed_b`` are
    the seats), so the semifinals are winner(1/5) v winner(3/7) and winner(2/6) v winner(4/8)."""
    if len(seated) != 8 or len(set(seated)) != 8:
        raise PlayoffError(
            N_("a Booster Draft playoff seats 8 different teams, got %(got)s", got=len(seated))
        )
    return [PlayoffMatch(a, b, seated[a - 1], seated[b - 1]) for a, b in DRAFT_BRACKET]
