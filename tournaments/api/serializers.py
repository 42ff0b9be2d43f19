"""Input and output shapes of the events API; each checks shape only, the services check the rules.

Serializers used by more than one endpoint are the match and round outputs (a client sees one match
shape everywhere, including the body of a stale-version 409) and the error shape (from ``common.api``).
"""

from __future__ import annotations

from django.db import models
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from common.api import ErrorSerializer
from common.numbers import column_bounds
from tournaments.domain.check_in import check_in_code
from tournaments.domain.event import MAX_AWARDED_BYES
from tournaments.domain.round_phase import RoundPhase
from tournaments.domain.settings import SETTINGS
from tournaments.domain.team_forming import InvitationStatus, PoolLeftover, TeamStatus
from tournaments.enums import (
    TIEBREAKER_NAMES,
    StaffRole,
)
from tournaments.models import Tournament


class _SettingsSerializer(serializers.ModelSerializer):
    """The event's settings as the model declares them: the list from ``SETTINGS``, each field's
    type, value set (the domain's choices), column range and nullability from its column, so a
    setting added to the model and to ``SETTINGS`` is in the API with nothing else to write.
    Every setting is optional: the service fills in the docs/decisions.md default or keeps the value."""

    tiebreakers = serializers.ListField(
        child=serializers.ChoiceField(choices=sorted(TIEBREAKER_NAMES)),
        required=False,
        allow_empty=True,
        help_text="In order, starting with match_points. Empty: the default for the team size.",
    )

    class Meta:
        model = Tournament
        fields: tuple[str, ...] = SETTINGS
        extra_kwargs = {
            "name": {"required": False},
            "games_per_match": {
                "required": False,
                "help_text": "Default: 1 in team events, 3 in individual events.",
            },
        }

    def build_standard_field(self, field_name, model_field):
        field_class, kwargs = super().build_standard_field(field_name, model_field)
        kwargs["required"] = False
        kwargs.pop("default", None)
        if isinstance(model_field, models.IntegerField):
            kwargs.update(column_bounds(Tournament, field_name))  # PostgreSQL's range, whatever the database
        if model_field.null:
            kwargs["allow_null"] = True
        return field_class, kwargs


class TournamentInputSerializer(_SettingsSerializer):
    """A new event; every setting but the name is optional and takes the docs/decisions.md default."""

    class Meta(_SettingsSerializer.Meta):
        extra_kwargs = {**_SettingsSerializer.Meta.extra_kwargs, "name": {"required": True}}


class TournamentUpdateInputSerializer(_SettingsSerializer):
    """The settings to change; a field left out keeps its value. Format, team size, games per
    match, Swiss rounds, top cut and tiebreakers are fixed once round 1 is paired."""


class TournamentOutputSerializer(serializers.ModelSerializer):
    """An event: its id, every setting (``SETTINGS``) and its status."""

    class Meta:
        model = Tournament
        fields = ("id", *SETTINGS, "status")
        read_only_fields = fields


class StaffInputSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=[c for c in StaffRole.choices if c[0] != StaffRole.ORGANIZER])


class StaffOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    role = serializers.CharField()


class PlayerInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    name_reading = serializers.CharField(
        max_length=100,
        required=False,
        allow_blank=True,
        default="",
        help_text="How the name is read, in kana or Latin letters (a Japanese name): lists by name sort by it.",
    )
    wizards_id = serializers.CharField(max_length=254)
    username = serializers.CharField(max_length=150, required=False, allow_blank=True, allow_null=True)


class TeamInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    players = PlayerInputSerializer(many=True, allow_empty=False)
    awarded_byes = serializers.IntegerField(
        min_value=0,
        max_value=MAX_AWARDED_BYES,
        default=0,
        help_text="Premier-style awarded byes (staff only, before round 1): rounds 1 to this number are byes.",
    )


class PlayerOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    name_reading = serializers.CharField(help_text="Empty when none was given.")
    wizards_id = serializers.CharField()


class InvitationOutputSerializer(serializers.Serializer):
    """An invitation as the team, the invitee and staff see it."""

    id = serializers.IntegerField()
    team = serializers.IntegerField(source="team_id")
    team_name = serializers.CharField(source="team.name")
    join_code = serializers.CharField(source="team.join_code")
    user = serializers.IntegerField(source="invitee_id")
    username = serializers.SerializerMethodField(
        help_text="The invited account's login; null when the inviter named it by a Wizards Account "
        "it played under (the login is the account's own to give)."
    )
    name = serializers.CharField()
    player = serializers.IntegerField(
        source="player_id",
        allow_null=True,
        help_text="The registered player this account is asked to be linked to (staff registered "
        "the team at the desk); null for a seat to take.",
    )
    invited_by = serializers.CharField(source="invited_by.username", allow_null=True, default=None)
    status = serializers.ChoiceField(choices=InvitationStatus.choices)
    created_at = serializers.DateTimeField()

    def get_username(self, invitation) -> str | None:
        return invitation.invitee.username if invitation.named_by_login else None


class TeamOutputSerializer(serializers.Serializer):
    """A team as its own players and the event's staff see it (nobody else reads it)."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(
        choices=TeamStatus.choices, help_text="forming: a seat is open, the team is not paired."
    )
    players = PlayerOutputSerializer(many=True, source="players.all")
    pending_invitations = serializers.SerializerMethodField()
    join_code = serializers.CharField(
        allow_null=True, help_text="What a teammate types to join (teams players formed)."
    )
    captain = serializers.CharField(source="captain.username", allow_null=True, default=None)
    checked_in_at = serializers.DateTimeField(allow_null=True)
    check_in_code = serializers.SerializerMethodField(
        help_text="What the desk types or scans to check the team in (shown on its players' page)."
    )
    registered_after_round = serializers.IntegerField()
    dropped_after_round = serializers.IntegerField(allow_null=True)
    disqualified = serializers.BooleanField()
    fixed_table = serializers.IntegerField(allow_null=True)
    awarded_byes = serializers.IntegerField()

    def get_check_in_code(self, team) -> str:
        return check_in_code(team.pk)

    @extend_schema_field(InvitationOutputSerializer(many=True))
    def get_pending_invitations(self, team) -> list:
        pending = getattr(team, "pending_invitations", None)
        if pending is None:
            pending = team.invitations.filter(status=InvitationStatus.PENDING).select_related("invitee")
        return InvitationOutputSerializer(pending, many=True).data


class InvitationAnswerInputSerializer(serializers.Serializer):
    """Optional on accepting: the name (and its reading) and Wizards Account to play under
    (default: the invitation's, else those of the player's last event)."""

    name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    name_reading = serializers.CharField(
        max_length=100,
        required=False,
        allow_blank=True,
        default="",
        help_text="How the name is read, in kana or Latin letters (a Japanese name): lists by name sort by it.",
    )
    wizards_id = serializers.CharField(max_length=254, required=False, allow_blank=True, default="")


class InvitationSendInputSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    wizards_id = serializers.CharField(max_length=254, required=False, allow_blank=True, default="")


class CheckInInputSerializer(serializers.Serializer):
    checked_in = serializers.BooleanField(default=True, help_text="false takes a check-in back (staff only).")


class PoolJoinInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    name_reading = serializers.CharField(
        max_length=100,
        required=False,
        allow_blank=True,
        default="",
        help_text="How the name is read, in kana or Latin letters (a Japanese name): lists by name sort by it.",
    )
    wizards_id = serializers.CharField(max_length=254, required=False, allow_blank=True, default="")


class PoolEntryOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="The display name the player gave.")
    username = serializers.CharField(source="user.username")
    joined_at = serializers.DateTimeField(source="created_at")


class PoolFormInputSerializer(serializers.Serializer):
    mode = serializers.ChoiceField(choices=[("random", "random")])
    seed = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=2**31 - 1, help_text="Default: a new one."
    )
    leftover = serializers.ChoiceField(choices=PoolLeftover.choices, default=PoolLeftover.WAIT)
    preview = serializers.BooleanField(default=False, help_text="true: answer the teams, save nothing.")


class PoolFormOutputSerializer(serializers.Serializer):
    seed = serializers.IntegerField()
    saved = serializers.BooleanField()
    teams = serializers.ListField(child=serializers.DictField())
    waiting = serializers.ListField(child=serializers.CharField())


class ReasonInputSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500)


class ManualMatchInputSerializer(serializers.Serializer):
    team_a = serializers.IntegerField()
    team_b = serializers.IntegerField(allow_null=True)


class RoundPairInputSerializer(serializers.Serializer):
    """Empty: the engine pairs. With ``matches`` (and a ``reason``): the organizer's own pairing."""

    matches = ManualMatchInputSerializer(many=True, required=False, allow_empty=False)
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True)
    unchecked = serializers.ChoiceField(
        choices=[("drop", "drop"), ("pair", "pair")],
        required=False,
        help_text="Round 1 with check-in required: drop the teams not checked in, or pair them anyway. "
        "Without it, such teams make the pairing a 409 listing them.",
    )


class MatchOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField(source="round.number")
    table = serializers.IntegerField(allow_null=True)
    team_a = serializers.IntegerField(source="team_a_id")
    team_a_name = serializers.CharField(source="team_a.name")
    team_b = serializers.IntegerField(source="team_b_id", allow_null=True)
    team_b_name = serializers.CharField(source="team_b.name", allow_null=True, default=None)
    bracket_slot = serializers.IntegerField(allow_null=True)
    pod = serializers.IntegerField(
        allow_null=True, required=False, help_text="Booster Draft: the pod the match was paired in."
    )
    bracket_seeds = serializers.SerializerMethodField(
        help_text="Playoff matches: [seed of team A, seed of team B] in the bracket (Swiss ranks; in a "
        "Booster Draft playoff, the draft seats: 1v5, 3v7, 2v6, 4v8). Null in Swiss rounds."
    )
    result_kind = serializers.CharField()
    team_a_wins = serializers.IntegerField()
    team_b_wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    version = serializers.IntegerField()
    reported_by = serializers.IntegerField(source="reported_by_id", allow_null=True)
    confirmed = serializers.BooleanField()
    disputed = serializers.BooleanField()
    seats = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text='Seat order recorded for this match, {"A": [primary player id, ...], "B": [...]}; '
        "a team without an entry sits in registration order.",
    )

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField(), allow_null=True))
    def get_bracket_seeds(self, match) -> list[int] | None:
        if match.bracket_slot is None:
            return None
        explanation = match.round.explanation if isinstance(match.round.explanation, dict) else {}
        for entry in explanation.get("bracket", []):
            if entry.get("slot") == match.bracket_slot:
                return [entry["seed_a"], entry["seed_b"]]
        return None


class MatchSeatsInputSerializer(serializers.Serializer):
    """One team's seat order for the match: every player of the team once, primary first."""

    team = serializers.IntegerField(help_text="The team (team A or team B of the match).")
    players = serializers.ListField(
        child=serializers.IntegerField(),
        allow_empty=False,
        max_length=4,
        help_text="Player ids in seat order, the primary (who sits on the right) first.",
    )


class RoundOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.ChoiceField(
        choices=[(p.value, p.name) for p in RoundPhase],
        source="phase",
        help_text="The round's phase, derived.",
    )
    seed = serializers.IntegerField()
    length_minutes = serializers.IntegerField(allow_null=True)
    published_at = serializers.DateTimeField(allow_null=True)
    manual_reason = serializers.CharField()
    explanation = serializers.ListField(
        child=serializers.CharField(), source="explanation.lines", default=list
    )
    matches = MatchOutputSerializer(many=True, source="matches.all")


class TeamRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class RoundPairedOutputSerializer(RoundOutputSerializer):
    teams_without_decklists = TeamRefSerializer(
        many=True,
        help_text="A warning, not a refusal: at Competitive or Professional REL, the active teams with a "
        "player who has no registered decklist when the round was paired (MTR 2.7). Empty otherwise.",
    )


class RoundSummaryOutputSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.ChoiceField(
        choices=[(p.value, p.name) for p in RoundPhase],
        source="phase",
        help_text="The round's phase, derived.",
    )
    published_at = serializers.DateTimeField(allow_null=True)
    match_count = serializers.IntegerField()


class ResultInputSerializer(serializers.Serializer):
    team_a_wins = serializers.IntegerField(min_value=0)
    team_b_wins = serializers.IntegerField(min_value=0)
    draws = serializers.IntegerField(min_value=0)
    version = serializers.IntegerField(min_value=1)
    reason = serializers.CharField(
        required=False,
        default="",
        allow_blank=True,
        max_length=500,
        help_text="Why a confirmed result is changed (required then, for the audit log).",
    )


class MatchSnapshotSerializer(serializers.Serializer):
    """``tournaments.selectors.match_snapshot``: the match in a stale-version 409 and in audit entries."""

    id = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    team_a = serializers.IntegerField()
    team_b = serializers.IntegerField(allow_null=True)
    bracket_slot = serializers.IntegerField(allow_null=True)
    result_kind = serializers.CharField()
    team_a_wins = serializers.IntegerField()
    team_b_wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    version = serializers.IntegerField()
    reported_by = serializers.IntegerField(allow_null=True)
    reported_side = serializers.CharField()
    confirmed = serializers.BooleanField()
    disputed = serializers.BooleanField()


class StaleMatchSerializer(ErrorSerializer):
    match = MatchSnapshotSerializer()


class TiebreakerCellOutputSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The tiebreaker's setting name: omw, gw or ogw.")
    label = serializers.CharField(help_text="Its column heading, as the standings page and PDF print it.")
    value = serializers.FloatField()


class StandingsRowOutputSerializer(serializers.Serializer):
    """One standings row; ``tiebreakers`` lists the event's own tiebreakers after match points, in
    ranking order: the columns the standings page and the printed standings show."""

    rank = serializers.IntegerField()
    team = serializers.IntegerField(source="team_id")
    team_name = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    match_points = serializers.IntegerField()
    penalty_points = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    byes = serializers.IntegerField()
    mw = serializers.FloatField()
    omw = serializers.FloatField()
    gw = serializers.FloatField()
    ogw = serializers.FloatField()
    tiebreakers = serializers.SerializerMethodField()
    dropped = serializers.BooleanField()
    eliminated = serializers.BooleanField(
        help_text="Did not advance at the event's cut to day 2 (day_two): never paired again, not dropped."
    )

    @extend_schema_field(TiebreakerCellOutputSerializer(many=True))
    def get_tiebreakers(self, line) -> list[dict]:
        columns = self.context["tiebreaker_columns"]
        return [
            {"name": name, "label": label, "value": float(getattr(line, name))} for name, label in columns
        ]


class StandingsQuerySerializer(serializers.Serializer):
    round = serializers.IntegerField(min_value=0, required=False)


class PodsSeatInputSerializer(serializers.Serializer):
    draft = serializers.IntegerField(
        min_value=1, max_value=20, help_text="The event's draft to seat: 1 for the first, then 2..."
    )
    single_pod = serializers.BooleanField(
        default=False,
        help_text="Seat every team in one pod (when the usual pods of at most 8 players would force rematches).",
    )


class PodOutputSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    teams = serializers.ListField(
        child=serializers.IntegerField(), source="team_ids", help_text="Team ids in seat order."
    )


class PodWarningOutputSerializer(serializers.Serializer):
    teams = serializers.IntegerField()
    pod_sizes = serializers.ListField(child=serializers.IntegerField(), source="sizes")
    too_small = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Pod sizes that cannot play the Swiss rounds left without a rematch.",
    )
    rounds = serializers.IntegerField(help_text="Swiss rounds left.")
    message = serializers.CharField()


class PodsOutputSerializer(serializers.Serializer):
    draft = serializers.IntegerField(allow_null=True, help_text="null: no draft seated yet.")
    pods = PodOutputSerializer(many=True)
    next_draft_warning = PodWarningOutputSerializer(
        allow_null=True,
        required=False,
        help_text="Before seating: the pods the next draft would make force rematches (null: they do not).",
    )
