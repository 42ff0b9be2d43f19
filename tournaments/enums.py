"""Choices shared by models, services and the API; importable anywhere without cycles.

The value sets of event settings and match sides are defined once, in the pure core
(``tournaments.domain.choices``), and re-exported here; those below belong to the Django side only.
"""

from django.db import models

from tournaments.domain.choices import (
    Format,
    LateEntryMissedRounds,
    PenaltyPolicy,
    PercentageFloor,
    PlayoffPlayDraw,
    Rel,
    TeamSide,
    Tiebreaker,
    UdcMode,
)
from tournaments.domain.event import INDIVIDUAL_TIEBREAKERS, TEAM_TIEBREAKERS

__all__ = [
    "Format",
    "LateEntryMissedRounds",
    "PenaltyPolicy",
    "PercentageFloor",
    "PlayoffPlayDraw",
    "Rel",
    "TeamSide",
    "Tiebreaker",
    "UdcMode",
]


class TournamentStatus(models.TextChoices):
    REGISTRATION = "registration", "Registration"
    RUNNING = "running", "Swiss rounds"
    TOP_CUT = "top_cut", "Top cut"
    FINISHED = "finished", "Finished"


class StaffRole(models.TextChoices):
    ORGANIZER = "organizer", "Organizer"
    HEAD_JUDGE = "head_judge", "Head judge"
    JUDGE = "judge", "Judge"
    SCOREKEEPER = "scorekeeper", "Scorekeeper"


class RoundKind(models.TextChoices):
    SWISS = "swiss", "Swiss"
    PLAYOFF = "playoff", "Playoff"


class RoundStatus(models.TextChoices):
    PAIRED = "paired", "Paired (staff only)"
    PUBLISHED = "published", "Published"
    FINISHED = "finished", "All results in"


class MatchResultKind(models.TextChoices):
    """How a match's result came about; the game counts say who won."""

    PENDING = "pending", "Not yet reported"
    PLAYED = "played", "Played"
    BYE = "bye", "Bye"
    MISSED_ROUND_LOSS = "missed_round_loss", "Late entry: missed round (loss)"
    PENALTY_LOSS = "penalty_loss", "Match loss by penalty"
    DOUBLE_LOSS = "double_loss", "Double match loss by penalty"


TEAM_EVENT_TIEBREAKERS = [str(t) for t in TEAM_TIEBREAKERS]
INDIVIDUAL_EVENT_TIEBREAKERS = [str(t) for t in INDIVIDUAL_TIEBREAKERS]
TIEBREAKER_NAMES = set(Tiebreaker.values)
