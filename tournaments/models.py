"""Events as stored: fields, constraints and tiny properties. Workflows live in services."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from tournaments.domain.choices import Tiebreaker
from tournaments.domain.day_two import DayTwo, DayTwoTiebreakers
from tournaments.domain.event import MAX_AWARDED_BYES, default_tiebreakers
from tournaments.domain.formats import unsanctioned_reason
from tournaments.domain.results import games_to_win
from tournaments.domain.round_phase import PHASE_LABELS, RoundPhase, is_public, round_phase
from tournaments.domain.team_forming import (
    JOIN_CODE_LENGTH,
    InvitationStatus,
    TeamStatus,
    grouped_join_code,
    team_status,
)
from tournaments.domain.text import last_name_key
from tournaments.enums import (
    EntrySource,
    Format,
    Language,
    LateEntryMissedRounds,
    PenaltyPolicy,
    PercentageFloor,
    PlayoffPlayDraw,
    Rel,
    ResultKind,
    RoundKind,
    StaffRole,
    TeamSide,
    TournamentStatus,
    UdcMode,
)


def default_time_zone() -> str:
    """A new event's time zone: the site's ``TIME_ZONE`` (a deployment's city; UTC unless set)."""
    return settings.TIME_ZONE


class Tournament(models.Model):
    name = models.CharField(max_length=200)
    date = models.DateField(null=True, blank=True)
    venue = models.CharField(max_length=200, blank=True)
    language = models.CharField(
        max_length=10,
        choices=Language.choices,
        default=Language.EN,
        help_text="Printed documents and the projector clock are in this language.",
    )
    time_zone = models.CharField(
        max_length=64,
        default=default_time_zone,
        help_text="IANA name, e.g. Asia/Tokyo: the event's local time.",
    )
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
    check_in_required = models.BooleanField(
        default=False, help_text="Teams check in (a player on their phone, or staff) before round 1."
    )
    booster_draft_playoff = models.BooleanField(
        default=False,
        help_text="Limited: Top 8 with a Booster Draft playoff (MTR App. E: 4 rounds for 9-16).",
    )
    cross_pod_pairing = models.BooleanField(
        default=False, help_text="Booster Draft at Regular REL: pair across pods, as announced (MTR 7.6)."
    )
    day_two = models.JSONField(
        null=True,
        blank=True,
        default=None,
        help_text='A cut to day 2: {"after_round": R, "min_match_points": P}; empty: no cut.',
    )
    day_two_tiebreakers = models.CharField(
        max_length=10,
        choices=DayTwoTiebreakers.choices,
        default=DayTwoTiebreakers.MTR,
        help_text="Eliminated teams' tiebreakers: as the MTR, or frozen at the cut.",
    )
    player_reporting = models.BooleanField(
        default=True,
        help_text="Players report results on their phones (the other team confirms); off: paper slips only.",
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
    def ranking_tiebreakers(self) -> tuple[Tiebreaker, ...]:
        """What this event ranks by: the organizer's list, else the default for its team size."""
        return tuple(Tiebreaker(name) for name in self.tiebreakers) or default_tiebreakers(self.team_size)

    @property
    def is_limited(self) -> bool:
        return self.format in Format.limited()

    @property
    def cut_to_day_two(self) -> DayTwo | None:
        return DayTwo.from_setting(self.day_two, self.day_two_tiebreakers)

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


class TeamQuerySet(models.QuerySet):
    def with_heads(self) -> TeamQuerySet:
        return self.annotate(heads=models.Count("players"))

    def formed(self) -> TeamQuerySet:
        """Teams with every seat taken: the only ones paired, counted or ranked."""
        return self.with_heads().filter(heads__gte=models.F("tournament__team_size"))

    def forming(self) -> TeamQuerySet:
        return self.with_heads().filter(heads__lt=models.F("tournament__team_size"))


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
    join_code = models.CharField(
        max_length=JOIN_CODE_LENGTH,
        null=True,
        blank=True,
        unique=True,
        help_text="What a teammate types (or the invite link carries) to join a team players formed.",
    )
    captain = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The player who created the team; they may cancel its invitations.",
    )
    checked_in_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = TeamQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                "tournament",
                Lower("name"),
                name="team_name_unique_in_event",
                violation_error_message="a team with this name is already registered in this event",
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def grouped_join_code(self) -> str:
        """The join code as a player reads it out or types it ("ACDE-FGHJ-KMNP")."""
        return grouped_join_code(self.join_code) if self.join_code else ""

    @property
    def is_active(self) -> bool:
        return self.dropped_after_round is None and not self.disqualified

    @property
    def status(self) -> TeamStatus:
        """Forming while a seat is open; reads the prefetched players when there are some."""
        heads = getattr(self, "heads", None)
        if heads is None:
            heads = len(self.players.all())
        return team_status(heads, self.tournament.team_size)


class Disqualification(models.Model):
    """The record of a team's standing disqualification: what the DQ replaced, so a reinstatement
    on appeal gives the team back the drop it had before (docs/rules.md#disqualification).

    It exists exactly while ``team.disqualified`` is set: ``team_disqualify`` writes both,
    ``team_reinstate`` clears both; the audit log keeps the history of each.
    """

    team = models.OneToOneField(
        Team, on_delete=models.CASCADE, primary_key=True, related_name="disqualification"
    )
    dropped_after_round_before = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The team's drop before the DQ; empty: it was still playing."
    )
    drop_reason_before = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"disqualification of team {self.team_id}"


class Player(models.Model):
    """A team member; ``tournament`` is repeated here so 'one team per event' is a database constraint."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=100)
    name_reading = models.CharField(
        max_length=100,
        blank=True,
        help_text="How the name is read (kana, or Latin letters), for a Japanese name: lists by name sort by it.",
    )
    wizards_id = models.CharField(
        max_length=254,
        blank=True,
        help_text="Wizards Account email or id; empty until a player who joined by invitation gives it.",
    )
    legacy_dci = models.CharField(max_length=20, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    position = models.PositiveSmallIntegerField(default=0, help_text="Registration order: A=0, B=1, ...")

    class Meta:
        ordering = ["team_id", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "wizards_id"],
                condition=~Q(wizards_id=""),
                name="player_one_team_per_event",
            ),
            models.UniqueConstraint(
                fields=["tournament", "user"], condition=Q(user__isnull=False), name="user_one_team_per_event"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def last_name_key(self) -> str:
        return last_name_key(self.name)


class TeamInvitation(models.Model):
    """A seat offered to one account; it joins only when that player accepts (docs/decisions.md "Team formation").

    ``name`` and ``wizards_id`` are what the inviter wrote; the invitee may correct them on accepting.
    An account the inviter named by a Wizards Account it once played under (not by its login)
    is never shown by its login to them (``named_by_login`` false, ``shown_as``): the login is
    the account's own to give.
    With ``player``, the seat is already taken by a player staff registered at the desk and the
    invitation asks the account to be linked to that player: the team plays either way, the
    account sees it only once it accepts.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="invitations")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="invitations")
    player = models.ForeignKey(
        "Player", null=True, blank=True, on_delete=models.CASCADE, related_name="account_invitations"
    )
    invitee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    name = models.CharField(max_length=100, blank=True)
    wizards_id = models.CharField(max_length=254, blank=True)
    named_by_login = models.BooleanField(
        default=True, help_text="False: the inviter named a Wizards Account, and never sees the login."
    )
    status = models.CharField(
        max_length=10, choices=InvitationStatus.choices, default=InvitationStatus.PENDING
    )
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "invitee"],
                condition=Q(status="pending"),
                name="invitation_one_pending_per_team_and_player",
            )
        ]

    def __str__(self) -> str:
        return f"invitation of {self.invitee_id} to {self.team_id} ({self.status})"

    @property
    def shown_as(self) -> str:
        """Who is invited, in words the team may see: the login the inviter typed, else the name
        and Wizards Account they typed."""
        if self.named_by_login:
            return self.invitee.username
        return self.name or self.wizards_id


class PoolEntry(models.Model):
    """A player looking for a partner in this event (the partner pool)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pool")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    name = models.CharField(max_length=100)
    name_reading = models.CharField(
        max_length=100, blank=True, help_text="The name's reading, which the player's seat on a team takes."
    )
    wizards_id = models.CharField(max_length=254, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name_plural = "pool entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="pool_once_per_event_and_player")
        ]

    def __str__(self) -> str:
        return self.name


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


class RoundQuerySet(models.QuerySet):
    def public(self) -> RoundQuerySet:
        """Rounds players and the public may see: the queryset form of ``Round.is_public``."""
        return self.filter(published_at__isnull=False)

    def finished(self) -> RoundQuerySet:
        """Rounds with every result in (published or not: staff documents need them too)."""
        return self.filter(finished_at__isnull=False)

    def newest(self) -> Round | None:
        """The latest of these rounds, by number (``None`` if there is none): "the current round"
        is ``tournament.rounds.newest()``, the one the public sees ``tournament.rounds.public().newest()``."""
        return self.order_by("-number").first()

    def newest_number(self) -> int:
        """The latest of these rounds' number, 0 if there is none (one column read)."""
        return self.order_by("-number").values_list("number", flat=True).first() or 0


class Round(models.Model):
    """A round's phase is derived (``phase``) from the timestamps below, never stored."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=RoundKind.choices, default=RoundKind.SWISS)
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
    finished_at = models.DateTimeField(
        null=True, blank=True, help_text="When the last result came in; empty while any is missing."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = RoundQuerySet.as_manager()

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"

    @property
    def phase(self) -> RoundPhase:
        return round_phase(
            published_at=self.published_at,
            started_at=self.started_at,
            time_up_at=self.time_up_recorded_at,
            finished_at=self.finished_at,
        )

    @property
    def phase_label(self) -> str:
        return PHASE_LABELS[self.phase]

    @property
    def is_public(self) -> bool:
        """The one predicate for 'players and the public may see this round'."""
        return is_public(self.phase)

    @property
    def is_finished(self) -> bool:
        return self.finished_at is not None


class RoundPause(models.Model):
    """A stop of the round clock; the clock is rebuilt from these timestamps after any restart."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pauses")
    paused_at = models.DateTimeField()
    resumed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["paused_at"]

    def __str__(self) -> str:
        return f"pause {self.paused_at:%H:%M:%S}"


class MatchQuerySet(models.QuerySet):
    def public(self) -> MatchQuerySet:
        """Matches of public rounds (``RoundQuerySet.public`` through the round)."""
        return self.filter(round__published_at__isnull=False)


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
    # The result columns below are a cache of what the match's ResultReport rows give
    # (tournaments.domain.result_state.derive), written only by services/results.py.
    result_kind = models.CharField(max_length=20, choices=ResultKind.choices, default=ResultKind.PENDING)
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

    objects = MatchQuerySet.as_manager()

    class Meta:
        ordering = ["round_id", "table", "id"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="match_table_unique_in_round"),
            models.CheckConstraint(condition=~Q(team_a=models.F("team_b")), name="match_two_different_teams"),
        ]

    def __str__(self) -> str:
        return f"Round {self.round.number} table {self.table}"

    @classmethod
    def unopposed(cls, *, round_obj: Round, team_id: int, kind: str, games_per_match: int) -> Match:
        """A match with no opponent, scored as it is stored (unsaved): a bye wins the games needed to
        win the match (docs/rules.md#byes), a late entry's missed round has none."""
        wins = games_to_win(games_per_match) if kind == ResultKind.BYE else 0
        return cls(
            round=round_obj,
            table=None,
            team_a_id=team_id,
            team_b=None,
            result_kind=kind,
            team_a_wins=wins,
            confirmed=True,
        )

    @property
    def is_bye(self) -> bool:
        return self.team_b_id is None

    @property
    def has_result(self) -> bool:
        return self.result_kind != ResultKind.PENDING


class ResultReport(models.Model):
    """One entry about a match's result, kept for good: a player's or a slip holder's report for
    their team, a scorekeeper's entry, a penalty's Match Loss or its clearing. The match's result
    is derived from these rows in order (``tournaments.domain.result_state``)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reports")
    source = models.CharField(max_length=20, choices=EntrySource.choices)
    side = models.CharField(
        max_length=1,
        choices=TeamSide.choices,
        blank=True,
        help_text="The reporting team (player, slip); the losing team (penalty, empty: both).",
    )
    team_a_wins = models.PositiveSmallIntegerField(default=0)
    team_b_wins = models.PositiveSmallIntegerField(default=0)
    draws = models.PositiveSmallIntegerField(default=0)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    match_version = models.PositiveIntegerField(help_text="The match's version the entry was made on.")
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["match_id", "id"]

    def __str__(self) -> str:
        return f"{self.source} {self.team_a_wins}-{self.team_b_wins}-{self.draws} on match {self.match_id}"


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
