"""Decklist API: submit a list, preview one as it is typed, read a team's lists with the UDC
(or Limited pool) verdict, read one list's versions, register and read a Limited team's pool.

Who sees what [MTR 2.7: lists are not public]: a player submits only their own list and reads
only their own team's; event staff read and enter all; anyone may read once the organizer
published the lists after the event. Garbage text is answered with line-numbered errors
(201) or a 400 naming the problem (too long, binary), never a 500.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api import ErrorSerializer
from decklists import selectors
from decklists.domain import CardIndex
from decklists.models import Decklist
from decklists.services import check_text_acceptable, decklist_pool_register, decklist_submit
from tournaments.api.permissions import RulePermission
from tournaments.models import Player, Team, Tournament

NOT_YOURS = {
    403: OpenApiResponse(ErrorSerializer, description="Another team's lists, before they are public.")
}
"""The read views answer 403 to anyone who may not see the lists, the anonymous included [MTR 2.7]."""


class DecklistApi(APIView):
    """Each view names the rule (``tournaments.rules``) that decides each method and asks it about
    the object ``rule_args`` gives (the event, or the team whose lists these are). A refused
    caller gets 403, the anonymous too, so the API never hints that a list exists."""

    permission_classes = [RulePermission]
    rules: dict[str, str] = {}
    refuse_anonymous_with_403 = True
    refusal_message = gettext_lazy("Decklists are visible to the team and the event's staff only.")

    def get_tournament(self) -> Tournament:
        if not hasattr(self, "_tournament"):
            self._tournament = get_object_or_404(Tournament, pk=self.kwargs["tournament_id"])
        return self._tournament

    def get_team(self) -> Team:
        if not hasattr(self, "_team"):
            self._team = get_object_or_404(
                Team.objects.select_related("tournament"),
                pk=self.kwargs["team_id"],
                tournament=self.get_tournament(),
            )
        return self._team

    def rule_args(self, request) -> tuple:
        return (self.get_tournament(),)


class LineErrorSerializer(serializers.Serializer):
    line = serializers.IntegerField(
        allow_null=True, help_text="1-based line of the text; null for the whole list."
    )
    line_text = serializers.CharField(
        allow_null=True,
        help_text="The text of that line as submitted (whitespace collapsed), cut to 200 characters "
        "with '…'; null when the error has no line, or for versions stored before this field.",
    )
    code = serializers.CharField(help_text="Stable error code (decklists.domain.ErrorCode).")
    message = serializers.CharField()
    card = serializers.CharField(allow_null=True)
    suggestions = serializers.ListField(
        child=serializers.CharField(), help_text="Close card names, best first."
    )

    def to_representation(self, instance: dict) -> dict:
        """The message in the request's language (a stored row keeps what translates it)."""
        return {**super().to_representation(instance), "message": selectors.error_message(instance)}


class CardCountSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    name = serializers.CharField(help_text="Canonical English name, e.g. 'Fire // Ice'.")
    section = serializers.CharField(help_text="main, sideboard, commander or companion.")


class TeamErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    card = serializers.CharField(allow_null=True)
    players = serializers.ListField(child=serializers.IntegerField(), help_text="Player ids.")
    message = serializers.CharField()


class DecklistSubmitApi(DecklistApi):
    """Submit a list: a player their own, the event's staff anyone's (paper lists); after the
    deadline only a judge, with a reason [MTR 2.7]."""

    rules = {"POST": "can_enter_decklist"}
    refuse_anonymous_with_403 = False
    refusal_message = gettext_lazy("You may submit only your own decklist.")

    def rule_args(self, request) -> tuple:
        """The player whose list the body names (a body naming none is a 400, an unknown one a 404)."""
        if not hasattr(self, "_data"):
            data = self.InputSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            self._data = data.validated_data
            self._player = get_object_or_404(
                Player.objects.select_related("tournament"),
                pk=self._data["player"],
                tournament=self.get_tournament(),
            )
        return (self._player,)

    class InputSerializer(serializers.Serializer):
        player = serializers.IntegerField(help_text="Player id: your own, or anyone's for event staff.")
        text = serializers.CharField(
            allow_blank=True, trim_whitespace=False, help_text="The list as pasted (MTGO, Arena or CSV)."
        )
        reason = serializers.CharField(
            required=False,
            default="",
            allow_blank=True,
            max_length=500,
            help_text="Required after the deadline.",
        )

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField(help_text="The decklist id (stable across versions).")
        version = serializers.IntegerField()
        valid = serializers.BooleanField(
            help_text="The list alone is legal; team rules are on the team endpoint."
        )
        errors = LineErrorSerializer(many=True)
        cards = CardCountSerializer(many=True)

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request, tournament_id: int):
        (player,) = self.rule_args(request)
        version = decklist_submit(
            tournament=self.get_tournament(),
            actor=request.user,
            player=player,
            text=self._data["text"],
            reason=self._data["reason"],
        )
        body = {
            "id": version.decklist_id,
            "version": version.number,
            "valid": version.valid,
            "errors": version.errors,
            "cards": version.cards,
        }
        return Response(self.OutputSerializer(body).data, status=status.HTTP_201_CREATED)


class DecklistPreviewApi(DecklistApi):
    """Check a list as it is typed, without saving; with ``player``, also the team's conflicts."""

    rules = {"POST": "can_check_decklists"}
    refuse_anonymous_with_403 = False

    def rule_args(self, request) -> tuple:
        """The event, and the team of the player the body names, if any (a bad body is a 400)."""
        if not hasattr(self, "_data"):
            data = self.InputSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            self._data = data.validated_data
            player_id = self._data.get("player")
            self._player = None
            if player_id is not None:
                self._player = get_object_or_404(
                    Player.objects.select_related("team__tournament"),
                    pk=player_id,
                    tournament=self.get_tournament(),
                )
        return (self.get_tournament(), self._player.team if self._player else None)

    @property
    def refusal_message(self) -> str:
        if getattr(self, "_player", None) is not None:
            return _("You may preview lists of your own team only.")
        return _("Only this event's players and staff may check lists here.")

    class InputSerializer(serializers.Serializer):
        text = serializers.CharField(allow_blank=True, trim_whitespace=False)
        player = serializers.IntegerField(required=False, help_text="Whose list this would be (UDC preview).")

    class OutputSerializer(serializers.Serializer):
        valid = serializers.BooleanField()
        errors = LineErrorSerializer(many=True)
        cards = CardCountSerializer(many=True)
        team_errors = TeamErrorSerializer(
            many=True, help_text="With player: the team verdict with this list."
        )

    @extend_schema(request=InputSerializer, responses={200: OutputSerializer})
    def post(self, request, tournament_id: int):
        tournament, _team = self.rule_args(request)
        player = self._player
        text = self._data["text"]
        check_text_acceptable(text)
        index = selectors.card_index()
        checked = selectors.decklist_text_check(
            text, tournament=tournament, player=player or Player(pk=0, name="You"), index=index
        )
        team_errors: list[dict] = []
        if player is not None:
            lists = selectors.decklists_for_team(team=player.team, tournament=tournament)
            verdict = selectors.team_decklist_verdict(
                tournament=tournament, lists=lists, index=index, draft=(player, checked.deck)
            )
            team_errors = [
                row
                for row in selectors.team_error_rows(verdict, lists)
                if row["code"] not in ("DECKLIST_MISSING", "DECKLIST_INVALID")
                or player.pk not in row["players"]
            ]
        body = {
            "valid": checked.valid,
            "errors": checked.errors,
            "cards": checked.cards,
            "team_errors": team_errors,
        }
        return Response(self.OutputSerializer(body).data)


class DecklistRowSerializer(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True, help_text="Null when the player has not submitted.")
    player = serializers.IntegerField(help_text="Player id.")
    player_name = serializers.CharField()
    version = serializers.IntegerField(allow_null=True)
    valid = serializers.BooleanField()
    submitted_at = serializers.DateTimeField(allow_null=True)
    cards = CardCountSerializer(many=True)
    errors = LineErrorSerializer(many=True)


def decklist_rows(tournament: Tournament, lists: selectors.TeamLists, index: CardIndex | None) -> list[dict]:
    """Each player's current list; a Constructed one checked again on the event's date, since the
    stored check is what the submission got and the date (or the ban-list history) may have moved
    since. A Limited deck's own check depends on neither, so its stored one stands."""
    rows = []
    for player, decklist in zip(lists.players, lists.decklists, strict=True):
        current = decklist.current if decklist is not None else None
        valid, errors = (current.valid, current.errors) if current else (False, [])
        if current and index is not None:
            checked = selectors.decklist_text_check(
                current.text, tournament=tournament, player=player, index=index
            )
            valid, errors = checked.valid, checked.errors
        rows.append(
            {
                "id": decklist.pk if decklist is not None else None,
                "player": player.pk,
                "player_name": player.name,
                "version": current.number if current else None,
                "valid": valid,
                "submitted_at": current.created_at if current else None,
                "cards": current.cards if current else [],
                "errors": errors,
            }
        )
    return rows


def team_payload(tournament: Tournament, team: Team) -> dict:
    """The team's lists and verdict; shared by the API and the pages so both say the same."""
    lists = selectors.decklists_for_team(team=team, tournament=tournament)
    index = None if tournament.is_limited else selectors.card_index()
    verdict = selectors.team_decklist_verdict(tournament=tournament, lists=lists, index=index)
    errors = selectors.team_error_rows(verdict, lists)
    return {
        "team": team.pk,
        "valid": not errors,
        "udc_applied": verdict.udc_applied,
        "errors": errors,
        "decklists": decklist_rows(tournament, lists, index),
        "pool": pool_summary(lists.pool),
        "shared_sideboard": selectors.sideboard_rows(verdict),
    }


def pool_summary(version) -> dict | None:
    if version is None:
        return None
    return {
        "id": version.pool_id,
        "version": version.number,
        "valid": version.valid,
        "boosters": version.boosters,
        "cards": version.cards,
        "errors": version.errors,
    }


class PoolCardSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    name = serializers.CharField(help_text="Canonical English name.")


class PoolSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The pool id (stable across versions).")
    version = serializers.IntegerField()
    valid = serializers.BooleanField(help_text="Every line resolved to a card.")
    boosters = serializers.IntegerField()
    cards = PoolCardSerializer(many=True)
    errors = LineErrorSerializer(many=True)


class TeamDecklistsApi(DecklistApi):
    """A team's lists with the UDC (or Limited pool) verdict: the team and the event's staff;
    anyone once the organizer published the lists after the event [MTR 2.7]."""

    rules = {"GET": "can_read_decklist"}

    def rule_args(self, request) -> tuple:
        return (self.get_team(),)

    class OutputSerializer(serializers.Serializer):
        team = serializers.IntegerField()
        valid = serializers.BooleanField(help_text="Every player has a legal list and the team passes UDC.")
        udc_applied = serializers.BooleanField(
            help_text="False: the decks are not all in one Constructed format."
        )
        errors = TeamErrorSerializer(
            many=True,
            help_text="Per-deck and team (UDC, Limited pool) problems; players are Player ids. "
            "DECKLIST_MISSING / DECKLIST_INVALID: a player's list is absent or has lines to fix. "
            "POOL_MISSING / POOL_INVALID (Limited): the team's pool is absent or has lines to fix.",
        )
        decklists = DecklistRowSerializer(many=True, help_text="Each player's current list, in seat order.")
        pool = PoolSummarySerializer(
            allow_null=True, help_text="Limited: the team's current pool; null if none is registered."
        )
        shared_sideboard = PoolCardSerializer(
            many=True,
            help_text="Limited: what the decks leave of the pool, which both players may use; "
            "empty in Constructed or while the pool is missing.",
        )

    @extend_schema(responses={200: OutputSerializer, **NOT_YOURS})
    def get(self, request, tournament_id: int, team_id: int):
        return Response(self.OutputSerializer(team_payload(self.get_tournament(), self.get_team())).data)


class DecklistDetailApi(DecklistApi):
    """One list with every version, oldest first; readable by whoever may read the team's lists."""

    rules = {"GET": "can_read_decklist"}

    def get_decklist(self) -> Decklist:
        if not hasattr(self, "_decklist"):
            self._decklist = get_object_or_404(
                Decklist.objects.select_related("player__team__tournament", "current"),
                pk=self.kwargs["decklist_id"],
                tournament=self.get_tournament(),
            )
        return self._decklist

    def rule_args(self, request) -> tuple:
        return (self.get_decklist().player.team,)

    class VersionSerializer(serializers.Serializer):
        number = serializers.IntegerField()
        text = serializers.CharField()
        valid = serializers.BooleanField()
        errors = LineErrorSerializer(many=True)
        cards = CardCountSerializer(many=True)
        submitted_by = serializers.CharField(source="submitted_by.username", allow_null=True, default=None)
        reason = serializers.CharField()
        created_at = serializers.DateTimeField()

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        player = serializers.IntegerField(source="player_id")
        player_name = serializers.CharField(source="player.name")
        team = serializers.IntegerField(source="player.team_id")
        version = serializers.IntegerField(source="current.number", allow_null=True, default=None)
        versions = serializers.SerializerMethodField()

        def get_versions(self, decklist) -> list[dict]:
            versions = decklist.versions.select_related("submitted_by").order_by("number")
            return DecklistDetailApi.VersionSerializer(versions, many=True).data

    @extend_schema(responses={200: OutputSerializer, **NOT_YOURS})
    def get(self, request, tournament_id: int, decklist_id: int):
        return Response(self.OutputSerializer(self.get_decklist()).data)


class PoolVersionSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    text = serializers.CharField()
    valid = serializers.BooleanField()
    boosters = serializers.IntegerField()
    errors = LineErrorSerializer(many=True)
    cards = PoolCardSerializer(many=True)
    submitted_by = serializers.CharField(source="submitted_by.username", allow_null=True, default=None)
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()


class TeamPoolApi(DecklistApi):
    """A Limited team's pool: register a new version (POST), read the current one and all
    versions (GET). The team's players and the event's staff only [MTR 2.7]."""

    rules = {"GET": "can_read_pool", "POST": "can_submit_decklist"}
    refusal_message = gettext_lazy("A team's pool is visible to the team and the event's staff only.")

    def rule_args(self, request) -> tuple:
        return (self.get_team(),)

    class InputSerializer(serializers.Serializer):
        text = serializers.CharField(
            allow_blank=True,
            trim_whitespace=False,
            help_text="Every card opened or drafted, one 'count name' per line (MTGO, Arena or CSV).",
        )
        boosters = serializers.IntegerField(
            required=False,
            allow_null=True,
            default=None,
            min_value=1,
            max_value=99,
            help_text="Boosters the pool came from; default Sealed 8, Draft 6.",
        )
        reason = serializers.CharField(
            required=False,
            default="",
            allow_blank=True,
            max_length=500,
            help_text="Required after the deadline.",
        )

    class RegisterOutputSerializer(serializers.Serializer):
        id = serializers.IntegerField(help_text="The pool id (stable across versions).")
        version = serializers.IntegerField()
        valid = serializers.BooleanField(help_text="Every line resolved to a card.")
        boosters = serializers.IntegerField()
        errors = LineErrorSerializer(many=True)
        cards = PoolCardSerializer(many=True)

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        team = serializers.IntegerField()
        current = PoolSummarySerializer(help_text="The version that counts.")
        versions = PoolVersionSerializer(many=True, help_text="Every version, oldest first.")

    @extend_schema(request=InputSerializer, responses={201: RegisterOutputSerializer})
    def post(self, request, tournament_id: int, team_id: int):
        team = self.get_team()
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        version = decklist_pool_register(
            team=team,
            actor=request.user,
            text=data.validated_data["text"],
            boosters=data.validated_data["boosters"],
            reason=data.validated_data["reason"],
        )
        body = {
            "id": version.pool_id,
            "version": version.number,
            "valid": version.valid,
            "boosters": version.boosters,
            "errors": version.errors,
            "cards": version.cards,
        }
        return Response(self.RegisterOutputSerializer(body).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: OutputSerializer, **NOT_YOURS})
    def get(self, request, tournament_id: int, team_id: int):
        team = self.get_team()
        pool = selectors.team_pool_current(team=team)
        if pool is None:
            raise NotFound(_("The team has not registered its pool."))
        body = {
            "id": pool.pk,
            "team": pool.team_id,
            "current": pool_summary(pool.current),
            "versions": pool.versions.all(),
        }
        return Response(self.OutputSerializer(body).data)
