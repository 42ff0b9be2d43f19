"""Choices for printed documents; importable anywhere without cycles."""

from django.db import models


class DocumentKind(models.TextChoices):
    PAIRINGS_BY_TABLE = "pairings_by_table", "Pairings by table"
    PAIRINGS_BY_NAME = "pairings_by_name", "Pairings by name"
    RESULT_SLIPS = "result_slips", "Result slips"
    STANDINGS = "standings", "Standings"
    DECKLISTS = "decklists", "Decklist sheets"
    PENALTIES = "penalties", "Penalty report"
    POD_SEATINGS = "pod_seatings", "Draft pod seatings"

    @classmethod
    def per_round(cls) -> set[str]:
        """Kinds printed for one round (the round defaults to the latest one)."""
        return {cls.PAIRINGS_BY_TABLE, cls.PAIRINGS_BY_NAME, cls.RESULT_SLIPS, cls.STANDINGS}

    @classmethod
    def public(cls) -> set[str]:
        """Kinds anyone may download once their round is published; the rest is staff only."""
        return {cls.PAIRINGS_BY_TABLE, cls.PAIRINGS_BY_NAME, cls.STANDINGS}


class Paper(models.TextChoices):
    A4 = "A4", "A4"
    LETTER = "letter", "US Letter"


class JobStatus(models.TextChoices):
    PENDING = "pending", "Waiting for a worker"
    RUNNING = "running", "Rendering"
    DONE = "done", "Ready"
    FAILED = "failed", "Failed"
