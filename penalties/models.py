"""Penalties as stored: one row per penalty given to one player, with the core's decision copied in.

The row keeps everything the core decided (steps, effects, proposal versus issued penalty) so the
record reads the same after the rules code changes, and so what other apps read
(``penalties.selectors``) is a plain filter over stored numbers, never a re-run of the rules.
Nothing here writes match results or teams: the services do that through the tournaments services.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy

from common.i18n import localize
from common.translatable import from_data
from penalties.domain import CATALOGUE, TeamEffect
from penalties.domain import Penalty as PenaltyKind

PENALTY_CHOICES = [(kind.value, gettext_lazy(kind.label)) for kind in PenaltyKind]
"""The IPG's names, shown in the reader's language (``get_penalty_display``); the API keeps English."""
INFRACTION_CHOICES = [(code, f"{code} {infraction.name}") for code, infraction in CATALOGUE.items()]
TEAM_EFFECT_CHOICES = [(effect.value, effect.value.replace("_", " ")) for effect in TeamEffect]


class HeadJudgeReview(models.TextChoices):
    """A Disqualification needs the head judge (MTR 1.5, IPG 4): one a judge issues is a proposal
    with no effect until the head judge confirms it, or changes it (a new penalty replaces it)."""

    NOT_NEEDED = "", "Not needed"
    PENDING = "pending", "Proposed, awaiting the head judge"
    CONFIRMED = "confirmed", "Confirmed by the head judge"
    CHANGED = "changed", "Changed by the head judge"


class PenaltyQuerySet(models.QuerySet):
    def in_force(self) -> PenaltyQuerySet:
        """Penalties that count: not overturned, and not a proposal still awaiting the head judge
        or replaced by the head judge's decision."""
        return self.filter(
            overturned=False, review__in=[HeadJudgeReview.NOT_NEEDED, HeadJudgeReview.CONFIRMED]
        )


class Penalty(models.Model):
    """A penalty recorded against one player [IPG 1]; its effects land on the team [rules §5.5].

    ``match`` is the match the effects land on (empty when the team has no match in ``round``, e.g.
    a bye). ``simultaneous_with`` groups penalties given in one ruling (both teams' decks failing
    the same deck check): simultaneous losses on both teams change no score [IPG 1.1].
    ``context`` holds the circumstances the judge established, as sent, so the proposal can be
    re-read. An overturned penalty stays, marked, for the audit trail; every read skips it.
    """

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="penalties"
    )
    round = models.ForeignKey("tournaments.Round", on_delete=models.PROTECT, related_name="penalties")
    match = models.ForeignKey(
        "tournaments.Match", null=True, blank=True, on_delete=models.PROTECT, related_name="penalties"
    )
    player = models.ForeignKey("tournaments.Player", on_delete=models.PROTECT, related_name="penalties")
    team = models.ForeignKey("tournaments.Team", on_delete=models.PROTECT, related_name="penalties")
    simultaneous_with = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="simultaneous"
    )
    infraction = models.CharField(max_length=12, choices=INFRACTION_CHOICES)
    description = models.TextField()
    judge = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    day = models.PositiveSmallIntegerField(default=1, help_text="Event day (multi-day events reset counts).")

    base_penalty = models.CharField(max_length=20, choices=PENALTY_CHOICES)
    proposed_penalty = models.CharField(max_length=20, choices=PENALTY_CHOICES)
    penalty = models.CharField(max_length=20, choices=PENALTY_CHOICES)
    upgraded = models.BooleanField(default=False)
    explanation = models.TextField(help_text="The steps in English, as the API gives them.")
    explanation_message = models.JSONField(
        null=True,
        blank=True,
        help_text="The same steps as a message (common.translatable.as_data), shown in the reader's "
        "language; empty on records made before it was kept.",
    )
    steps = models.JSONField(default=list)
    notes = models.JSONField(default=list, blank=True)
    notes_message = models.JSONField(
        null=True,
        blank=True,
        help_text="The same notes as messages (common.translatable.as_data), shown in the reader's "
        "language; empty on records made before they were kept.",
    )
    team_effect = models.CharField(max_length=20, choices=TEAM_EFFECT_CHOICES, default=TeamEffect.NONE)
    match_point_adjustment = models.SmallIntegerField(default=0)
    extra_turns = models.PositiveSmallIntegerField(default=0)
    drops_team = models.BooleanField(default=False)
    applies_to_next_match = models.BooleanField(default=False)
    offer_ftmgs_to = models.JSONField(default=list, blank=True)
    context = models.JSONField(default=dict, blank=True)

    deviated = models.BooleanField(default=False)
    deviation_reason = models.TextField(blank=True)

    overturned = models.BooleanField(default=False)
    overturned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    overturned_at = models.DateTimeField(null=True, blank=True)
    overturn_reason = models.TextField(blank=True)

    review = models.CharField(
        max_length=10, choices=HeadJudgeReview.choices, default=HeadJudgeReview.NOT_NEEDED, blank=True
    )
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    review_reason = models.TextField(blank=True)
    replaced_by = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="replaces",
        help_text="The head judge's penalty that replaced this proposal.",
    )

    objects = PenaltyQuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(fields=["tournament", "team"], name="penalty_event_team"),
            models.Index(fields=["tournament", "player"], name="penalty_event_player"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(day__gte=1), name="penalty_day_from_one"),
            models.CheckConstraint(
                condition=Q(deviated=False) | ~Q(deviation_reason=""), name="penalty_deviation_has_reason"
            ),
            models.CheckConstraint(
                condition=Q(overturned=False) | ~Q(overturn_reason=""), name="penalty_overturn_has_reason"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.infraction} {self.get_penalty_display()} to {self.player_id}"

    @property
    def explanation_text(self) -> str:
        """Why this penalty, in the active language; a record without its message, as written."""
        if self.explanation_message is None:
            return self.explanation
        return localize(from_data(self.explanation_message))

    @property
    def notes_text(self) -> list[str]:
        """The notes in the active language; a record without their messages, as written."""
        if self.notes_message is None:
            return list(self.notes)
        return [localize(from_data(note)) for note in self.notes_message]

    @property
    def in_force(self) -> bool:
        return not self.overturned and self.review in (HeadJudgeReview.NOT_NEEDED, HeadJudgeReview.CONFIRMED)

    @property
    def awaiting_head_judge(self) -> bool:
        return self.review == HeadJudgeReview.PENDING

    @property
    def moment(self) -> int:
        """Penalties with the same moment were given in one ruling (see ``simultaneous_with``)."""
        return self.simultaneous_with_id or self.pk
