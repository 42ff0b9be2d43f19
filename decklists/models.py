"""Card data, registered decklists with every version, and deck checks, as stored.

Workflows live in ``decklists/services.py``; reads that build domain values live in
``decklists/selectors.py``. The domain core (``decklists/domain``) never sees these rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy


class Card(models.Model):
    """One card by canonical English name, as decklists are checked against it.

    Copy limit encoding: ``any_number`` true means "any number of copies" (basic lands,
    Relentless Rats); otherwise ``copies_limit`` is the card's own cap (Seven Dwarves: 7) or
    empty for the normal rule of 4. Two columns instead of a mixed-type one keep both
    queryable and let a constraint forbid the contradictory combination.

    ``name`` is unique: the handful of un-set cards that share a name keep one row, the one
    the domain's name matching would pick anyway (not funny, with an oracle id).
    """

    name = models.CharField(max_length=200, unique=True)
    face_names = models.JSONField(default=list, help_text="Face names in side order; [name] if one face.")
    layout = models.CharField(max_length=30)
    type_line = models.CharField(max_length=300)
    is_basic_land = models.BooleanField(default=False)
    any_number = models.BooleanField(default=False, help_text="A deck may hold any number of copies.")
    copies_limit = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The card's own copy cap; empty: the normal rule of 4."
    )
    legalities = models.JSONField(default=dict, help_text='{"modern": "legal"|"banned"|...}')
    oracle_id = models.CharField(max_length=36, blank=True)
    oracle_text = models.TextField(blank=True)
    is_funny = models.BooleanField(default=False)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(any_number=False) | Q(copies_limit__isnull=True),
                name="card_copy_limit_one_encoding",
            )
        ]

    def __str__(self) -> str:
        return self.name


class CardData(models.Model):
    """The single row describing what the card table holds (pk 1).

    ``revision`` goes up with every change to the table, so each process can tell whether
    its cached index is stale with one indexed read. ``snapshot_sha256`` is set while the
    table holds exactly the shipped snapshot: then validation may use the snapshot's cached
    index directly instead of rebuilding one from 34k rows.
    """

    revision = models.PositiveIntegerField(default=0)
    source = models.CharField(max_length=200, blank=True)
    snapshot_sha256 = models.CharField(max_length=64, blank=True)
    data_date = models.CharField(max_length=100, blank=True)
    formats = models.JSONField(default=list)
    aliases = models.JSONField(default=dict, help_text="MTGO alias → canonical name (Omenpath names).")
    ban_history = models.JSONField(
        default=dict,
        help_text='Banned/restricted list changes with effective dates: {"changes": [{"format": '
        '"modern", "date": "2026-05-18", "card": "Phlage, Titan of Fire\'s Fury", "status": '
        '"banned"}]}; decklists are checked against the lists in force on the event\'s date.',
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "card data"

    def __str__(self) -> str:
        return f"card data r{self.revision} ({self.source})"


class Decklist(models.Model):
    """A player's registration for an event; ``current`` is the version that counts.

    One per player and event. Every submission adds a :class:`DecklistVersion`; none is ever
    changed or deleted, so a judge can see what was registered when.
    """

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="decklists"
    )
    player = models.OneToOneField("tournaments.Player", on_delete=models.CASCADE, related_name="decklist")
    current = models.OneToOneField(
        "DecklistVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["player__team_id", "player__position"]

    def __str__(self) -> str:
        return f"decklist of {self.player_id}"


class SubmittedVersion(models.Model):
    """What a decklist version and a pool version share: one submitted text, numbered, with what
    validation said about it then (against card data revision ``card_data_revision``), who
    submitted it and why (a judge's correction gives a reason)."""

    number = models.PositiveIntegerField()
    text = models.TextField()
    cards = models.JSONField(default=list)
    errors = models.JSONField(default=list)
    valid = models.BooleanField(default=False)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.CharField(max_length=500, blank=True)
    card_data_revision = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True


class DecklistVersion(SubmittedVersion):
    """One submitted text with what validation said about it at the time.

    ``cards`` is ``[{"count", "name", "section"}]`` with canonical names (empty when a line
    did not resolve); ``errors`` is ``[{"line", "code", "message", "card", "suggestions"}]``
    for the text and this deck alone. Team checks (UDC) are recomputed on read, because
    they change when a teammate resubmits.
    """

    decklist = models.ForeignKey(Decklist, on_delete=models.CASCADE, related_name="versions")

    class Meta:
        ordering = ["decklist_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["decklist", "number"], name="decklist_version_number_unique")
        ]

    def __str__(self) -> str:
        return f"v{self.number} of decklist {self.decklist_id}"


class TeamPool(models.Model):
    """A Limited team's registered pool [rules §6.4]; ``current`` is the version that counts.

    One per team, like :class:`Decklist` is one per player: the pool belongs to the team,
    not to either player, because 2HG teams open or draft one pool together and build both
    decks from it [MTR 9.6, 9.7]. Every registration adds a :class:`TeamPoolVersion`.
    """

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="pools")
    team = models.OneToOneField("tournaments.Team", on_delete=models.CASCADE, related_name="pool")
    current = models.OneToOneField(
        "TeamPoolVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["team_id"]

    def __str__(self) -> str:
        return f"pool of team {self.team_id}"


class TeamPoolVersion(SubmittedVersion):
    """One registered pool text with what the parser said about it at the time.

    ``cards`` is ``[{"count", "name"}]`` with canonical names, empty when a line did not
    resolve (the decks cannot be checked against a pool with holes); ``errors`` has the
    decklist error shape. ``boosters`` is kept per version because a judge may correct it
    (a team opened a different product mix) without changing the cards.
    """

    pool = models.ForeignKey(TeamPool, on_delete=models.CASCADE, related_name="versions")
    boosters = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["pool_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["pool", "number"], name="team_pool_version_number_unique")
        ]

    def __str__(self) -> str:
        return f"v{self.number} of pool {self.pool_id}"


class DeckCheck(models.Model):
    """A judge comparing a table's decks with their registered lists [MTR 2.8].

    ``extension`` is the time extension given for it (the check's length + 3 minutes,
    MTR 2.6), once the judge gives it.
    """

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="deck_checks"
    )
    round = models.ForeignKey("tournaments.Round", on_delete=models.CASCADE, related_name="deck_checks")
    match = models.ForeignKey("tournaments.Match", on_delete=models.CASCADE, related_name="deck_checks")
    judge = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    extension = models.OneToOneField(
        "tournaments.TimeExtension", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-started_at", "-id"]

    def __str__(self) -> str:
        return f"deck check at match {self.match_id}"


class FindingKind(models.TextChoices):
    MISSING = "missing", gettext_lazy("Missing from the deck")
    EXTRA = "extra", gettext_lazy("In the deck, not on the list")
    WRONG = "wrong", gettext_lazy("Different card than registered")


class DeckCheckFinding(models.Model):
    """One difference between a deck and its list, optionally turned into a penalty."""

    deck_check = models.ForeignKey(DeckCheck, on_delete=models.CASCADE, related_name="findings")
    player = models.ForeignKey("tournaments.Player", on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=10, choices=FindingKind.choices)
    card = models.CharField(max_length=200)
    count = models.PositiveSmallIntegerField(default=1)
    note = models.CharField(max_length=500, blank=True)
    penalty = models.ForeignKey(
        "penalties.Penalty", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.kind} {self.count} {self.card}"
