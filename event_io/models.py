"""A read-only mirror: the laptop that runs an event pushes its event file to a public server.

Two rows, one on each side. On the laptop, ``MirrorTarget`` says where the event goes and how the
last push went; on the server, ``MirroredEvent`` says which event is a copy, whose it is and which
push it holds. The pushed document is the ``twohg-event`` file of ``export_event``, nothing else:
the mirror is an import, replaced by the next one (docs/deploy.md, "One laptop in the hall").
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from common.i18n import localize
from common.translatable import from_data


class MirrorTarget(models.Model):
    """Laptop side: the server this event is pushed to, and the state of the pushes."""

    tournament = models.OneToOneField("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")
    url = models.URLField(max_length=300, help_text="The server's base URL, e.g. https://events.example.org")
    token = models.CharField(max_length=200, help_text="An API token of an account on the server.")
    key = models.CharField(max_length=32, help_text="Names this event's copy on the server (random hex).")
    active = models.BooleanField(default=True)
    sequence = models.PositiveBigIntegerField(
        default=0, help_text="Number of the last push made; the server keeps only a higher one."
    )
    remote_id = models.PositiveBigIntegerField(null=True, blank=True, help_text="The copy's event id there.")
    pushed_generation = models.BigIntegerField(
        null=True, blank=True, help_text="The event's generation (tournaments/live.py) the last push carried."
    )
    last_pushed_at = models.DateTimeField(null=True, blank=True)
    last_error = models.JSONField(
        null=True,
        blank=True,
        help_text="Why the last push failed (common.translatable.as_data); null after a success.",
    )
    failures = models.PositiveIntegerField(default=0, help_text="Failed pushes in a row (the back-off).")
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"event {self.tournament_id} → {self.url}"

    def error_text(self) -> str | None:
        """Why the last push failed, in the reader's language; ``None`` after a success."""
        return None if self.last_error is None else localize(from_data(self.last_error))


class MirroredEvent(models.Model):
    """Server side: this event is a copy of one run elsewhere; every write to it is refused."""

    key = models.CharField(max_length=32, unique=True)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # SET_NULL: replacing the copy deletes the old event (with all its rows) and imports the new
    # one under the same id, inside one transaction.
    tournament = models.OneToOneField(
        "tournaments.Tournament", null=True, on_delete=models.SET_NULL, related_name="+"
    )
    sequence = models.PositiveBigIntegerField(help_text="The push this copy holds.")
    updated_at = models.DateTimeField(help_text="When that push arrived.")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"mirror {self.key} (event {self.tournament_id}, push {self.sequence})"
