"""Round clock API: start, pause and resume a round, extensions, the end-of-round procedure, and
the clock every screen in the hall polls.

One thin view per operation: validate the body, call one service with ``timezone.now()``, answer
with the table's or the round's clock. Refusals of the clock core arrive as ``DomainError`` (400)
or ``ConflictError`` (409) with its message, through ``common.api.exception_handler``.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from clock.domain.round_clock import MAX_EXTENSION_MINUTES
from clock.selectors import match_clock_row, round_clock
from clock.services import (
    match_time_call,
    match_turn_complete,
    round_pause,
    round_resume,
    round_start,
    time_extension_grant,
)
from common.api import ErrorSerializer
from tournaments.enums import RoundStatus
from tournaments.models import Match, Round, Tournament
from tournaments.permissions import ALL_STAFF, JUDGES, EventRolePermission, has_role

PUBLIC_ROUND_STATUSES = frozenset({RoundStatus.PUBLISHED, RoundStatus.FINISHED})

CLOCK_REFUSALS = {
    400: OpenApiResponse(ErrorSerializer, description="The clock core refused the step (e.g. not started)."),
    409: OpenApiResponse(ErrorSerializer, description="The round or table is in a state that forbids it."),
}
"""What every clock write may answer besides its 200/201: the core's refusals (module docstring)."""


class TableClockSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    ends_at = serializers.DateTimeField(
        allow_null=True, help_text="When this table's time runs out: round end plus its extensions."
    )
    extension_minutes = serializers.IntegerField(help_text="Sum of the table's time extensions (MTR 2.6).")
    extra_turns_total = serializers.IntegerField(
        help_text="End-of-round turns after turn 0: 3, plus 2 per Slow Play penalty given before the "
        "table's own end and the time call, whichever is earlier (MTR 2.4, IPG 3.3)."
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
        "until time is called, a judge still has to record the active team. Null before.",
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


def _table_row(row) -> dict:
    return {
        "table": row.table,
        "ends_at": row.ends_at,
        "extension_minutes": row.extension_minutes,
        "extra_turns_total": row.extra_turns_total,
        "extra_turns_played": row.extra_turns_played,
        "active_team": str(row.active_team) if row.active_team is not None else None,
        "extra_turns_since": row.extra_turns_since,
    }


def clock_payload(view) -> dict:
    """The core's ``RoundClockView`` as the documented JSON shape."""
    return {
        "state": str(view.state),
        "ends_at": view.ends_at,
        "remaining_seconds": view.remaining_seconds,
        "tables": [_table_row(row) for row in view.tables],
    }


class _RoundApi(APIView):
    """A round addressed as ``tournaments/{tournament_id}/rounds/{number}/``; staff only by default."""

    permission_classes = [EventRolePermission]
    required_roles = ALL_STAFF

    def get_tournament(self) -> Tournament:
        if not hasattr(self, "_tournament"):
            self._tournament = get_object_or_404(Tournament, pk=self.kwargs["tournament_id"])
        return self._tournament

    def get_round(self) -> Round:
        return get_object_or_404(
            Round.objects.select_related("tournament"),
            tournament=self.get_tournament(),
            number=self.kwargs["number"],
        )

    def clock_response(self, round_row: Round) -> Response:
        view = round_clock(round_row, now=timezone.now())
        return Response(RoundClockSerializer(clock_payload(view)).data)


class RoundClockApi(_RoundApi):
    """The round's clock and every table's end and end-of-round turns.

    Public once the round's pairings are published (status "published" or "finished"), so the
    projector and players' phones can poll it; staff may read it at any time.
    """

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="round_clock",
        summary="Read a round's clock",
        responses={
            200: RoundClockSerializer,
            403: OpenApiResponse(ErrorSerializer, description="Not published yet; staff only."),
        },
        examples=[
            OpenApiExample(
                "Running, one table extended",
                response_only=True,
                value={
                    "state": "running",
                    "ends_at": "2026-07-04T10:50:00Z",
                    "remaining_seconds": 1200,
                    "tables": [
                        {
                            "table": 1,
                            "ends_at": "2026-07-04T10:50:00Z",
                            "extension_minutes": 0,
                            "extra_turns_total": 3,
                            "extra_turns_played": 0,
                            "active_team": None,
                            "extra_turns_since": None,
                        },
                        {
                            "table": 2,
                            "ends_at": "2026-07-04T10:56:00Z",
                            "extension_minutes": 6,
                            "extra_turns_total": 5,
                            "extra_turns_played": 0,
                            "active_team": None,
                            "extra_turns_since": None,
                        },
                    ],
                },
            )
        ],
    )
    def get(self, request, tournament_id: int, number: int):
        round_row = self.get_round()
        if round_row.status not in PUBLIC_ROUND_STATUSES and not has_role(
            request.user, round_row.tournament, ALL_STAFF
        ):
            self.permission_denied(request, message="this round's pairings are not published yet")
        return self.clock_response(round_row)


class RoundStartApi(_RoundApi):
    """Start the official clock once players are seated (MTR App. B). Staff."""

    @extend_schema(
        operation_id="round_clock_start",
        summary="Start a round's clock",
        request=RoundStartInputSerializer,
        responses={200: RoundClockSerializer, **CLOCK_REFUSALS},
    )
    def post(self, request, tournament_id: int, number: int):
        data = RoundStartInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_row = self.get_round()
        round_start(
            round=round_row, actor=request.user, at=timezone.now(), untimed=data.validated_data["untimed"]
        )
        return self.clock_response(round_row)


class RoundPauseApi(_RoundApi):
    """Stop the round's clock (every table's clock with it). Staff."""

    @extend_schema(
        operation_id="round_clock_pause",
        summary="Pause a round's clock",
        request=None,
        responses={200: RoundClockSerializer, **CLOCK_REFUSALS},
    )
    def post(self, request, tournament_id: int, number: int):
        round_row = self.get_round()
        round_pause(round=round_row, actor=request.user, at=timezone.now())
        return self.clock_response(round_row)


class RoundResumeApi(_RoundApi):
    """Restart a paused round's clock; every end moves by the pause's length. Staff."""

    @extend_schema(
        operation_id="round_clock_resume",
        summary="Resume a round's clock",
        request=None,
        responses={200: RoundClockSerializer, **CLOCK_REFUSALS},
    )
    def post(self, request, tournament_id: int, number: int):
        round_row = self.get_round()
        round_resume(round=round_row, actor=request.user, at=timezone.now())
        return self.clock_response(round_row)


class _MatchApi(APIView):
    """A table addressed as ``matches/{match_id}/``; judges only (organizer, head judge, judge)."""

    permission_classes = [EventRolePermission]
    required_roles = JUDGES

    def get_match(self) -> Match:
        if not hasattr(self, "_match"):
            self._match = get_object_or_404(
                Match.objects.select_related("round__tournament"), pk=self.kwargs["match_id"]
            )
        return self._match

    def get_tournament(self) -> Tournament:
        return self.get_match().round.tournament

    def table_response(self, match: Match) -> Response:
        fresh = (
            Match.objects.select_related("round__tournament").prefetch_related("extensions").get(pk=match.pk)
        )
        row = match_clock_row(fresh, now=timezone.now())
        return Response(TableClockSerializer(_table_row(row)).data)


class MatchExtensionCreateApi(_MatchApi):
    """Grant a table a time extension (MTR 2.6). Judges."""

    @extend_schema(
        operation_id="match_time_extension_create",
        summary="Grant a time extension",
        request=ExtensionInputSerializer,
        responses={201: ExtensionOutputSerializer, **CLOCK_REFUSALS},
        examples=[
            OpenApiExample(
                "Deck check that took 6 minutes",
                request_only=True,
                value={"minutes": 9, "reason": "deck check (6 min + 3)"},
            )
        ],
    )
    def post(self, request, match_id: int):
        match = self.get_match()
        data = ExtensionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        extension = time_extension_grant(match=match, actor=request.user, **data.validated_data)
        return Response(ExtensionOutputSerializer(extension).data, status=status.HTTP_201_CREATED)


class MatchTimeCallApi(_MatchApi):
    """Call time at a table whose own time has run out, naming the active team (MTR 2.4). Judges.

    ``active_team`` is "A" or "B" (the pairing's sides) or the id of one of the two teams.
    Refused with 409 before the table's end (the round's end plus its extensions).
    """

    @extend_schema(
        operation_id="match_time_call",
        summary="Call time at a table",
        request=TimeCallInputSerializer,
        responses={200: TableClockSerializer, **CLOCK_REFUSALS},
    )
    def post(self, request, match_id: int):
        match = self.get_match()
        data = TimeCallInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match_time_call(
            match=match, actor=request.user, active_team=data.validated_data["active_team"], at=timezone.now()
        )
        return self.table_response(match)


class MatchTurnCompleteApi(_MatchApi):
    """Advance a table's end-of-round tracker by one turn (turn 0 first). Judges."""

    @extend_schema(
        operation_id="match_turn_complete",
        summary="Complete the current end-of-round turn",
        request=None,
        responses={200: TableClockSerializer, **CLOCK_REFUSALS},
    )
    def post(self, request, match_id: int):
        match = self.get_match()
        match_turn_complete(match=match, actor=request.user)
        return self.table_response(match)
