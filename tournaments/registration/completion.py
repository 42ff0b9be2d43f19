"""A team that takes its last seat: from then on it is paired, and a late one has its missed rounds."""

from __future__ import annotations

from django.utils import timezone

from tournaments.domain.team_forming import InvitationStatus
from tournaments.enums import LateEntryMissedRounds, ResultKind, RoundKind
from tournaments.models import Match, Round, Team, Tournament


def team_completed(tournament: Tournament, team: Team) -> int:
    """The step every team goes through when its last seat is taken (registered whole, by the last
    invitation or join code accepted, formed from the pool); callers hold the event lock.

    After Swiss rounds were paired the team is a late entry from now: registered after them, each
    one recorded as missed (``record_missed_rounds``, docs/rules.md#late-entry). No seat is left,
    so the invitations still pending lapse. Returns the number of rounds it missed.
    """
    missed = list(Round.objects.filter(tournament=tournament, kind=RoundKind.SWISS).order_by("number"))
    if missed:
        if team.registered_after_round != len(missed):
            team.registered_after_round = len(missed)
            team.save(update_fields=["registered_after_round"])
        record_missed_rounds(tournament, team, missed)
    team.invitations.filter(status=InvitationStatus.PENDING).update(
        status=InvitationStatus.CANCELLED, answered_at=timezone.now()
    )
    return len(missed)


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
