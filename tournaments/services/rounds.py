"""Pairing, re-pairing and publishing rounds.

Every pairing is computed by the Swiss engine (``tournaments.domain``); this module loads the event,
checks the preconditions that need the database (previous round complete, Swiss rounds left), and
stores the engine's answer. The tournament row is locked first, so two simultaneous "pair next
round" calls run one after the other and the second finds the round already there (409); the
(tournament, number) unique constraint is the last line of defence. The organizer's pairing by
hand is ``services.manual_pairing``; the check-in settled at round 1 is ``services.participation``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import ConflictError
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
)
from tournaments.services.audit import audit_log
from tournaments.services.locks import lock_tournament
from tournaments.services.participation import settle_check_in
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


def prepare_swiss_round(
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
        settle_check_in(tournament, actor, unchecked)
        fix_event_structure(tournament, chart_size_for(tournament))
    if number > (tournament.swiss_rounds or 0):
        raise ConflictError(
            _("all %(swiss_rounds)s Swiss rounds are paired; build the playoff cut next")
            % {"swiss_rounds": tournament.swiss_rounds},
            errors=[{"field": "round", "message": _("no Swiss round left")}],
        )
    return tournament, number


def start_running(tournament: Tournament, number: int) -> None:
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
    tournament, number = prepare_swiss_round(locked, actor, unchecked)
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
    start_running(tournament, number)
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
