"""Floor API: judge calls, zones and the end-of-round console, the deck-check planner, notes.

One thin view per operation: validate, call one service or selector, shape the answer. Who may
call what is one named rule per method (``tournaments.rules``, asked by the API's one permission
class); a method the view does not handle is a 405. Refusals arrive as ``DomainError``/``ConflictError`` through the API's handler.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from clock.domain.round_clock import MAX_EXTENSION_MINUTES
from common.api import ErrorSerializer
from common.idempotency import KEY_HEADER, idempotent_method
from floor import selectors
from floor.models import JudgeCall, Note, NoteKind, Zone
from floor.services.calls import (
    REASON_MAX,
    judge_call_claim,
    judge_call_escalate,
    judge_call_raise,
    judge_call_resolve,
)
from floor.services.notes import TEXT_MAX, note_add, note_lock
from floor.services.zones import zone_create
from penalties.domain import CATALOGUE
from penalties.models import Penalty
from tournaments.api.views import EventApi
from tournaments.models import Match, Player, Round, Tournament
from tournaments.rules import can_head_judge

REFUSED = {
    400: OpenApiResponse(ErrorSerializer, description="Bad input, named by field."),
    409: OpenApiResponse(ErrorSerializer, description="The call's or table's state forbids it."),
}


class _FloorApi(EventApi):
    """A floor operation of one event: the event from the URL, one named rule per method."""


# --- Judge calls ---------------------------------------------------------------------------


class CallOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="match.table")
    round = serializers.IntegerField(source="match.round.number")
    match = serializers.IntegerField(source="match_id")
    status = serializers.CharField(
        source="effective_status",
        help_text="open, claimed, resolved, or closed (the table's result was confirmed before a judge "
        "resolved the call).",
    )
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()
    raised_by = serializers.CharField(
        source="raised_by.username",
        allow_null=True,
        default=None,
        help_text="Empty for a call the toolkit raised: the teams reported different results.",
    )
    zone = serializers.CharField(source="zone.name", allow_null=True, default=None)
    claimed_by = serializers.CharField(source="claimed_by.username", allow_null=True, default=None)
    claimed_at = serializers.DateTimeField(allow_null=True)
    escalated = serializers.SerializerMethodField()
    resolved_at = serializers.DateTimeField(allow_null=True)
    note = serializers.CharField()
    penalty = serializers.IntegerField(source="penalty_id", allow_null=True)
    extension_minutes = serializers.IntegerField(source="extension.minutes", allow_null=True, default=None)

    def get_escalated(self, call: JudgeCall) -> bool:
        return call.escalated_at is not None


def _answer(call: JudgeCall, code: int = status.HTTP_200_OK) -> Response:
    return Response(CallOutputSerializer(selectors.call_detail(call.pk)).data, status=code)


class JudgeCallsApi(_FloorApi):
    """``GET``: the event's calls, live ones first and oldest first (staff). ``POST``: call a judge
    to a table (a player of that match, or staff)."""

    rules = {"GET": "can_see_floor", "POST": "can_call_judge"}

    def rule_args(self, request) -> tuple:
        """A call is asked about its table: the match the body names, when it is of this event."""
        tournament = self.get_tournament()
        if request.method != "POST":
            return (tournament,)
        match_id = request.data.get("match") if hasattr(request.data, "get") else None
        if not isinstance(match_id, int) or not 0 < match_id < 2**31:  # the body is not validated yet
            return (tournament,)
        return (tournament, Match.objects.filter(pk=match_id, round__tournament=tournament).first())

    class InputSerializer(serializers.Serializer):
        match = serializers.IntegerField(min_value=1, max_value=2**31 - 1, help_text="The match (table) id.")
        reason = serializers.CharField(max_length=REASON_MAX, required=False, allow_blank=True, default="")

    @extend_schema(
        responses={200: CallOutputSerializer(many=True)}, summary="List judge calls, oldest open first"
    )
    def get(self, request, tournament_id: int):
        rows = selectors.calls_for_event(self.get_tournament())
        return Response(CallOutputSerializer(rows, many=True).data)

    @extend_schema(
        request=InputSerializer,
        parameters=[KEY_HEADER],
        responses={201: CallOutputSerializer, 403: ErrorSerializer, **REFUSED},
        summary="Call a judge to a table",
    )
    @idempotent_method
    def post(self, request, tournament_id: int):
        tournament = self.get_tournament()
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = Match.objects.filter(pk=data.validated_data["match"], round__tournament=tournament).first()
        if match is None:
            raise ValidationError({"match": [f"no match {data.validated_data['match']} in this event"]})
        call = judge_call_raise(
            tournament=tournament, match=match, actor=request.user, reason=data.validated_data["reason"]
        )
        return _answer(call, status.HTTP_201_CREATED)


class _CallApi(_FloorApi):
    rules = {"POST": "can_judge"}

    def get_call(self) -> JudgeCall:
        if not hasattr(self, "_call"):
            self._call = get_object_or_404(
                JudgeCall.objects.select_related("tournament"), pk=self.kwargs["call_id"]
            )
        return self._call

    def get_tournament(self) -> Tournament:
        return self.get_call().tournament


class JudgeCallClaimApi(_CallApi):
    """Take the call; 409 naming the judge who has it, so the second judge turns back."""

    @extend_schema(
        request=None, responses={200: CallOutputSerializer, **REFUSED}, summary="Claim a judge call"
    )
    def post(self, request, call_id: int):
        return _answer(judge_call_claim(call=self.get_call(), actor=request.user))


class JudgeCallEscalateApi(_CallApi):
    """Send the call to the head judge."""

    @extend_schema(
        request=None, responses={200: CallOutputSerializer, **REFUSED}, summary="Escalate a judge call"
    )
    def post(self, request, call_id: int):
        return _answer(judge_call_escalate(call=self.get_call(), actor=request.user))


class JudgeCallResolveApi(_CallApi):
    """Resolve with a note; optionally a penalty and/or a time extension for the table, all at once."""

    class PenaltyInputSerializer(serializers.Serializer):
        player = serializers.IntegerField(
            min_value=1, max_value=2**31 - 1, help_text="A player at the table."
        )
        infraction = serializers.ChoiceField(choices=list(CATALOGUE))
        description = serializers.CharField(max_length=4000, required=False, allow_blank=True, default="")

    class InputSerializer(serializers.Serializer):
        note = serializers.CharField(max_length=4000)
        penalty = serializers.JSONField(required=False, allow_null=True, default=None)
        extension_minutes = serializers.IntegerField(
            min_value=0, max_value=MAX_EXTENSION_MINUTES, required=False, allow_null=True, default=None
        )

    @extend_schema(
        request=inline_serializer(
            "JudgeCallResolveInput",
            {
                "note": serializers.CharField(max_length=4000),
                "penalty": inline_serializer(
                    "JudgeCallPenaltyInput",
                    {
                        "player": serializers.IntegerField(),
                        "infraction": serializers.ChoiceField(choices=list(CATALOGUE)),
                        "description": serializers.CharField(required=False),
                    },
                    required=False,
                    allow_null=True,
                ),
                "extension_minutes": serializers.IntegerField(
                    min_value=0, max_value=MAX_EXTENSION_MINUTES, required=False, allow_null=True
                ),
            },
        ),
        responses={200: CallOutputSerializer, **REFUSED},
        summary="Resolve a judge call",
    )
    def post(self, request, call_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        penalty = data.validated_data["penalty"]
        if penalty is not None:
            if not isinstance(penalty, dict):
                raise ValidationError({"penalty": ["an object {player, infraction, description?}"]})
            penalty_data = self.PenaltyInputSerializer(data=penalty)
            if not penalty_data.is_valid():
                raise ValidationError({"penalty": penalty_data.errors})
            penalty = penalty_data.validated_data
        call = judge_call_resolve(
            call=self.get_call(),
            actor=request.user,
            note=data.validated_data["note"],
            penalty=penalty,
            extension_minutes=data.validated_data["extension_minutes"],
        )
        return _answer(call)


# --- Zones and the end-of-round console -----------------------------------------------------


class ZoneOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    first_table = serializers.IntegerField()
    last_table = serializers.IntegerField()
    judges = serializers.SerializerMethodField()

    def get_judges(self, zone: Zone) -> list[str]:
        return [user.username for user in zone.judges.all()]


class ZonesApi(_FloorApi):
    """``GET``: the event's zones (staff). ``POST``: add one (organizer or head judge)."""

    rules = {"GET": "can_see_floor", "POST": "can_plan_zones"}

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=60)
        first_table = serializers.IntegerField(min_value=1, max_value=100_000)
        last_table = serializers.IntegerField(min_value=1, max_value=100_000)
        judges = serializers.ListField(
            child=serializers.CharField(max_length=150), required=False, default=list, max_length=100
        )

    @extend_schema(responses={200: ZoneOutputSerializer(many=True)}, summary="List the event's zones")
    def get(self, request, tournament_id: int):
        return Response(ZoneOutputSerializer(selectors.zones_for(self.get_tournament()), many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={201: ZoneOutputSerializer, 400: ErrorSerializer},
        summary="Add a zone",
    )
    def post(self, request, tournament_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        zone = zone_create(tournament=self.get_tournament(), actor=request.user, **data.validated_data)
        return Response(ZoneOutputSerializer(zone).data, status=status.HTTP_201_CREATED)


class OutstandingTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    match = serializers.IntegerField(source="match.id")
    ends_at = serializers.DateTimeField(allow_null=True, help_text="Round end plus this table's extensions.")
    extension_minutes = serializers.IntegerField()
    time_called = serializers.BooleanField()
    extra_turns_total = serializers.IntegerField(help_text="3, plus 2 per Slow Play penalty counted.")
    extra_turns_played = serializers.IntegerField()
    active_team = serializers.CharField(allow_null=True)
    result_in = serializers.BooleanField(help_text="A result was reported and waits for confirmation.")


class EndOfRoundApi(_FloorApi):
    """A zone's tables without a confirmed result, ordered by their own end (staff)."""

    rules = {"GET": "can_see_floor"}

    @extend_schema(
        parameters=[OpenApiParameter("zone", int, description="Zone id; omit for every table.")],
        responses={
            200: inline_serializer("EndOfRound", {"tables": OutstandingTableSerializer(many=True)}),
            400: ErrorSerializer,
            404: ErrorSerializer,
        },
        summary="End-of-round console of one zone",
    )
    def get(self, request, tournament_id: int, number: int):
        tournament = self.get_tournament()
        round_row = get_object_or_404(
            Round.objects.select_related("tournament"), tournament=tournament, number=number
        )
        zone = None
        raw = request.query_params.get("zone")
        if raw not in (None, ""):
            if not (raw.isascii() and raw.isdigit()) or len(raw) > 10:
                raise ValidationError({"zone": ["a zone id"]})
            zone = Zone.objects.filter(tournament=tournament, pk=int(raw)).first()
            if zone is None:
                raise ValidationError({"zone": [f"no zone {raw} in this event"]})
        tables = selectors.end_of_round(round_row, zone=zone, now=timezone.now())
        return Response({"tables": OutstandingTableSerializer(tables, many=True).data})


# --- Deck checks ------------------------------------------------------------------------------


class DeckCheckPlanApi(_FloorApi):
    """Tables to check this round: unchecked teams, weighted toward the top tables later on."""

    rules = {"GET": "can_judge"}

    class QuerySerializer(serializers.Serializer):
        round = serializers.IntegerField(min_value=1, max_value=1000)
        count = serializers.IntegerField(min_value=1, max_value=1000, default=4)

    @extend_schema(
        parameters=[
            OpenApiParameter("round", int, required=True, description="Round number"),
            OpenApiParameter("count", int, description="How many tables (default 4)"),
        ],
        responses={
            200: inline_serializer(
                "DeckCheckPlan",
                {
                    "round": serializers.IntegerField(),
                    "checks": inline_serializer(
                        "ProposedCheck",
                        {
                            "match": serializers.IntegerField(),
                            "table": serializers.IntegerField(),
                            "team": serializers.IntegerField(),
                        },
                        many=True,
                    ),
                },
            ),
            400: ErrorSerializer,
        },
        summary="Propose tables for deck checks",
    )
    def get(self, request, tournament_id: int):
        query = self.QuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        tournament = self.get_tournament()
        number = query.validated_data["round"]
        round_row = (
            Round.objects.select_related("tournament").filter(tournament=tournament, number=number).first()
        )
        if round_row is None:
            raise ValidationError({"round": [f"round {number} has not been paired"]})
        plan = selectors.deck_check_plan(round_row, count=query.validated_data["count"])
        return Response(
            {
                "round": number,
                "checks": [{"match": p.match_id, "table": p.table, "team": p.team_id} for p in plan],
            }
        )


class DeckCheckContendersApi(_FloorApi):
    """Unchecked active teams that can still make the top cut."""

    rules = {"GET": "can_judge"}

    @extend_schema(
        responses={
            200: inline_serializer(
                "DeckCheckContenders",
                {
                    "cut": serializers.IntegerField(),
                    "cut_line_points": serializers.IntegerField(allow_null=True),
                    "remaining_rounds": serializers.IntegerField(),
                    "teams": serializers.ListField(child=serializers.IntegerField()),
                },
            )
        },
        summary="Teams to deck check before the cut",
    )
    def get(self, request, tournament_id: int):
        result = selectors.deck_check_contenders(self.get_tournament())
        return Response(
            {
                "cut": result.cut,
                "cut_line_points": result.cut_line_points,
                "remaining_rounds": result.remaining_rounds,
                "teams": list(result.teams),
            }
        )


# --- Notes ------------------------------------------------------------------------------------


class NoteOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    match = serializers.IntegerField(source="match_id", allow_null=True)
    penalty = serializers.IntegerField(source="penalty_id", allow_null=True)
    player = serializers.IntegerField(source="player_id", allow_null=True)
    investigation = serializers.IntegerField(source="investigation_id", allow_null=True)
    kind = serializers.CharField()
    given_by = serializers.CharField()
    text = serializers.CharField()
    author = serializers.CharField(source="author.username")
    created_at = serializers.DateTimeField()
    locked = serializers.BooleanField()


def _event_object(rows, pk: int | None, field: str):
    """The row ``pk`` among ``rows`` (already limited to the event), or a 400 naming ``field``."""
    if pk is None:
        return None
    row = rows.filter(pk=pk).first()
    if row is None:
        raise ValidationError({field: [f"no {field} {pk} in this event"]})
    return row


class NotesApi(_FloorApi):
    """Judges' notes on a match, a penalty or a player: judges of the event only."""

    rules = {"GET": "can_judge", "POST": "can_judge"}

    class FilterSerializer(serializers.Serializer):
        match = serializers.IntegerField(min_value=1, max_value=2**31 - 1, required=False)
        penalty = serializers.IntegerField(min_value=1, max_value=2**31 - 1, required=False)
        player = serializers.IntegerField(min_value=1, max_value=2**31 - 1, required=False)

    class InputSerializer(serializers.Serializer):
        match = serializers.IntegerField(min_value=1, max_value=2**31 - 1, required=False, allow_null=True)
        penalty = serializers.IntegerField(min_value=1, max_value=2**31 - 1, required=False, allow_null=True)
        player = serializers.IntegerField(min_value=1, max_value=2**31 - 1, required=False, allow_null=True)
        kind = serializers.CharField(
            max_length=10, default=NoteKind.NOTE, help_text="note, or statement (then given_by names whose)"
        )

        def validate_kind(self, value: str) -> str:
            if value not in NoteKind.values:
                raise ValidationError(_("'note' or 'statement', not %(value)s") % {"value": repr(value)})
            return value

        given_by = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
        text = serializers.CharField(max_length=TEXT_MAX)

    @extend_schema(
        parameters=[
            OpenApiParameter("match", int, description="Match id"),
            OpenApiParameter("penalty", int, description="Penalty id"),
            OpenApiParameter("player", int, description="Player id"),
        ],
        responses={200: NoteOutputSerializer(many=True), 400: ErrorSerializer},
        summary="List judges' notes",
    )
    def get(self, request, tournament_id: int):
        tournament = self.get_tournament()
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        rows = selectors.notes_for(
            tournament,
            head_judge=can_head_judge(request.user, tournament),
            match_id=filters.validated_data.get("match"),
            penalty_id=filters.validated_data.get("penalty"),
            player_id=filters.validated_data.get("player"),
        )
        return Response(NoteOutputSerializer(rows, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={201: NoteOutputSerializer, 400: ErrorSerializer, 409: ErrorSerializer},
        summary="Add a judge's note",
    )
    @idempotent_method
    def post(self, request, tournament_id: int):
        tournament = self.get_tournament()
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        note = note_add(
            tournament=tournament,
            actor=request.user,
            text=values["text"],
            kind=values["kind"],
            given_by=values["given_by"],
            match=_event_object(
                Match.objects.select_related("round").filter(round__tournament=tournament),
                values.get("match"),
                "match",
            ),
            penalty=_event_object(
                Penalty.objects.filter(tournament=tournament), values.get("penalty"), "penalty"
            ),
            player=_event_object(
                Player.objects.filter(tournament=tournament), values.get("player"), "player"
            ),
        )
        return Response(NoteOutputSerializer(note).data, status=status.HTTP_201_CREATED)


class NoteLockApi(_FloorApi):
    """The head judge locks a note: only the head judge reads it from then on."""

    rules = {"POST": "can_head_judge"}

    def get_note(self) -> Note:
        if not hasattr(self, "_note"):
            self._note = get_object_or_404(
                Note.objects.select_related("tournament"), pk=self.kwargs["note_id"]
            )
        return self._note

    def get_tournament(self) -> Tournament:
        return self.get_note().tournament

    @extend_schema(request=None, responses={200: NoteOutputSerializer}, summary="Lock a judge's note")
    def post(self, request, note_id: int):
        return Response(NoteOutputSerializer(note_lock(note=self.get_note(), actor=request.user)).data)
