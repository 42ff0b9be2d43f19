"""Choices shared by models, services and the API; importable anywhere without cycles.

The value sets of event settings and match sides are defined once, in the pure core
(``tournaments.domain.choices``), and re-exported here; those below belong to the Django side only.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.domain.choices import (
    Format,
    Language,
    LateEntryMissedRounds,
    PenaltyPolicy,
    PercentageFloor,
    PlayoffPlayDraw,
    Rel,
    TeamSide,
    Tiebreaker,
    UdcMode,
)
from tournaments.domain.result_state import EntrySource
from tournaments.domain.results import ResultKind

__all__ = [
    "EntrySource",
    "ResultKind",
    "Format",
    "Language",
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
    REGISTRATION = "registration", _("Registration")
    RUNNING = "running", _("Swiss rounds")
    TOP_CUT = "top_cut", _("Top cut")
    FINISHED = "finished", _("Finished")


class StaffRole(models.TextChoices):
    ORGANIZER = "organizer", _("Organizer")
    HEAD_JUDGE = "head_judge", _("Head judge")
    JUDGE = "judge", _("Judge")
    SCOREKEEPER = "scorekeeper", _("Scorekeeper")


class RoundKind(models.TextChoices):
    SWISS = "swiss", _("Swiss")
    PLAYOFF = "playoff", _("Playoff")


TIEBREAKER_NAMES = set(Tiebreaker.values)
