"""Penalties API: thin views that validate, call one service or selector, and shape the answer.

Penalties are for event staff only: everyone else, anonymous visitors included, gets 403 (not
401), so the API never hints whether a penalty exists to someone who may not see it.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api import ErrorSerializer
from common.i18n import localize
from common.numbers import column_bounds
from penalties import selectors
from penalties.domain import CATALOGUE, DeckProblemUpgrade, PenaltyDecision, Rel
from penalties.domain import Penalty as PenaltyKind
from penalties.models import HeadJudgeReview, Penalty
from penalties.reviews import penalty_overturn, penalty_review
from penalties.services import CONTEXT_FLAGS, penalty_issue, penalty_propose
from tournaments.api.permissions import RulePermission
from tournaments.models import Player, Round, Tournament


class _EventApi(APIView):
    permission_classes = [RulePermission]
    rules: dict[str, str] = {}
    refuse_anonymous_with_403 = True
    refusal_message = gettext_lazy("Only this event's judges and staff may see or give penalties.")

    def get_tournament(self) -> Tournament:
        if not hasattr(self, "_tournament"):
            self._tournament = get_object_or_404(Tournament, pk=self.kwargs["tournament_id"])
        return self._tournament

    def rule_args(self, request) -> tuple:
        return (self.get_tournament(),)


class ContextInputSerializer(serializers.Serializer):
    """The circumstances a judge states; each is read only by the infractions it concerns."""

    found_during_deck_check = serializers.BooleanField(default=False)
    game_cannot_continue = serializers.BooleanField(default=False)
    in_extra_turns = serializers.BooleanField(default=False)
    between_matches = serializers.BooleanField(default=False)
    knowingly = serializers.BooleanField(default=False)
    repeated_after_reminders = serializers.BooleanField(default=False)
    trigger_detrimental = serializers.BooleanField(default=False)
    illegal_face_down = serializers.BooleanField(default=False)
    information_available_between_games = serializers.BooleanField(default=False)
    marked_pattern_advantage = serializers.BooleanField(default=False)
    marked_no_replacements = serializers.BooleanField(default=False)
    malicious_or_unremorseful = serializers.BooleanField(default=False)
    minutes_late = serializers.FloatField(min_value=0, required=False, allow_null=True, default=None)
    deck_problem_upgrade = serializers.ChoiceField(
        choices=[value.value for value in DeckProblemUpgrade], required=False, allow_null=True, default=None
    )


CONTEXT_FIELDS = (*CONTEXT_FLAGS, "minutes_late", "deck_problem_upgrade")


class ProposalInputSerializer(ContextInputSerializer):
    player = serializers.IntegerField(help_text="Player id.")
    round = serializers.IntegerField(min_value=1, help_text="Round number.")
    infraction = serializers.ChoiceField(choices=list(CATALOGUE))
    day = serializers.IntegerField(
        **column_bounds(Penalty, "day", min_value=1),
        required=False,
        help_text="Event day (1, 2, …); default the latest day any penalty of the event was given on. "
        "GPE and TE Warnings upgrade only within one day [IPG §2, §3]: send the new day's number "
        "with its first penalty.",
    )


def _resolve(tournament: Tournament, data: dict) -> tuple[Player, Round]:
    """The player and round named in the body, as 400s naming the field when they are not in the event."""
    player = Player.objects.select_related("team").filter(tournament=tournament, pk=data["player"]).first()
    event_round = Round.objects.filter(tournament=tournament, number=data["round"]).first()
    errors = {}
    if player is None:
        errors["player"] = [_("no player with id %(id)s in this event") % {"id": data["player"]}]
    if event_round is None:
        errors["round"] = [
            _("round %(number)s has not been paired in this event") % {"number": data["round"]}
        ]
    if errors:
        raise ValidationError(errors)
    return player, event_round


def _context(data: dict) -> dict:
    return {name: data[name] for name in CONTEXT_FIELDS}


class DecisionOutputSerializer(serializers.Serializer):
    """The core's decision, as the judge page shows it before confirming."""

    infraction = serializers.CharField(source="infraction_code")
    default_penalty = serializers.CharField()
    base_penalty = serializers.CharField()
    proposed_penalty = serializers.CharField()
    penalty = serializers.CharField()
    penalty_label = serializers.SerializerMethodField()
    upgraded = serializers.BooleanField()
    team_effect = serializers.CharField()
    match_point_adjustment = serializers.IntegerField()
    extra_turns = serializers.IntegerField()
    drops_team = serializers.BooleanField()
    applies_to_next_match = serializers.BooleanField()
    offer_ftmgs_to = serializers.SerializerMethodField()
    steps = serializers.ListField(child=serializers.CharField())
    notes = serializers.ListField(child=serializers.CharField())
    explanation = serializers.CharField()
    penalty_name = serializers.SerializerMethodField(
        help_text="The penalty's IPG name in the request's language (``penalty_label`` stays English)."
    )
    explanation_text = serializers.SerializerMethodField(
        help_text="``explanation`` in the request's language, as the judge page shows it."
    )
    notes_text = serializers.SerializerMethodField(help_text="``notes`` in the request's language.")

    def get_penalty_label(self, decision: PenaltyDecision) -> str:
        return str(decision.penalty.label)

    def get_penalty_name(self, decision: PenaltyDecision) -> str:
        return localize(decision.penalty.label)

    def get_explanation_text(self, decision: PenaltyDecision) -> str:
        return localize(decision.explanation)

    def get_notes_text(self, decision: PenaltyDecision) -> list[str]:
        return [localize(note) for note in decision.notes]

    def get_offer_ftmgs_to(self, decision: PenaltyDecision) -> list[int]:
        return [int(pk) for pk in decision.offer_ftmgs_to]


class PenaltyPreviewApi(_EventApi):
    """What the rules give, without saving: the judge page shows it before the judge confirms."""

    rules = {"POST": "can_propose_penalty"}

    @extend_schema(
        request=ProposalInputSerializer,
        responses={200: DecisionOutputSerializer},
        summary="Propose a penalty without issuing it",
    )
    def post(self, request, tournament_id: int):
        tournament = self.get_tournament()
        data = ProposalInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player, event_round = _resolve(tournament, data.validated_data)
        decision = penalty_propose(
            tournament=tournament,
            player=player,
            round_row=event_round,
            infraction=data.validated_data["infraction"],
            context=_context(data.validated_data),
            day=data.validated_data.get("day"),
        )
        return Response(DecisionOutputSerializer(decision).data)


class PenaltiesApi(_EventApi):
    """``GET``: the event's penalties (staff); ``POST``: issue one (judges; deviation: head judge)."""

    rules = {"GET": "can_read_penalties", "POST": "can_propose_penalty"}

    class FilterSerializer(serializers.Serializer):
        # Bounded by the columns they are compared with: a number past them is a 400, not a
        # database error.
        round = serializers.IntegerField(required=False, **column_bounds(Round, "number", min_value=1))
        team = serializers.IntegerField(required=False, **column_bounds(Player, "team"))
        player = serializers.IntegerField(required=False, **column_bounds(Player, "id"))

    class ListOutputSerializer(serializers.ModelSerializer):
        round = serializers.IntegerField(source="round.number")
        table = serializers.IntegerField(source="match.table", allow_null=True, default=None)
        player = inline_serializer(
            "PenaltyPlayer", {"id": serializers.IntegerField(), "name": serializers.CharField()}
        )
        team = inline_serializer(
            "PenaltyTeam", {"id": serializers.IntegerField(), "name": serializers.CharField()}
        )
        infraction = serializers.CharField()
        base_penalty = serializers.CharField()
        proposed_penalty = serializers.CharField()
        penalty = serializers.CharField()
        team_effect = serializers.CharField()
        judge = serializers.CharField(source="judge.username")
        overturned_by = serializers.CharField(source="overturned_by.username", allow_null=True, default=None)
        review = serializers.ChoiceField(
            choices=HeadJudgeReview.choices,
            help_text="A judge's Disqualification is 'pending' (no effect) until the head judge confirms "
            "or changes it; empty when no review is needed.",
        )
        reviewed_by = serializers.CharField(source="reviewed_by.username", allow_null=True, default=None)

        class Meta:
            model = Penalty
            fields = [
                "id",
                "round",
                "table",
                "player",
                "team",
                "infraction",
                "description",
                "judge",
                "created_at",
                "day",
                "base_penalty",
                "proposed_penalty",
                "penalty",
                "upgraded",
                "explanation",
                "steps",
                "notes",
                "team_effect",
                "match_point_adjustment",
                "extra_turns",
                "offer_ftmgs_to",
                "simultaneous_with",
                "context",
                "deviated",
                "deviation_reason",
                "overturned",
                "overturned_by",
                "overturned_at",
                "overturn_reason",
                "review",
                "reviewed_by",
                "reviewed_at",
                "review_reason",
                "replaced_by",
            ]

    class IssueInputSerializer(ProposalInputSerializer):
        description = serializers.CharField(max_length=4000)
        penalty = serializers.ChoiceField(
            choices=[kind.value for kind in PenaltyKind],
            required=False,
            help_text="Only to deviate from the proposal (head judge, with deviation_reason).",
        )
        deviation_reason = serializers.CharField(required=False, allow_blank=True, default="")
        simultaneous_with = serializers.IntegerField(
            required=False, help_text="An earlier penalty at the same match given in the same ruling."
        )

    class IssueOutputSerializer(serializers.ModelSerializer):
        infraction = serializers.CharField()
        base_penalty = serializers.CharField()
        proposed_penalty = serializers.CharField()
        penalty = serializers.CharField()
        team_effect = serializers.CharField()

        class Meta:
            model = Penalty
            fields = [
                "id",
                "infraction",
                "base_penalty",
                "proposed_penalty",
                "penalty",
                "upgraded",
                "deviated",
                "explanation",
                "steps",
                "notes",
                "team_effect",
                "match_point_adjustment",
                "extra_turns",
                "offer_ftmgs_to",
                "review",
            ]

    @extend_schema(
        parameters=[
            OpenApiParameter("round", int, description="Round number"),
            OpenApiParameter("team", int, description="Team id"),
            OpenApiParameter("player", int, description="Player id"),
        ],
        responses={200: ListOutputSerializer(many=True)},
        summary="List the event's penalties, overturned ones marked",
    )
    def get(self, request, tournament_id: int):
        tournament = self.get_tournament()
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        rows = selectors.penalties_listed(
            tournament_id=tournament.pk,
            round_number=filters.validated_data.get("round"),
            team_id=filters.validated_data.get("team"),
            player_id=filters.validated_data.get("player"),
        )
        return Response(self.ListOutputSerializer(rows, many=True).data)

    @extend_schema(
        request=IssueInputSerializer,
        responses={201: IssueOutputSerializer},
        summary="Issue a penalty and apply its team consequences",
    )
    def post(self, request, tournament_id: int):
        tournament = self.get_tournament()
        data = self.IssueInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        player, event_round = _resolve(tournament, values)
        simultaneous_with = None
        if "simultaneous_with" in values:
            simultaneous_with = Penalty.objects.filter(
                tournament=tournament, pk=values["simultaneous_with"]
            ).first()
            if simultaneous_with is None:
                raise ValidationError({"simultaneous_with": [_("no such penalty in this event")]})
        penalty = penalty_issue(
            tournament=tournament,
            actor=request.user,
            player=player,
            round_row=event_round,
            infraction=values["infraction"],
            description=values["description"],
            penalty=values.get("penalty"),
            deviation_reason=values["deviation_reason"],
            context=_context(values),
            day=values.get("day"),
            simultaneous_with=simultaneous_with,
        )
        return Response(self.IssueOutputSerializer(penalty).data, status=status.HTTP_201_CREATED)


class PenaltyOverturnApi(_EventApi):
    """The head judge overturns a penalty on appeal; the record stays, its effects are undone."""

    rules = {"POST": "can_overturn_penalty"}
    refusal_message = gettext_lazy("Only the head judge may overturn a penalty.")

    class OverturnInputSerializer(serializers.Serializer):
        reason = serializers.CharField(max_length=2000)

    class OverturnOutputSerializer(serializers.ModelSerializer):
        penalty = serializers.CharField()
        overturned_by = serializers.CharField(source="overturned_by.username")

        class Meta:
            model = Penalty
            fields = ["id", "penalty", "overturned", "overturned_by", "overturned_at", "overturn_reason"]

    def get_tournament(self) -> Tournament:
        return self.get_penalty().tournament

    def get_penalty(self) -> Penalty:
        if not hasattr(self, "_penalty"):
            self._penalty = get_object_or_404(
                Penalty.objects.select_related("tournament"), pk=self.kwargs["pk"]
            )
        return self._penalty

    @extend_schema(
        request=OverturnInputSerializer,
        responses={200: OverturnOutputSerializer},
        summary="Overturn a penalty",
    )
    def post(self, request, pk: int):
        data = self.OverturnInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        penalty = penalty_overturn(
            penalty=self.get_penalty(), actor=request.user, reason=data.validated_data["reason"]
        )
        return Response(self.OverturnOutputSerializer(penalty).data)


class PenaltyReviewApi(PenaltyOverturnApi):
    """The head judge confirms a judge's proposed Disqualification, or changes it to another penalty."""

    rules = {"POST": "can_review_disqualification"}
    refusal_message = gettext_lazy("Only the head judge may confirm or change a proposed Disqualification.")

    class ReviewInputSerializer(serializers.Serializer):
        decision = serializers.ChoiceField(choices=["confirm", "change"])
        penalty = serializers.ChoiceField(
            choices=[kind.value for kind in PenaltyKind if kind is not PenaltyKind.DISQUALIFICATION],
            required=False,
            help_text="With 'change': the penalty the head judge gives instead.",
        )
        reason = serializers.CharField(max_length=2000)

    class ReviewOutputSerializer(serializers.ModelSerializer):
        penalty = serializers.CharField()
        review = serializers.CharField()

        class Meta:
            model = Penalty
            fields = ["id", "penalty", "review", "team_effect", "deviated", "deviation_reason"]

    @extend_schema(
        request=ReviewInputSerializer,
        responses={
            200: ReviewOutputSerializer,
            409: OpenApiResponse(ErrorSerializer, description="The penalty awaits no head judge's decision."),
        },
        summary="Confirm or change a proposed Disqualification (head judge)",
        description="'confirm' gives the Disqualification its effect; 'change' issues the given penalty "
        "in its place (the answer is that new penalty). 409 if the penalty awaits no decision.",
    )
    def post(self, request, pk: int):
        data = self.ReviewInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        decided = penalty_review(
            penalty=self.get_penalty(),
            actor=request.user,
            decision=data.validated_data["decision"],
            new_penalty=data.validated_data.get("penalty"),
            reason=data.validated_data["reason"],
        )
        return Response(self.ReviewOutputSerializer(decided).data)


class InfractionListApi(_EventApi):
    """The infraction catalogue with this event's defaults, for the judge page's searchable list."""

    rules = {"GET": "can_read_penalties"}

    class InfractionOutputSerializer(serializers.Serializer):
        code = serializers.CharField()
        name = serializers.CharField()
        category = serializers.CharField()
        ipg_section = serializers.CharField()
        default_penalty = serializers.CharField()
        default_penalty_label = serializers.CharField()
        modifiers = serializers.CharField()
        regular_handling = serializers.CharField()

    @extend_schema(
        responses={200: InfractionOutputSerializer(many=True)}, summary="Infractions and their defaults here"
    )
    def get(self, request, tournament_id: int):
        rel = Rel(self.get_tournament().rel)
        return Response(self.InfractionOutputSerializer(infraction_rows(rel), many=True).data)


def infraction_rows(rel: Rel) -> list[dict]:
    """The catalogue in IPG order with the default at ``rel``; the judge page embeds the same rows."""
    return [
        {
            "code": infraction.code,
            "name": infraction.name,
            "category": infraction.category.value,
            "ipg_section": infraction.ipg_section,
            "default_penalty": infraction.default_penalty(rel).value,
            "default_penalty_label": infraction.default_penalty(rel).label,
            "modifiers": infraction.modifiers,
            "regular_handling": infraction.regular_handling,
        }
        for infraction in CATALOGUE.values()
    ]
