"""The organizer's pairing of a Swiss round by hand (docs/decisions.md "Manual pairing").

The form starts from the engine's proposal (``manual_pairing_draft``); ``round_pair_manual`` checks
that every active team appears once, numbers the tables (fixed tables kept) and stores the round
with its reason, the audit entry keeping what the engine would have paired. The checks shared with
the engine's pairing (lock, previous round complete, Swiss rounds left) are in ``services.rounds``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import DomainError
from common.translatable import N_
from tournaments.domain import PairingError, pair_round
from tournaments.enums import ResultKind, RoundKind
from tournaments.models import Match, Round, Team, Tournament
from tournaments.selectors import pairing_state, round_seed
from tournaments.services.audit import audit_log
from tournaments.services.rounds import create_round, explanation_lines, prepare_swiss_round, start_running
from tournaments.standings import standings_for


def _manual_tables(
    tournament: Tournament, matches: Sequence[tuple[int, int | None]]
) -> list[tuple[int | None, int, int | None]]:
    """Table numbers for a manual pairing: in the order given, except that a team with a fixed
    table (accessibility) keeps it; the others fill the free numbers."""
    fixed = dict(
        Team.objects.filter(tournament=tournament, fixed_table__isnull=False).values_list("id", "fixed_table")
    )
    played = [(a, b) for a, b in matches if b is not None]
    assigned = {i: fixed.get(a, fixed.get(b)) for i, (a, b) in enumerate(played)}
    used = {table for table in assigned.values() if table is not None}
    next_table = 1
    tables: list[tuple[int | None, int, int | None]] = []
    for i, (a, b) in enumerate(played):
        table = assigned[i]
        if table is None:
            while next_table in used:
                next_table += 1
            table = next_table
            used.add(table)
        tables.append((table, a, b))
    tables.extend((None, a, None) for a, b in matches if b is None)
    return tables


def _manual_pairing_problems(
    active: set[int], matches: Sequence[tuple[int, int | None]], names: dict[int, str]
) -> list[dict]:
    """What is wrong with a manual pairing, in words naming the teams: each problem of one match
    has its index (``match``) so a form can show it next to that match; ``field`` is the API's."""
    problems = []
    seen: set[int] = set()

    def name(team: int) -> str:
        return names.get(team) or _("no team of this event has the number %(team)s") % {"team": team}

    for index, (a, b) in enumerate(matches):
        if a == b:
            problems.append(
                {
                    "field": f"matches[{index}]",
                    "match": index,
                    "message": _("%(team)s cannot play itself") % {"team": name(a)},
                }
            )
            continue
        for side, team in (("team_a", a), ("team_b", b)):
            if team is None:
                continue
            if team not in active:
                message = _("%(team)s is not an active team of this event (dropped, or not paired yet)")
            elif team in seen:
                message = _("%(team)s is paired twice")
            else:
                message = ""
            if message:
                problems.append(
                    {
                        "field": f"matches[{index}].{side}",
                        "match": index,
                        "message": message % {"team": name(team)},
                    }
                )
            seen.add(team)
    missing = [team for team in sorted(active - seen, key=lambda t: names.get(t, ""))]
    if missing:
        problems.append(
            {
                "field": "matches",
                "message": _("not paired: %(teams)s") % {"teams": ", ".join(name(t) for t in missing)},
            }
        )
    return problems


def manual_pairing_refusal(problems: Sequence[dict]) -> str:
    """The whole refusal in one sentence, each match's problem with its number (from 1)."""
    return _("Manual pairing refused: %(problems)s") % {
        "problems": "; ".join(
            _("match %(number)s: %(problem)s") % {"number": p["match"] + 1, "problem": p["message"]}
            if "match" in p
            else p["message"]
            for p in problems
        )
    }


def _engine_tables(state, number: int, seed: int) -> list[list[int | None]] | None:
    """What the engine would have paired with the round's seed, as ``[table, team_a, team_b]``:
    the ``before`` of a manual pairing's audit entry, so a reader sees what the organizer
    overrode. None when the engine could not pair the round at all."""
    try:
        pairing = pair_round(state, round_number=number, seed=seed)
    except PairingError:
        return None
    return [[line.table, line.team_a, line.team_b] for line in pairing.tables]


@dataclass(frozen=True)
class ManualPairingDraft:
    """Where the organizer's pairing by hand starts: the round's number, its active teams in
    standings order, and a proposal as ``(team_a, team_b or None for a bye)``."""

    number: int
    teams: tuple[int, ...]
    tables: tuple[tuple[int, int | None], ...]


def manual_pairing_draft(tournament: Tournament) -> ManualPairingDraft:
    """The engine's pairing of the next Swiss round with its seed, as the organizer would get it
    by pressing "pair"; if the engine cannot pair it, the teams in standings order 1-2, 3-4, the
    odd one out on a bye. Reads only: ``round_pair_manual`` checks and stores."""
    previous = Round.objects.filter(tournament=tournament).newest()
    number = previous.number + 1 if previous is not None else 1
    state = pairing_state(tournament, number)
    active = set(state.active_teams(number))
    order = [line.team_id for line in standings_for(tournament) if line.team_id in active]
    order += sorted(active - set(order))
    engine = _engine_tables(state, number, round_seed(tournament, number))
    if engine is not None:
        tables = [(a, b) for _table, a, b in engine if a is not None]
    else:
        tables = [
            (a, order[i + 1] if i + 1 < len(order) else None) for i, a in enumerate(order) if i % 2 == 0
        ]
    return ManualPairingDraft(number=number, teams=tuple(order), tables=tuple(tables))


@transaction.atomic
def round_pair_manual(
    *, tournament: Tournament, actor, matches: list[tuple[int, int | None]], reason: str
) -> Round:
    """Store the organizer's own pairing of the next Swiss round, with a mandatory reason and an
    audit entry listing every match, before it what the engine would have paired
    (docs/decisions.md "Manual pairing": kept, but visible).

    Every active team must appear exactly once; ``(team, None)`` is a bye, as many as the
    organizer gives (real events give several by hand), each 3 points like any bye.
    """
    reason = reason.strip()
    if not reason:
        raise DomainError(
            _("a manual pairing needs a reason"), errors=[{"field": "reason", "message": _("required")}]
        )
    tournament, number = prepare_swiss_round(tournament)
    state = pairing_state(tournament, number)
    names = dict(Team.objects.filter(tournament=tournament).values_list("id", "name"))
    problems = _manual_pairing_problems(set(state.active_teams(number)), matches, names)
    if problems:
        raise DomainError(manual_pairing_refusal(problems), errors=problems)
    tables = _manual_tables(tournament, matches)
    seed = round_seed(tournament, number)
    engine_tables = _engine_tables(state, number, seed)
    new_round = create_round(
        tournament=tournament,
        number=number,
        kind=RoundKind.SWISS,
        seed=seed,
        length_minutes=tournament.round_minutes,
        manual_reason=reason,
        explanation={
            **explanation_lines(
                [
                    N_(
                        "Round %(round)s: paired by hand by %(actor)s. Reason: %(reason)s",
                        round=number,
                        actor=str(actor),
                        reason=reason,
                    )
                ]
            ),
            "manual": True,
        },
    )
    Match.objects.bulk_create(
        Match.unopposed(
            round_obj=new_round, team_id=a, kind=ResultKind.BYE, games_per_match=tournament.games_per_match
        )
        if b is None
        else Match(round=new_round, table=table, team_a_id=a, team_b_id=b)
        for table, a, b in tables
    )
    start_running(tournament, number)
    audit_log(
        tournament=tournament,
        actor=actor,
        action="round_pair_manual",
        obj=new_round,
        before={"number": number, "tables": engine_tables},
        after={"number": number, "tables": [list(t) for t in tables]},
        reason=reason,
    )
    return new_round
