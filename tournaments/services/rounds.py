"""Pairing, re-pairing and publishing rounds.

Every pairing is computed by the Swiss engine (``tournaments.domain``); this module loads the event,
checks the preconditions that need the database (previous round complete, Swiss rounds left), and
stores the engine's answer. The tournament row is locked first, so two simultaneous "pair next
round" calls run one after the other and the second finds the round already there (409); the
(tournament, number) unique constraint is the last line of defence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from common.errors import ConflictError, DomainError
from common.i18n import error_text
from common.translatable import N_, as_data
from tournaments.domain import (
    PairingError,
    PlayoffError,
    PlayoffMatch,
    next_playoff_round,
    pair_round,
    playoff_winner,
    recommended_rounds,
)
from tournaments.domain.pods import Pod, pair_round_in_pods
from tournaments.enums import Format, Rel, ResultKind, RoundKind, TournamentStatus
from tournaments.models import Match, Round, Team, Tournament
from tournaments.selectors import (
    chart_size_for,
    match_as_result,
    pairing_state,
    pods_for_draft,
    round_seed,
    standings_for,
)
from tournaments.services.audit import audit_log
from tournaments.services.locks import lock_tournament
from tournaments.signals import round_paired

#: docs/rules.md#round-length: playoff rounds are 90 minutes, the final is untimed.
PLAYOFF_ROUND_MINUTES = 90
RESULTS_THAT_ALLOW_REPAIR = frozenset({ResultKind.BYE, ResultKind.MISSED_ROUND})


def unfinished_tables(round_obj: Round) -> list[str]:
    """Matches of the round still waiting for a confirmed result; in a playoff, a match whose team
    dropped needs none (the opponent advances, MTR 2.10)."""
    pending = []
    matches = Match.objects.filter(round=round_obj).select_related("team_a", "team_b")
    for match in matches:
        if match.confirmed:
            continue
        if round_obj.kind == RoundKind.PLAYOFF and any(
            team is not None and team.dropped_after_round is not None for team in (match.team_a, match.team_b)
        ):
            continue
        pending.append(str(match.table) if match.table is not None else f"match {match.id}")
    return pending


def require_round_complete(round_obj: Round) -> None:
    pending = unfinished_tables(round_obj)
    if pending:
        raise ConflictError(
            _("round %(number)s still has unconfirmed results at table(s) %(pending)s")
            % {"number": round_obj.number, "pending": ", ".join(pending)},
            errors=[
                {
                    "field": "round",
                    "message": _("tables without a confirmed result: %(pending)s")
                    % {"pending": ", ".join(pending)},
                }
            ],
        )


def fix_event_structure(tournament: Tournament, active_teams: int) -> None:
    """Swiss rounds and cut from the MTR Appendix E chart, fixed when round 1 is paired; the
    organizer's own numbers, if set before, are kept (docs/rules.md#swiss-rounds)."""
    if tournament.swiss_rounds is not None and tournament.top_cut is not None:
        return
    try:
        plan = recommended_rounds(
            active_teams,
            team_event=tournament.is_team_event,
            booster_draft_playoff=tournament.booster_draft_playoff,
        )
    except PlayoffError as exc:
        if tournament.swiss_rounds is None:
            raise ConflictError(
                _("%(exc)s; set the number of Swiss rounds to run a smaller event") % {"exc": error_text(exc)}
            ) from exc
        tournament.top_cut = 0
    else:
        if tournament.swiss_rounds is None:
            tournament.swiss_rounds = plan.swiss_rounds
        if tournament.top_cut is None:
            tournament.top_cut = plan.playoff_size
    cut = tournament.cut_to_day_two
    if cut is not None and cut.after_round >= tournament.swiss_rounds:
        raise ConflictError(
            _("the cut to day 2 is after round %(after)s, but the event has %(rounds)s Swiss rounds")
            % {"after": cut.after_round, "rounds": tournament.swiss_rounds},
            errors=[{"field": "day_two", "message": _("after_round must be before the last Swiss round")}],
        )
    tournament.save(update_fields=["swiss_rounds", "top_cut"])


def create_round(
    *,
    tournament: Tournament,
    number: int,
    kind: str,
    seed: int,
    explanation: dict,
    length_minutes: int | None,
    manual_reason: str = "",
) -> Round:
    """Insert the round; a concurrent insert of the same number becomes a 409, not a 500.

    Announced here (``round_paired``) for every way a round is made (engine, manual, playoff): the
    documents app queues its pairings and result slips, which render after the pairing commits.
    """
    try:
        with transaction.atomic():
            new_round = Round.objects.create(
                tournament=tournament,
                number=number,
                kind=kind,
                seed=seed,
                explanation=explanation,
                length_minutes=length_minutes,
                manual_reason=manual_reason,
            )
    except IntegrityError:
        raise ConflictError(
            _("round %(number)s was just paired by someone else") % {"number": number}
        ) from None
    round_paired.send(sender=Round, round_id=new_round.pk)
    return new_round


#: The drop reason of a team that did not check in: stored in English, shown translated (the
#: manage page and the public search translate a stored reason that is a catalogue entry).
NOT_CHECKED_IN = gettext_noop("did not check in before round 1")

#: What to do with teams that did not check in, when round 1 of an event requiring it is paired.
UNCHECKED_CHOICES = ("drop", "pair")


def _settle_check_in(tournament: Tournament, actor, unchecked: str | None) -> None:
    """Round 1 of an event that requires check-in: teams not checked in are dropped or paired as
    the organizer says; without an answer, a 409 lists them (nothing silent)."""
    from tournaments.services.participation import team_drop, teams_not_checked_in

    missing = teams_not_checked_in(tournament)
    if not missing or unchecked == "pair":
        return
    if unchecked == "drop":
        for team in missing:
            team_drop(team=team, actor=actor, reason=NOT_CHECKED_IN)
        return
    names = ", ".join(team.name for team in missing)
    raise ConflictError(
        ngettext(
            '%(count)s team has not checked in: %(names)s. Pair again with "unchecked": "drop" to drop '
            'it or "pair" to pair it anyway.',
            '%(count)s teams have not checked in: %(names)s. Pair again with "unchecked": "drop" to drop '
            'them or "pair" to pair them anyway.',
            len(missing),
        )
        % {"count": len(missing), "names": names},
        errors=[
            {
                "field": "unchecked",
                "message": _("not checked in: %(names)s; choose drop or pair") % {"names": names},
            }
        ],
        extra={"unchecked_teams": [{"id": team.pk, "name": team.name} for team in missing]},
    )


def _prepare_swiss_round(
    tournament: Tournament, actor=None, unchecked: str | None = "pair"
) -> tuple[Tournament, int]:
    """Lock, then check that the next Swiss round may be paired; fixes the structure at round 1,
    after the teams that did not check in are settled."""
    tournament = lock_tournament(tournament)
    if tournament.status in (TournamentStatus.TOP_CUT, TournamentStatus.FINISHED):
        raise ConflictError(
            _("the event is in status %(status)s: no more Swiss rounds") % {"status": tournament.status}
        )
    previous = Round.objects.filter(tournament=tournament).newest()
    if previous is not None:
        require_round_complete(previous)
    number = previous.number + 1 if previous is not None else 1
    if number == 1:
        _settle_check_in(tournament, actor, unchecked)
        fix_event_structure(tournament, chart_size_for(tournament))
    if number > (tournament.swiss_rounds or 0):
        raise ConflictError(
            _("all %(swiss_rounds)s Swiss rounds are paired; build the playoff cut next")
            % {"swiss_rounds": tournament.swiss_rounds},
            errors=[{"field": "round", "message": _("no Swiss round left")}],
        )
    return tournament, number


def _start_running(tournament: Tournament, number: int) -> None:
    if number == 1 and tournament.status == TournamentStatus.REGISTRATION:
        tournament.status = TournamentStatus.RUNNING
        tournament.save(update_fields=["status"])


@transaction.atomic
def round_pair(*, tournament: Tournament, actor, unchecked: str | None = None) -> Round:
    """Pair the next round with the engine: a Swiss round, or during the top cut the next playoff
    round from the bracket winners.

    Refused (409) while the previous round has unconfirmed results, when every Swiss round is
    paired, or when the event is finished; for round 1 of an event requiring check-in, while a
    team has not checked in and ``unchecked`` says neither "drop" nor "pair". Teams with an open
    seat (forming) are never paired.
    """
    locked = lock_tournament(tournament)
    if locked.status == TournamentStatus.TOP_CUT:
        return _pair_next_playoff_round(locked, actor)
    tournament, number = _prepare_swiss_round(locked, actor, unchecked)
    state = pairing_state(tournament, number)
    seed = round_seed(tournament, number)
    pods = pairing_pods(tournament)
    pod_of_team: dict[int, int] = {}
    try:
        if pods is None:
            pairing = pair_round(state, round_number=number, seed=seed)
        else:
            in_pods = pair_round_in_pods(state, pods, round_number=number, seed=seed)
            pairing, pod_of_team = in_pods.pairing, dict(in_pods.pod_of_team)
    except PairingError as exc:
        raise ConflictError(error_text(exc)) from exc
    new_round = create_round(
        tournament=tournament,
        number=number,
        kind=RoundKind.SWISS,
        seed=seed,
        length_minutes=tournament.round_minutes,
        explanation={
            **explanation_lines(pairing.explanation),
            "bye_team": pairing.bye_team,
            "rematches": [list(pair) for pair in pairing.rematches],
            "unmet_keep_apart": [list(pair) for pair in pairing.unmet_keep_apart],
        },
    )
    Match.objects.bulk_create(
        _with_pod(
            Match.unopposed(
                round_obj=new_round,
                team_id=line.team_a,
                kind=ResultKind.BYE,
                games_per_match=tournament.games_per_match,
            )
            if line.team_b is None
            else Match(round=new_round, table=line.table, team_a_id=line.team_a, team_b_id=line.team_b),
            pod_of_team.get(line.team_a),
        )
        for line in pairing.tables
    )
    _start_running(tournament, number)
    audit_log(
        tournament=tournament,
        actor=actor,
        action="round_pair",
        obj=new_round,
        after={"number": number, "seed": seed, "tables": [list(p) for p in pairing.pairs]},
    )
    return new_round


def pairing_pods(tournament: Tournament) -> tuple[Pod, ...] | None:
    """The pods the next Swiss round is paired within: the latest draft's, in a Booster Draft
    event that has seated one and has not announced cross-pod pairing (Regular REL only)."""
    if tournament.format != Format.DRAFT:
        return None
    if tournament.cross_pod_pairing and tournament.rel == Rel.REGULAR:
        return None
    return tuple(Pod(row.number, tuple(row.team_ids)) for row in pods_for_draft(tournament)) or None


def _with_pod(match: Match, pod: int | None) -> Match:
    match.pod = pod
    return match


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
    tournament, number = _prepare_swiss_round(tournament)
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
    _start_running(tournament, number)
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


def playoff_bracket(round_obj: Round) -> list[tuple[PlayoffMatch, Match]]:
    """A stored playoff round as the engine's bracket matches, in bracket order."""
    seeds = {entry["slot"]: entry for entry in round_obj.explanation.get("bracket", [])}
    matches = (
        Match.objects.filter(round=round_obj).select_related("team_a", "team_b").order_by("bracket_slot")
    )
    return [
        (
            PlayoffMatch(
                seeds[match.bracket_slot]["seed_a"],
                seeds[match.bracket_slot]["seed_b"],
                match.team_a_id,
                match.team_b_id,
            ),
            match,
        )
        for match in matches
    ]


def explanation_lines(lines: Sequence[str]) -> dict[str, list]:
    """A round's written explanation twice: in English (``lines``, what the API and the event file
    give) and as messages (``messages``: msgid and values, ``common.translatable.as_data``) that the
    manage page shows in the reader's language, with team names for the team ids."""
    return {"lines": [str(line) for line in lines], "messages": [as_data(line) for line in lines]}


def store_playoff_round(
    *, tournament: Tournament, number: int, bracket: list[PlayoffMatch], lines: Sequence[str]
) -> Round:
    """Save a bracket round: byes (an empty slot) are scored at once; the final is untimed."""
    final = len(bracket) == 1
    new_round = create_round(
        tournament=tournament,
        number=number,
        kind=RoundKind.PLAYOFF,
        seed=round_seed(tournament, number),
        length_minutes=None if final else PLAYOFF_ROUND_MINUTES,
        explanation={
            **explanation_lines(lines),
            "bracket": [
                {"slot": slot, "seed_a": m.seed_a, "seed_b": m.seed_b}
                for slot, m in enumerate(bracket, start=1)
            ],
        },
    )
    rows = []
    for slot, entry in enumerate(bracket, start=1):
        assert entry.team_a is not None, "a bracket's empty slot is always side b"
        if entry.team_b is None:
            match = Match.unopposed(
                round_obj=new_round,
                team_id=entry.team_a,
                kind=ResultKind.BYE,
                games_per_match=tournament.games_per_match,
            )
            match.bracket_slot = slot
        else:
            match = Match(
                round=new_round, table=slot, bracket_slot=slot, team_a_id=entry.team_a, team_b_id=entry.team_b
            )
        rows.append(match)
    Match.objects.bulk_create(rows)
    return new_round


def _pair_next_playoff_round(tournament: Tournament, actor) -> Round:
    previous = Round.objects.filter(tournament=tournament).newest()
    if previous is None or previous.kind != RoundKind.PLAYOFF:
        raise ConflictError(_("the playoff bracket has not been built yet"))
    require_round_complete(previous)
    bracket = playoff_bracket(previous)
    if len(bracket) < 2:
        raise ConflictError(_("the final is the last round of the event"))
    winners = []
    for entry, match in bracket:
        dropped = (
            set()
            if match.confirmed
            else {
                t.id
                for t in (match.team_a, match.team_b)
                if t is not None and t.dropped_after_round is not None
            }
        )
        try:
            winners.append(playoff_winner(entry, match_as_result(match, previous.number), dropped))
        except PlayoffError as exc:
            raise ConflictError(
                _("table %(table)s: %(exc)s") % {"table": match.table, "exc": error_text(exc)}
            ) from exc
    next_bracket = next_playoff_round([entry for entry, _winner in bracket], winners)
    lines = [
        N_(
            "Playoff round %(round)s: seed %(seed_a)s (team %(team_a)s) v seed %(seed_b)s (team %(team_b)s).",
            round=previous.number + 1,
            seed_a=m.seed_a,
            team_a=m.team_a,
            seed_b=m.seed_b,
            team_b=m.team_b,
        )
        for m in next_bracket
    ]
    new_round = store_playoff_round(
        tournament=tournament, number=previous.number + 1, bracket=next_bracket, lines=lines
    )
    audit_log(
        tournament=tournament,
        actor=actor,
        action="round_pair",
        obj=new_round,
        after={"number": new_round.number, "bracket": [[m.team_a, m.team_b] for m in next_bracket]},
    )
    return new_round


@transaction.atomic
def round_delete(*, round_row: Round, actor) -> None:
    """Undo the latest round so it can be paired again (re-pair).

    Refused (409) once any match has a result other than a bye or a missed round, or if a later
    round exists. Teams that registered or dropped while this round was paired are treated as
    having done so before it, so the re-pair includes the late entries and leaves out the drops.
    """
    tournament = lock_tournament(round_row.tournament)
    current = Round.objects.filter(tournament=tournament).newest()
    if current is None or current.pk != round_row.pk:
        raise ConflictError(
            _("only the latest round (round %(current)s) can be deleted")
            % {"current": current.number if current else "-"}
        )
    reported = list(
        Match.objects.filter(round=round_row)
        .exclude(result_kind__in=[*RESULTS_THAT_ALLOW_REPAIR, ResultKind.PENDING])
        .values_list("table", flat=True)
    )
    if reported:
        raise ConflictError(
            _("round %(number)s has results at table(s) %(reported)s; it cannot be re-paired")
            % {"number": round_row.number, "reported": reported},
            errors=[{"field": "round", "message": _("results were already reported")}],
        )
    before: dict[str, Any] = {
        "number": round_row.number,
        "kind": round_row.kind,
        "seed": round_row.seed,
        "tables": list(Match.objects.filter(round=round_row).values_list("table", "team_a_id", "team_b_id")),
    }
    number, kind = round_row.number, round_row.kind
    try:
        round_row.delete()
    except ProtectedError:
        # Penalties (and other records judges keep) name the round: they outlive a re-pair.
        raise ConflictError(
            _("round %(number)s has penalties recorded; it cannot be re-paired") % {"number": number},
            errors=[{"field": "round", "message": _("penalties were recorded in this round")}],
        ) from None
    if kind == RoundKind.SWISS:
        Team.objects.filter(tournament=tournament, registered_after_round__gte=number).update(
            registered_after_round=number - 1
        )
    Team.objects.filter(tournament=tournament, dropped_after_round=number).update(
        dropped_after_round=number - 1
    )
    if number == 1:
        tournament.status = TournamentStatus.REGISTRATION
        tournament.save(update_fields=["status"])
    elif (
        kind == RoundKind.PLAYOFF
        and not Round.objects.filter(tournament=tournament, kind=RoundKind.PLAYOFF).exists()
    ):
        tournament.status = TournamentStatus.RUNNING
        tournament.save(update_fields=["status"])
    before["tables"] = [list(t) for t in before["tables"]]
    audit_log(
        tournament=tournament,
        actor=actor,
        action="round_delete",
        object_type="round",
        object_id=number,
        before=before,
    )


@transaction.atomic
def round_publish(*, round_row: Round, actor) -> Round:
    """Show the round's pairings to players and the public; publishing twice changes nothing."""
    if round_row.is_public:
        return round_row
    round_row.published_at = timezone.now()
    round_row.save(update_fields=["published_at"])
    audit_log(
        tournament=round_row.tournament,
        actor=actor,
        action="round_publish",
        obj=round_row,
        after={"number": round_row.number},
    )
    return round_row
