"""Round clock API serializers: the documented JSON shapes of the clock and its writes."""

from __future__ import annotations

from rest_framework import serializers

from clock.domain.display import RoundClockView, TableClock
from clock.domain.round_clock import MAX_EXTENSION_MINUTES


class TableClockSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    ends_at = serializers.DateTimeField(
        allow_null=True, help_text="When this table's time runs out: round end plus its extensions."
    )
    extension_minutes = serializers.IntegerField(help_text="Sum of the table's time extensions (MTR 2.6).")
    extra_turns_total = serializers.IntegerField(
        help_text="End-of-round turns after turn 0: 3 in 2HG (5 in a one-versus-one event), plus 2 per "
        "Slow Play penalty given before the table's own end and the time call, whichever is earlier "
        "(MTR 2.4, IPG 3.3)."
    )
    extra_turns_played = serializers.IntegerField(help_text="Extra turns completed (turn 0 not counted).")
    active_team = serializers.ChoiceField(
        choices=["A", "B"],
        allow_null=True,
        help_text="The team taking the current end-of-round turn; null before time is called and after "
        "the last turn.",
    )
    extra_turns_since = serializers.DateTimeField(
        allow_null=True,
        help_text="When the table went into extra turns (its own end), as the time-up task recorded it; "
        "until time is called, a judge still has to record the active team. Null before, and null "
        "once the table's result is in.",
    )
    result_in = serializers.BooleanField(
        help_text="The table's result is reported: the match is over, it is not out of time and has no "
        "end-of-round turns left."
    )


class RoundClockSerializer(serializers.Serializer):
    state = serializers.ChoiceField(choices=["not_started", "running", "paused", "time_up", "finished"])
    ends_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When round time runs out; while paused, projected as if resumed now. Null if untimed.",
    )
    remaining_seconds = serializers.IntegerField(
        allow_null=True, help_text="Whole seconds left, rounded up; null if untimed."
    )
    tables = TableClockSerializer(many=True)


class RoundStartInputSerializer(serializers.Serializer):
    untimed = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Playoff rounds only: run without a time limit (a final, MTR App. B).",
    )


class ExtensionInputSerializer(serializers.Serializer):
    minutes = serializers.IntegerField(
        min_value=1,
        max_value=MAX_EXTENSION_MINUTES,
        help_text="Deck check: the time the check took + 3; a ruling over one minute: its length (MTR 2.6).",
    )
    reason = serializers.CharField(max_length=300, help_text="Why, for the audit log (e.g. 'deck check').")


class ExtensionOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    match = serializers.IntegerField(source="match_id")
    table = serializers.IntegerField(source="match.table")
    minutes = serializers.IntegerField()
    reason = serializers.CharField()
    granted_by = serializers.CharField(source="granted_by.username")
    created_at = serializers.DateTimeField()


class TimeCallInputSerializer(serializers.Serializer):
    active_team = serializers.CharField(
        max_length=20,
        help_text='The team whose turn it is when time is called: "A" or "B", or that team\'s id. If the '
        "active team had already passed the turn, give the other team (MTR 2.4).",
    )


def table_row(row: TableClock) -> dict:
    return {
        "table": row.table,
        "ends_at": row.ends_at,
        "extension_minutes": row.extension_minutes,
        "extra_turns_total": row.extra_turns_total,
        "extra_turns_played": row.extra_turns_played,
        "active_team": str(row.active_team) if row.active_team is not None else None,
        "extra_turns_since": row.extra_turns_since,
        "result_in": row.result_in,
    }


def clock_payload(view: RoundClockView) -> dict:
    """The core's ``RoundClockView`` as the documented JSON shape."""
    return {
        "state": str(view.state),
        "ends_at": view.ends_at,
        "remaining_seconds": view.remaining_seconds,
        "tables": [table_row(row) for row in view.tables],
    }
