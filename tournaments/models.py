"""Events as stored: fields, constraints and tiny properties. Workflows live in services."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import Q

from tournaments.domain.event import MAX_AWARDED_BYES
from tournaments.domain.formats import unsanctioned_reason
from tournaments.enums import (
    Format,
    LateEntryMissedRounds,
    MatchResultKind,
    PenaltyPolicy,
    PercentageFloor,
    PlayoffPlayDraw,
    Rel,
    RoundKind,
    RoundStatus,
    StaffRole,
    TeamSide,
    TournamentStatus,
    UdcMode,
)


class Tournament(models.Model):
    name = models.CharField(max_length=200)
    date = models.DateField(null=True, blank=True)
    venue = models.CharField(max_length=200, blank=True)
    format = models.CharField(max_length=20, choices=Format.choices, default=Format.MODERN)
    rel = models.CharField(max_length=20, choices=Rel.choices, default=Rel.REGULAR)
    team_size = models.PositiveSmallIntegerField(default=2)
    games_per_match = models.PositiveSmallIntegerField(default=1)
    round_minutes = models.PositiveSmallIntegerField(default=50)
    swiss_rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Empty: from the MTR chart."
    )
    top_cut = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Empty: from the MTR chart.")
    tiebreakers = models.JSONField(default=list, blank=True)
    percentage_floor = models.CharField(
        max_length=4, choices=PercentageFloor.choices, default=PercentageFloor.ONE_THIRD
    )
    penalty_policy = models.CharField(
        max_length=20, choices=PenaltyPolicy.choices, default=PenaltyPolicy.MATCH_POINT
    )
    udc_mode = models.CharField(max_length=10, choices=UdcMode.choices, default=UdcMode.MTR)
    late_entry_missed_rounds = models.CharField(
        max_length=10, choices=LateEntryMissedRounds.choices, default=LateEntryMissedRounds.LOSS
    )
    late_entry_open = models.BooleanField(default=True)
    booster_draft_playoff = models.BooleanField(
        default=False,
        help_text="Limited: Top 8 with a Booster Draft playoff (MTR App. E: 4 rounds for 9-16).",
    )
    cross_pod_pairing = models.BooleanField(
        default=False, help_text="Booster Draft at Regular REL: pair across pods, as announced (MTR 7.6)."
    )
    playoff_play_draw = models.CharField(
        max_length=20, choices=PlayoffPlayDraw.choices, default=PlayoffPlayDraw.RANDOM
    )
    status = models.CharField(
        max_length=20, choices=TournamentStatus.choices, default=TournamentStatus.REGISTRATION
    )
    seed = models.BigIntegerField(help_text="Random seed for round 1 and final tiebreaks, fixed at creation.")
    decklist_deadline = models.DateTimeField(null=True, blank=True)
    decklists_published = models.BooleanField(default=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_team_event(self) -> bool:
        return self.team_size > 1

    @property
    def is_limited(self) -> bool:
        return self.format in Format.limited()

    @property
    def unsanctioned_reason(self) -> str | None:
        """Why the event can only run unsanctioned (MTR 3.2), or ``None``."""
        return unsanctioned_reason(
            format_id=self.format, team_size=self.team_size, format_label=self.get_format_display()
        )


class Staff(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="staff_roles")
    role = models.CharField(max_length=20, choices=StaffRole.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="staff_one_role_per_event")
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()})"


class Team(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=100)
    registered_after_round = models.PositiveSmallIntegerField(
        default=0, help_text="Rounds already paired when the team registered (late entry)."
    )
    dropped_after_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Last round the team is paired in; empty while active."
    )
    drop_reason = models.CharField(max_length=300, blank=True)
    disqualified = models.BooleanField(default=False)
    fixed_table = models.PositiveIntegerField(
        null=True, blank=True, help_text="Accessibility: always this table."
    )
    awarded_byes = models.PositiveSmallIntegerField(
        default=0,
        validators=[MaxValueValidator(MAX_AWARDED_BYES)],
        help_text="Premier-style awarded byes, entered before round 1: rounds 1 to this number are byes.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="team_name_unique_in_event")
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_active(self) -> bool:
        return self.dropped_after_round is None and not self.disqualified


class Player(models.Model):
    """A team member; ``tournament`` is repeated here so 'one team per event' is a database constraint."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=100)
    wizards_id = models.CharField(max_length=254, help_text="Wizards Account email or id.")
    legacy_dci = models.CharField(max_length=20, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    position = models.PositiveSmallIntegerField(default=0, help_text="Registration order: A=0, B=1, ...")

    class Meta:
        ordering = ["team_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "wizards_id"], name="player_one_team_per_event"),
            models.UniqueConstraint(
                fields=["tournament", "user"], condition=Q(user__isnull=False), name="user_one_team_per_event"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def last_name_key(self) -> str:
        parts = self.name.split()
        return (parts[-1] if parts else "").casefold()


class KeepApart(models.Model):
    """Teams the organizer asked not to pair against each other (family, travel mates)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="keep_apart")
    team_a = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    team_b = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=200, blank=True)

    def __str__(self) -> str:
        return f"keep apart {self.team_a_id} / {self.team_b_id}"


class DraftPod(models.Model):
    """A Booster Draft table: the teams in seat order (teammates side by side). ``draft`` counts
    the event's drafts (1, 2...); the Swiss rounds after a draft are paired within its pods."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pods")
    draft = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    team_ids = models.JSONField(default=list, help_text="Team ids in seat order.")
    seated_after_round = models.PositiveSmallIntegerField(
        default=0, help_text="Rounds already paired when the teams sat down for this draft."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["draft", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "draft", "number"], name="pod_number_once_per_draft"
            )
        ]

    def __str__(self) -> str:
        return f"draft {self.draft} pod {self.number}"


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=RoundKind.choices, default=RoundKind.SWISS)
    status = models.CharField(max_length=12, choices=RoundStatus.choices, default=RoundStatus.PAIRED)
    seed = models.BigIntegerField(help_text="Pairing seed, stored so the pairing can be reproduced.")
    explanation = models.JSONField(default=dict, blank=True)
    manual_reason = models.CharField(max_length=500, blank=True)
    length_minutes = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Empty: untimed (finals)."
    )
    started_at = models.DateTimeField(null=True, blank=True)
    time_up_recorded_at = models.DateTimeField(null=True, blank=True)
    time_check_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="ETA of the one time-up check still due; a queued check with another ETA is stale and stops.",
    )
    published_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class RoundPause(models.Model):
    """A stop of the round clock; the clock is rebuilt from these timestamps after any restart."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pauses")
    paused_at = models.DateTimeField()
    resumed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["paused_at"]

    def __str__(self) -> str:
        return f"pause {self.paused_at:%H:%M:%S}"


class Match(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveIntegerField(null=True, blank=True, help_text="Empty for a bye.")
    team_a = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="matches_as_a")
    team_b = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="matches_as_b"
    )
    bracket_slot = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Playoff position in the bracket."
    )
    pod = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Booster Draft: the pod the match was paired in."
    )
    result_kind = models.CharField(
        max_length=20, choices=MatchResultKind.choices, default=MatchResultKind.PENDING
    )
    team_a_wins = models.PositiveSmallIntegerField(default=0)
    team_b_wins = models.PositiveSmallIntegerField(default=0)
    draws = models.PositiveSmallIntegerField(default=0)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reported_at = models.DateTimeField(null=True, blank=True)
    confirmed = models.BooleanField(default=False)
    reported_side = models.CharField(
        max_length=1,
        choices=TeamSide.choices,
        blank=True,
        help_text="Which team's player reported an unconfirmed result; empty for staff reports.",
    )
    disputed = models.BooleanField(
        default=False, help_text="The two teams reported different results; a scorekeeper must decide."
    )
    pre_penalty_result = models.JSONField(
        null=True,
        blank=True,
        help_text="The result as it was before a penalty imposed one, restored if the penalty is cleared.",
    )
    version = models.PositiveIntegerField(default=1)
    seats = models.JSONField(
        default=dict,
        blank=True,
        help_text='Seat order this match: {"A": [primary_player_id, ...], "B": [...]}.',
    )
    time_called_at = models.DateTimeField(null=True, blank=True)
    active_team = models.CharField(max_length=1, choices=TeamSide.choices, blank=True)
    turns_completed = models.PositiveSmallIntegerField(
        default=0, help_text="End-of-round turns finished since time was called, turn 0 included."
    )
    extra_turns_since = models.DateTimeField(
        null=True,
        blank=True,
        help_text="The table's own end (round end plus its extensions), set by the time-up task once it passed.",
    )

    class Meta:
        ordering = ["round_id", "table", "id"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="match_table_unique_in_round"),
            models.CheckConstraint(condition=~Q(team_a=models.F("team_b")), name="match_two_different_teams"),
        ]

    def __str__(self) -> str:
        return f"Round {self.round.number} table {self.table}"

    @property
    def is_bye(self) -> bool:
        return self.team_b_id is None

    @property
    def has_result(self) -> bool:
        return self.result_kind != MatchResultKind.PENDING


class TimeExtension(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="extensions")
    minutes = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=300)
    granted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"+{self.minutes} min: {self.reason}"


class AuditEntry(models.Model):
    """Who did what, when and why; written by services, never edited or deleted through the app."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=60)
    object_type = models.CharField(max_length=40)
    object_id = models.CharField(max_length=40, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.action} {self.object_type} {self.object_id}"
