"""Choices for printed documents; importable anywhere without cycles."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class DocumentKind(models.TextChoices):
    PAIRINGS_BY_TABLE = "pairings_by_table", _("Pairings by table")
    PAIRINGS_BY_NAME = "pairings_by_name", _("Pairings by name")
    RESULT_SLIPS = "result_slips", _("Result slips")
    STANDINGS = "standings", _("Standings")
    DECKLISTS = "decklists", _("Decklist sheets")
    PENALTIES = "penalties", _("Penalty report")
    POD_SEATINGS = "pod_seatings", _("Draft pod seatings")

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
    PENDING = "pending", _("Waiting for a worker")
    RUNNING = "running", _("Rendering")
    DONE = "done", _("Ready")
    FAILED = "failed", _("Failed")
