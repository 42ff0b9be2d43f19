"""A team that takes its last seat: what the rules record for the rounds it missed."""

from __future__ import annotations

from tournaments.enums import LateEntryMissedRounds, ResultKind
from tournaments.models import Match, Round, Team, Tournament


def record_missed_rounds(tournament: Tournament, team: Team, rounds: list[Round]) -> None:
    """A late entry's missed rounds: match losses with no opponent (docs/rules.md#late-entry), or
    byes if the event chose so; either way a played round for the team's own MW% and nobody's
    opponent."""
    kind = (
        ResultKind.BYE
        if tournament.late_entry_missed_rounds == LateEntryMissedRounds.BYE
        else ResultKind.MISSED_ROUND
    )
    Match.objects.bulk_create(
        Match.unopposed(
            round_obj=round_obj, team_id=team.pk, kind=kind, games_per_match=tournament.games_per_match
        )
        for round_obj in rounds
    )
