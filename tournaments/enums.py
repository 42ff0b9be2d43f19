"""Choices shared by models, services and the API; importable anywhere without cycles."""

from django.db import models


class Format(models.TextChoices):
    STANDARD = "standard", "Standard"
    PIONEER = "pioneer", "Pioneer"
    MODERN = "modern", "Modern"
    LEGACY = "legacy", "Legacy"
    VINTAGE = "vintage", "Vintage"
    PAUPER = "pauper", "Pauper"
    SEALED = "sealed", "Sealed"
    DRAFT = "draft", "Booster Draft"

    @classmethod
    def limited(cls) -> set[str]:
        return {cls.SEALED, cls.DRAFT}


class REL(models.TextChoices):
    REGULAR = "regular", "Regular"
    COMPETITIVE = "competitive", "Competitive"
    PROFESSIONAL = "professional", "Professional"


class PenaltyPolicy(models.TextChoices):
    MATCH_POINT = "match_point", "2HG match-point penalty (judges' guide)"
    IPG = "ipg", "Current IPG only"


class UDCMode(models.TextChoices):
    MTR = "mtr", "MTR: no card in two teammates' decks"
    LEGACY4 = "legacy4", "Legacy: at most 4 copies across the team"


class PercentageFloor(models.TextChoices):
    ONE_THIRD = "1/3", "1/3"
    MTR_033 = "0.33", "0.33 (as the MTR prints it)"


class LateEntryMissedRounds(models.TextChoices):
    LOSS = "loss", "Match losses"
    BYE = "bye", "Byes"


class PlayoffPlayDraw(models.TextChoices):
    RANDOM = "random", "Random team chooses"
    HIGHER_SEED = "higher_seed", "Higher seed chooses"


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


class MatchResultKind(models.TextChoices):
    """How a match's result came about; the game counts say who won."""

    PENDING = "pending", "Not yet reported"
    PLAYED = "played", "Played"
    BYE = "bye", "Bye"
    MISSED_ROUND_LOSS = "missed_round_loss", "Late entry: missed round (loss)"
    PENALTY_LOSS = "penalty_loss", "Match loss by penalty"
    DOUBLE_LOSS = "double_loss", "Double match loss by penalty"


class TeamSide(models.TextChoices):
    A = "A", "Team A"
    B = "B", "Team B"


TEAM_EVENT_TIEBREAKERS = ["match_points", "omw"]
INDIVIDUAL_EVENT_TIEBREAKERS = ["match_points", "omw", "gw", "ogw"]
TIEBREAKER_NAMES = {"match_points", "omw", "gw", "ogw"}
