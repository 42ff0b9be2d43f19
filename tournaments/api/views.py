"""Events API v1: one thin view per operation; validate the input, call one service, answer.

Who may do what is declared on each view: the rule of ``tournaments.rules`` that decides each
HTTP method (``rules``) and the object it is asked about (``rule_args``), checked by
``RulePermission``; a method a view does not handle is 405:

* staff roles read everything of their event (the staff list included) and set any team's
  seats; pairing, publishing, results, drops and registration need organizer, head judge or
  scorekeeper (judges read only); manual pairing, staff changes and the event's settings need
  the organizer; disqualification the head judge;
* a player reads their own team, registers a team they are listed on (any other account it
  names is only invited), accepts or declines invitations and join codes, joins the partner
  pool, checks their team in, drops their team, reports their own match and chooses their
  team's seats (who is primary) for it; a team's captain invites and cancels invitations;
* the organizer forms teams from the partner pool;
* anyone (also anonymous) reads events, published rounds and matches, and the standings through
  the last complete published round.

Refusals: 401 not logged in, 403 wrong role, 404 unknown (or an unpublished round for non-staff),
400 invalid body naming every bad field, 409 a state conflict (see each service).

The team endpoints (teams, drops, check-in, invitations, the partner pool) are in
``tournaments.api.team_views``, built on this module's ``EventApi`` and ``errors``.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.idempotency import KEY_HEADER, idempotent_method
from tournaments.api import serializers as s
from tournaments.api.permissions import RulePermission
from tournaments.enums import RoundKind
from tournaments.live import memoized
from tournaments.models import Match, Round, Tournament
from tournaments.read_models import tiebreaker_columns
from tournaments.rules import is_event_staff
from tournaments.selectors import (
    draft_team_ids,
    match_detail,
    pod_rematch_warning,
    pods_for_draft,
    round_detail,
    rounds_for,
    staff_for,
    teams_without_decklists,
    tournaments_listed,
)
from tournaments.services.cut import cut_build
from tournaments.services.events import staff_add, tournament_create, tournament_update
from tournaments.services.manual_pairing import round_pair_manual
from tournaments.services.pods import pods_seat
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_delete, round_pair, round_publish
from tournaments.services.seating import match_seats_set
from tournaments.standings import last_public_standings_round, standings_for

_ERROR_TEXT = {
    400: "Invalid body or a rule of the event refused it; ``errors`` names each field.",
    401: "Not logged in.",
    403: "Logged in, but not allowed to do this in this event.",
    404: "No such event or object (or a round not yet published, for non-staff).",
    409: "The event's state forbids this now.",
    429: "Too many attempts (join codes that led nowhere, from this account or address): wait ``Retry-After`` seconds.",
}


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: OpenApiResponse(s.ErrorSerializer, description=_ERROR_TEXT[code]) for code in codes}


class EventApi(APIView):
    """Base of the per-event views: the event from the URL (404 if unknown) and the access rule."""

    permission_classes = [RulePermission]
    rules: dict[str, str] = {}

    def get_tournament(self) -> Tournament:
        if not hasattr(self, "_tournament"):
            self._tournament = get_object_or_404(Tournament, pk=self.kwargs["tournament_id"])
        return self._tournament

    def rule_args(self, request: Request) -> tuple:
        """What the method's rule is asked about; the event unless a view says otherwise."""
        return (self.get_tournament(),)

    def is_staff(self, request: Request) -> bool:
        return is_event_staff(request.user, self.get_tournament())


class TournamentListCreateApi(APIView):
    """Events: anyone lists them; an account the site lets create events (``EVENT_CREATORS``)
    creates one and becomes its organizer."""

    permission_classes = [RulePermission]
    rules = {"GET": "anyone", "POST": "can_create_events"}
    refusal_message = gettext_lazy(
        "Creating events is for the organizers this site knows (EVENT_CREATORS): this account may "
        "play and be added to an event's staff, but not create one. Ask the site's administrator."
    )

    def rule_args(self, request: Request) -> tuple:
        return ()

    @extend_schema(operation_id="tournaments_list", responses={200: s.TournamentOutputSerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response(s.TournamentOutputSerializer(tournaments_listed(), many=True).data)

    @extend_schema(
        operation_id="tournaments_create",
        request=s.TournamentInputSerializer,
        responses={201: s.TournamentOutputSerializer, **errors(400, 401, 403)},
    )
    def post(self, request: Request) -> Response:
        data = s.TournamentInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = tournament_create(actor=request.user, **data.validated_data)
        return Response(s.TournamentOutputSerializer(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailApi(EventApi):
    """GET: one event's settings and status (public). PATCH: change settings (organizer only)."""

    rules = {"GET": "anyone", "PATCH": "can_manage_event"}

    @extend_schema(responses={200: s.TournamentOutputSerializer, **errors(404)})
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(s.TournamentOutputSerializer(self.get_tournament()).data)

    @extend_schema(
        request=s.TournamentUpdateInputSerializer,
        responses={200: s.TournamentOutputSerializer, **errors(400, 401, 403, 404, 409)},
        description="Change the given settings; 409 for format, team size, games per match, Swiss "
        "rounds, top cut or tiebreakers once round 1 is paired (MTR 10.2). Audited.",
    )
    def patch(self, request: Request, tournament_id: int) -> Response:
        data = s.TournamentUpdateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = tournament_update(
            tournament=self.get_tournament(), actor=request.user, **data.validated_data
        )
        return Response(s.TournamentOutputSerializer(tournament).data)


class StaffListAddApi(EventApi):
    """GET: the event's staff and their roles (any staff role). POST: give a user a staff role in
    the event (organizer only)."""

    rules = {"GET": "is_event_staff", "POST": "can_manage_event"}

    @extend_schema(responses={200: s.StaffOutputSerializer(many=True), **errors(401, 403, 404)})
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(s.StaffOutputSerializer(staff_for(self.get_tournament()), many=True).data)

    @extend_schema(
        request=s.StaffInputSerializer,
        responses={201: s.StaffOutputSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = s.StaffInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        staff = staff_add(tournament=self.get_tournament(), actor=request.user, **data.validated_data)
        return Response(s.StaffOutputSerializer(staff).data, status=status.HTTP_201_CREATED)


class RoundListPairApi(EventApi):
    """GET: the rounds (non-staff: published only). POST ``{}``: pair the next round with the
    engine; POST with ``matches`` and ``reason``: the organizer's manual pairing."""

    rules = {"GET": "anyone", "POST": "can_run_event"}

    def rule_for(self, request: Request) -> str | None:
        by_hand = request.method == "POST" and hasattr(request.data, "get") and "matches" in request.data
        return "can_pair_by_hand" if by_hand else None

    @extend_schema(
        operation_id="tournaments_rounds_list",
        responses={200: s.RoundSummaryOutputSerializer(many=True), **errors(404)},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        rounds = rounds_for(self.get_tournament(), include_unpublished=self.is_staff(request))
        return Response(s.RoundSummaryOutputSerializer(rounds, many=True).data)

    @extend_schema(
        operation_id="tournaments_rounds_pair",
        request=s.RoundPairInputSerializer,
        responses={201: s.RoundPairedOutputSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = s.RoundPairInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = self.get_tournament()
        matches = data.validated_data.get("matches")
        if matches is None:
            new_round = round_pair(
                tournament=tournament, actor=request.user, unchecked=data.validated_data.get("unchecked")
            )
        else:
            new_round = round_pair_manual(
                tournament=tournament,
                actor=request.user,
                matches=[(m["team_a"], m["team_b"]) for m in matches],
                reason=data.validated_data.get("reason", ""),
            )
        created = round_detail(tournament, new_round.number, include_unpublished=True)
        missing = teams_without_decklists(tournament) if new_round.kind == RoundKind.SWISS else []
        body = {
            **s.RoundOutputSerializer(created).data,
            "teams_without_decklists": s.TeamRefSerializer(missing, many=True).data,
        }
        return Response(body, status=status.HTTP_201_CREATED)


class RoundApi(EventApi):
    """Base of the views of one round, by number; unpublished rounds are 404 to non-staff."""

    def get_round(self, request: Request) -> Round:
        if not hasattr(self, "_round"):
            found = round_detail(
                self.get_tournament(), self.kwargs["number"], include_unpublished=self.is_staff(request)
            )
            if found is None:
                raise Http404(_("no such round"))
            self._round = found
        return self._round


class RoundDetailApi(RoundApi):
    """GET: the round's pairings. DELETE: undo the latest round to pair it again (re-pair)."""

    rules = {"GET": "can_view_round", "DELETE": "can_run_event"}

    def rule_args(self, request: Request) -> tuple:
        return (self.get_round(request),) if request.method in ("GET", "HEAD") else (self.get_tournament(),)

    @extend_schema(responses={200: s.RoundOutputSerializer, **errors(404)})
    def get(self, request: Request, tournament_id: int, number: int) -> Response:
        return Response(s.RoundOutputSerializer(self.get_round(request)).data)

    @extend_schema(responses={204: None, **errors(401, 403, 404, 409)})
    def delete(self, request: Request, tournament_id: int, number: int) -> Response:
        round_delete(round_row=self.get_round(request), actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoundPublishApi(RoundApi):
    """Show the round's pairings to players and the public."""

    rules = {"POST": "can_run_event"}

    @extend_schema(request=None, responses={200: s.RoundOutputSerializer, **errors(401, 403, 404)})
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        round_publish(round_row=self.get_round(request), actor=request.user)
        refreshed = round_detail(self.get_tournament(), number, include_unpublished=True)
        return Response(s.RoundOutputSerializer(refreshed).data)


class CutBuildApi(EventApi):
    """Build the playoff bracket from the final Swiss standings."""

    rules = {"POST": "can_run_event"}

    @extend_schema(request=None, responses={201: s.RoundOutputSerializer, **errors(401, 403, 404, 409)})
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.get_tournament()
        new_round = cut_build(tournament=tournament, actor=request.user)
        created = round_detail(tournament, new_round.number, include_unpublished=True)
        return Response(s.RoundOutputSerializer(created).data, status=status.HTTP_201_CREATED)


class PodsApi(EventApi):
    """Booster Draft pods. GET: the latest draft's pods (anyone who may see the event) and, if the
    next draft's pods would force rematches, a warning; POST ``{"draft": n, "single_pod"?}``: seat
    the active teams in random pods (or one pod) for the event's next draft."""

    rules = {"GET": "anyone", "POST": "can_run_event"}

    @extend_schema(
        operation_id="tournaments_pods_list", responses={200: s.PodsOutputSerializer, **errors(404)}
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.get_tournament()
        pods = pods_for_draft(tournament)
        warning = pod_rematch_warning(tournament, len(draft_team_ids(tournament)))
        body = {"draft": pods[0].draft if pods else None, "pods": pods, "next_draft_warning": warning}
        return Response(s.PodsOutputSerializer(body).data)

    @extend_schema(
        operation_id="tournaments_pods_seat",
        request=s.PodsSeatInputSerializer,
        responses={201: s.PodsOutputSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = s.PodsSeatInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        draft = data.validated_data["draft"]
        pods = pods_seat(
            tournament=self.get_tournament(),
            actor=request.user,
            draft=draft,
            single_pod=data.validated_data["single_pod"],
        )
        body = {"draft": draft, "pods": pods, "next_draft_warning": None}
        return Response(s.PodsOutputSerializer(body).data, status=status.HTTP_201_CREATED)


class StandingsApi(EventApi):
    """Swiss standings; staff see every confirmed result, everyone else only through the last
    published round whose results are all in, as on the event page (``?round=N`` asks for the
    standings after round N)."""

    rules = {"GET": "anyone"}

    @extend_schema(
        parameters=[
            OpenApiParameter("round", int, description="Standings after this round (default: latest).")
        ],
        responses={200: s.StandingsRowOutputSerializer(many=True), **errors(400, 404)},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.get_tournament()
        asked = s.StandingsQuerySerializer(data=request.query_params)
        asked.is_valid(raise_exception=True)
        through = asked.validated_data.get("round")
        if not self.is_staff(request):
            public = last_public_standings_round(tournament)
            if public == 0:
                return Response([])
            through = public if through is None else min(through, public)
        # Computed, and encoded as JSON, once per change of the event in each web process
        # (tournaments.live), not per request: a hall of phones asks the same question.
        # The tiebreakers' headings are in the reader's language, so each language has its own.
        key = f"{through}:{get_language()}"
        rows = memoized(
            tournament.pk,
            f"api-standings:{key}",
            lambda: (
                s.StandingsRowOutputSerializer(
                    standings_for(tournament, through_round=through),
                    many=True,
                    context={"tiebreaker_columns": tiebreaker_columns(tournament)},
                ).data
            ),
        )
        renderer = request.accepted_renderer
        if renderer.format == "json":
            body = memoized(tournament.pk, f"api-standings-json:{key}", lambda: renderer.render(rows))
            return HttpResponse(body, content_type="application/json")
        return Response(rows)


class MatchApi(EventApi):
    """Base of the match views: the match (404 if unknown) and its event; non-staff see it only
    once its round is published."""

    def get_match(self) -> Match:
        if not hasattr(self, "_match"):
            found = match_detail(self.kwargs["match_id"])
            if found is None:
                raise Http404(_("no such match"))
            self._match = found
        return self._match

    def get_tournament(self) -> Tournament:
        return self.get_match().round.tournament

    def rule_args(self, request: Request) -> tuple:
        return (self.get_match(),)


class MatchDetailApi(MatchApi):
    rules = {"GET": "can_view_match"}
    hide_refusal_as_404 = True

    @extend_schema(responses={200: s.MatchOutputSerializer, **errors(404)})
    def get(self, request: Request, match_id: int) -> Response:
        return Response(s.MatchOutputSerializer(self.get_match()).data)


class MatchResultReportApi(MatchApi):
    """Report a result with the version read; a stale version answers 409 with the current match."""

    rules = {"PUT": "can_report_result"}

    @extend_schema(
        request=s.ResultInputSerializer,
        parameters=[KEY_HEADER],
        responses={
            200: s.MatchOutputSerializer,
            **errors(400, 401, 403, 404),
            409: OpenApiResponse(
                s.StaleMatchSerializer, description="Stale version (body has the match) or locked."
            ),
        },
    )
    @idempotent_method
    def put(self, request: Request, match_id: int) -> Response:
        data = s.ResultInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match_result_report(match=self.get_match(), actor=request.user, **data.validated_data)
        return Response(s.MatchOutputSerializer(match_detail(match_id)).data)


class MatchSeatsApi(MatchApi):
    """Record one team's seat order for the match (primary on the right, MTR 9.4(1)): any staff
    role, or a player of that team once the round is published; fixed once a result is in."""

    rules = {"PUT": "can_choose_seats"}

    @extend_schema(
        request=s.MatchSeatsInputSerializer,
        responses={200: s.MatchOutputSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def put(self, request: Request, match_id: int) -> Response:
        data = s.MatchSeatsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match_seats_set(
            match=self.get_match(),
            actor=request.user,
            team_id=data.validated_data["team"],
            player_ids=data.validated_data["players"],
        )
        return Response(s.MatchOutputSerializer(match_detail(match_id)).data)
