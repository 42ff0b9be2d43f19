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
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from clock.api.serializers import (
    ExtensionInputSerializer,
    ExtensionOutputSerializer,
    RoundClockSerializer,
    RoundStartInputSerializer,
    TableClockSerializer,
    TimeCallInputSerializer,
    clock_payload,
    table_row,
)
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
from tournaments.api.permissions import RulePermission
from tournaments.models import Match, Round, Tournament

CLOCK_REFUSALS = {
    400: OpenApiResponse(ErrorSerializer, description="The clock core refused the step (e.g. not started)."),
    409: OpenApiResponse(ErrorSerializer, description="The round or table is in a state that forbids it."),
}
"""What every clock write may answer besides its 200/201: the core's refusals (module docstring)."""


class _RoundApi(APIView):
    """A round addressed as ``tournaments/{tournament_id}/rounds/{number}/``; staff only by default."""

    permission_classes = [RulePermission]
    rules = {"POST": "can_run_clock"}

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

    def rule_args(self, request) -> tuple:
        return (self.get_tournament(),)

    def clock_response(self, round_row: Round) -> Response:
        view = round_clock(round_row, now=timezone.now())
        return Response(RoundClockSerializer(clock_payload(view)).data)


class RoundClockApi(_RoundApi):
    """The round's clock and every table's end and end-of-round turns.

    Public once the round's pairings are published (``Round.is_public``), so the
    projector and players' phones can poll it; staff may read it at any time.
    """

    rules = {"GET": "can_view_round"}

    def rule_args(self, request) -> tuple:
        return (self.get_round(),)

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
        return self.clock_response(self.get_round())


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
            round_row=round_row, actor=request.user, at=timezone.now(), untimed=data.validated_data["untimed"]
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
        round_pause(round_row=round_row, actor=request.user, at=timezone.now())
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
        round_resume(round_row=round_row, actor=request.user, at=timezone.now())
        return self.clock_response(round_row)


class _MatchApi(APIView):
    """A table addressed as ``matches/{match_id}/``; judges only (organizer, head judge, judge)."""

    permission_classes = [RulePermission]
    rules = {"POST": "can_work_table"}

    def get_match(self) -> Match:
        if not hasattr(self, "_match"):
            self._match = get_object_or_404(
                Match.objects.select_related("round__tournament"), pk=self.kwargs["match_id"]
            )
        return self._match

    def get_tournament(self) -> Tournament:
        return self.get_match().round.tournament

    def rule_args(self, request) -> tuple:
        return (self.get_match(),)

    def table_response(self, match: Match) -> Response:
        fresh = (
            Match.objects.select_related("round__tournament").prefetch_related("extensions").get(pk=match.pk)
        )
        row = match_clock_row(fresh, now=timezone.now())
        return Response(TableClockSerializer(table_row(row)).data)


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
