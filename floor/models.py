"""Judges on the floor, as stored: calls, zones, notes, investigations and DQ reports.

Fields and constraints only; every write goes through ``floor.services`` (audited). A call's
"closed" status is not stored: it follows from the match's confirmed result (``floor.domain.calls``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy

from floor.domain.calls import LIVE_STATUSES, STORED_STATUSES

CALL_STATUS_CHOICES = [(status.value, status.value) for status in STORED_STATUSES]


class JudgeCall(models.Model):
    """A player (or staff for a table) asks for a judge at one table.

    ``player`` is the calling player's row (empty when staff raised it for the table, or when the
    teams' reports disagreed and the toolkit raised it, with no ``raised_by``): a player
    has at most one live call per match, a database constraint, so a double tap or a second
    phone cannot queue two.
    """

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey("tournaments.Match", on_delete=models.CASCADE, related_name="judge_calls")
    player = models.ForeignKey(
        "tournaments.Player", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Empty for a call the toolkit raised itself: a disputed result.",
    )
    reason = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=10, choices=CALL_STATUS_CHOICES, default="open")
    created_at = models.DateTimeField()
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    claimed_at = models.DateTimeField(null=True, blank=True)
    escalated_at = models.DateTimeField(null=True, blank=True)
    escalated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    note = models.TextField(blank=True)
    penalty = models.ForeignKey(
        "penalties.Penalty", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    extension = models.ForeignKey(
        "tournaments.TimeExtension", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["tournament", "status"], name="judge_call_event_status")]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "player"],
                condition=Q(status__in=[status.value for status in LIVE_STATUSES], player__isnull=False),
                name="judge_call_one_live_per_player_match",
            )
        ]

    def __str__(self) -> str:
        return f"judge call {self.pk} at match {self.match_id}"


class Zone(models.Model):
    """Tables ``first_table``..``last_table`` and the judges who work them at the end of a round."""

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")
    name = models.CharField(max_length=60)
    first_table = models.PositiveIntegerField()
    last_table = models.PositiveIntegerField()
    judges = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="+")

    class Meta:
        ordering = ["tournament_id", "first_table"]
        constraints = [
            models.CheckConstraint(condition=Q(last_table__gte=models.F("first_table")), name="zone_range"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.first_table}-{self.last_table})"


class Investigation(models.Model):
    """A head judge's investigation: its notes and statements (``Note.investigation``) and the decision."""

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")
    title = models.CharField(max_length=200)
    player = models.ForeignKey(
        "tournaments.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    penalty = models.ForeignKey(
        "penalties.Penalty", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    opened_at = models.DateTimeField()
    decision = models.TextField(blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-opened_at", "-id"]

    def __str__(self) -> str:
        return self.title


class NoteKind(models.TextChoices):
    NOTE = "note", gettext_lazy("Judge's note")
    STATEMENT = "statement", gettext_lazy("Statement")


class Note(models.Model):
    """A judge's timestamped, signed note on a match, a penalty or a player (or a statement taken
    from someone, ``given_by``). Judges of the event read them; a note the head judge locked is
    for the head judge only. Notes are never edited: a correction is another note."""

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey(
        "tournaments.Match", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    penalty = models.ForeignKey(
        "penalties.Penalty", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    player = models.ForeignKey(
        "tournaments.Player", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    investigation = models.ForeignKey(
        Investigation, null=True, blank=True, on_delete=models.CASCADE, related_name="notes"
    )
    kind = models.CharField(max_length=10, choices=NoteKind.choices, default=NoteKind.NOTE)
    given_by = models.CharField(max_length=100, blank=True, help_text="Whose statement this is.")
    text = models.TextField()
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()
    locked_at = models.DateTimeField(null=True, blank=True)
    locked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(match__isnull=False)
                | Q(penalty__isnull=False)
                | Q(player__isnull=False)
                | Q(investigation__isnull=False),
                name="note_is_about_something",
            )
        ]

    def __str__(self) -> str:
        return f"note {self.pk} by {self.author_id}"

    @property
    def locked(self) -> bool:
        return self.locked_at is not None


class DisqualificationReport(models.Model):
    """The report the head judge sends to Wizards for a Disqualification, kept with the penalty:
    the statements as written when it was filed, and the PDF rendered from them."""

    penalty = models.OneToOneField("penalties.Penalty", on_delete=models.PROTECT, related_name="+")
    player_statement = models.TextField(blank=True)
    head_judge_statement = models.TextField(blank=True)
    file = models.FileField(upload_to="dq-reports/")
    filed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    filed_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"DQ report for penalty {self.penalty_id}"
