"""Input and output shapes of the events API; each checks shape only, the services check the rules.

Serializers used by more than one endpoint are the match and round outputs (a client sees one match
shape everywhere, including the body of a stale-version 409) and the error shape (from ``common.api``).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from common.api import ErrorSerializer
from common.numbers import column_bounds
from tournaments.domain.event import MAX_AWARDED_BYES
from tournaments.enums import (
    TIEBREAKER_NAMES,
    Format,
    LateEntryMissedRounds,
    PenaltyPolicy,
    PercentageFloor,
    PlayoffPlayDraw,
    Rel,
    StaffRole,
    UdcMode,
)
from tournaments.models import Tournament


class TournamentInputSerializer(serializers.Serializer):
    """A new event; every setting but the name is optional and takes the DECISIONS.md default."""

    name = serializers.CharField(max_length=200)
    format = serializers.ChoiceField(choices=Format.choices, required=False, help_text="Default: modern.")
    rel = serializers.ChoiceField(choices=Rel.choices, required=False, help_text="Default: regular.")
    team_size = serializers.IntegerField(
        **column_bounds(Tournament, "team_size", min_value=1), required=False, help_text="Default: 2 (2HG)."
    )
    games_per_match = serializers.IntegerField(
        **column_bounds(Tournament, "games_per_match", min_value=1),
        required=False,
        help_text="Default: 1 in team events, 3 in individual events.",
    )
    round_minutes = serializers.IntegerField(
        **column_bounds(Tournament, "round_minutes", min_value=1), required=False, help_text="Default: 50."
    )
    swiss_rounds = serializers.IntegerField(
        **column_bounds(Tournament, "swiss_rounds", min_value=0), required=False, allow_null=True
    )
    top_cut = serializers.IntegerField(
        **column_bounds(Tournament, "top_cut", min_value=0), required=False, allow_null=True
    )
    tiebreakers = serializers.ListField(
        child=serializers.ChoiceField(choices=sorted(TIEBREAKER_NAMES)), required=False, allow_empty=True
    )
    penalty_policy = serializers.ChoiceField(choices=PenaltyPolicy.choices, required=False)
    udc_mode = serializers.ChoiceField(choices=UdcMode.choices, required=False)
    date = serializers.DateField(required=False, allow_null=True)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    percentage_floor = serializers.ChoiceField(choices=PercentageFloor.choices, required=False)
    late_entry_missed_rounds = serializers.ChoiceField(choices=LateEntryMissedRounds.choices, required=False)
    booster_draft_playoff = serializers.BooleanField(
        required=False,
        help_text="Limited: Top 8 with a Booster Draft playoff (1v5, 2v6, 3v7, 4v8 by draft seat); "
        "the MTR chart then gives 9-16 teams 4 rounds.",
    )
    cross_pod_pairing = serializers.BooleanField(
        required=False, help_text="Booster Draft at Regular REL only: pair across pods, as announced."
    )


class TournamentUpdateInputSerializer(serializers.Serializer):
    """The settings to change; a field left out keeps its value. Format, team size, games per
    match, Swiss rounds, top cut and tiebreakers are fixed once round 1 is paired."""

    name = serializers.CharField(max_length=200, required=False)
    date = serializers.DateField(required=False, allow_null=True)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    format = serializers.ChoiceField(choices=Format.choices, required=False)
    rel = serializers.ChoiceField(choices=Rel.choices, required=False)
    team_size = serializers.IntegerField(
        **column_bounds(Tournament, "team_size", min_value=1), required=False
    )
    games_per_match = serializers.IntegerField(
        **column_bounds(Tournament, "games_per_match", min_value=1), required=False
    )
    round_minutes = serializers.IntegerField(
        **column_bounds(Tournament, "round_minutes", min_value=1), required=False
    )
    swiss_rounds = serializers.IntegerField(
        **column_bounds(Tournament, "swiss_rounds", min_value=0),
        required=False,
        allow_null=True,
        help_text="null: from the MTR chart.",
    )
    top_cut = serializers.IntegerField(
        **column_bounds(Tournament, "top_cut", min_value=0),
        required=False,
        allow_null=True,
        help_text="null: from the MTR chart.",
    )
    tiebreakers = serializers.ListField(
        child=serializers.ChoiceField(choices=sorted(TIEBREAKER_NAMES)),
        required=False,
        allow_empty=True,
        help_text="Empty: the default for the team size.",
    )
    percentage_floor = serializers.ChoiceField(choices=PercentageFloor.choices, required=False)
    penalty_policy = serializers.ChoiceField(choices=PenaltyPolicy.choices, required=False)
    udc_mode = serializers.ChoiceField(choices=UdcMode.choices, required=False)
    late_entry_missed_rounds = serializers.ChoiceField(choices=LateEntryMissedRounds.choices, required=False)
    late_entry_open = serializers.BooleanField(required=False, help_text="False closes late entry.")
    playoff_play_draw = serializers.ChoiceField(choices=PlayoffPlayDraw.choices, required=False)
    booster_draft_playoff = serializers.BooleanField(
        required=False,
        help_text="Limited: Top 8 with a Booster Draft playoff (1v5, 2v6, 3v7, 4v8 by draft seat); "
        "the MTR chart then gives 9-16 teams 4 rounds.",
    )
    cross_pod_pairing = serializers.BooleanField(
        required=False, help_text="Booster Draft at Regular REL only: pair across pods, as announced."
    )
    decklist_deadline = serializers.DateTimeField(required=False, allow_null=True)
    decklists_published = serializers.BooleanField(required=False)


class TournamentOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField(allow_null=True)
    venue = serializers.CharField()
    format = serializers.CharField()
    rel = serializers.CharField()
    team_size = serializers.IntegerField()
    games_per_match = serializers.IntegerField()
    round_minutes = serializers.IntegerField()
    swiss_rounds = serializers.IntegerField(allow_null=True)
    top_cut = serializers.IntegerField(allow_null=True)
    tiebreakers = serializers.ListField(child=serializers.CharField())
    percentage_floor = serializers.CharField()
    penalty_policy = serializers.CharField()
    udc_mode = serializers.CharField()
    late_entry_missed_rounds = serializers.CharField()
    late_entry_open = serializers.BooleanField()
    playoff_play_draw = serializers.CharField()
    booster_draft_playoff = serializers.BooleanField()
    cross_pod_pairing = serializers.BooleanField()
    decklist_deadline = serializers.DateTimeField(allow_null=True)
    decklists_published = serializers.BooleanField()
    status = serializers.CharField()


class StaffInputSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=[c for c in StaffRole.choices if c[0] != StaffRole.ORGANIZER])


class StaffOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    role = serializers.CharField()


class PlayerInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
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
    wizards_id = serializers.CharField()


class TeamOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    players = PlayerOutputSerializer(many=True, source="players.all")
    registered_after_round = serializers.IntegerField()
    dropped_after_round = serializers.IntegerField(allow_null=True)
    disqualified = serializers.BooleanField()
    fixed_table = serializers.IntegerField(allow_null=True)
    awarded_byes = serializers.IntegerField()


class ReasonInputSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500)


class ManualMatchInputSerializer(serializers.Serializer):
    team_a = serializers.IntegerField()
    team_b = serializers.IntegerField(allow_null=True)


class RoundPairInputSerializer(serializers.Serializer):
    """Empty: the engine pairs. With ``matches`` (and a ``reason``): the organizer's own pairing."""

    matches = ManualMatchInputSerializer(many=True, required=False, allow_empty=False)
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True)


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
    status = serializers.CharField()
    seed = serializers.IntegerField()
    length_minutes = serializers.IntegerField(allow_null=True)
    published_at = serializers.DateTimeField(allow_null=True)
    manual_reason = serializers.CharField()
    explanation = serializers.ListField(
        child=serializers.CharField(), source="explanation.lines", default=list
    )
    matches = MatchOutputSerializer(many=True, source="matches.all")


class RoundSummaryOutputSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.CharField()
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


class StandingsRowOutputSerializer(serializers.Serializer):
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
    dropped = serializers.BooleanField()


class StandingsQuerySerializer(serializers.Serializer):
    round = serializers.IntegerField(min_value=0, required=False)


class PodsSeatInputSerializer(serializers.Serializer):
    draft = serializers.IntegerField(
        min_value=1, max_value=20, help_text="The event's draft to seat: 1 for the first, then 2..."
    )


class PodOutputSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    teams = serializers.ListField(
        child=serializers.IntegerField(), source="team_ids", help_text="Team ids in seat order."
    )


class PodsOutputSerializer(serializers.Serializer):
    draft = serializers.IntegerField(allow_null=True, help_text="null: no draft seated yet.")
    pods = PodOutputSerializer(many=True)
