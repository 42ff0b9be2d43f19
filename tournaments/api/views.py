"""Events API v1: one thin view per operation; validate the input, call one service, answer.

Who may do what is declared on each view (``staff_roles`` per HTTP method, checked by
``EventAccess``) plus the view's ``allows_others`` for players and the public:

* staff roles read everything of their event (the staff list included) and set any team's
  seats; pairing, publishing, results, drops and registration need organizer, head judge or
  scorekeeper (judges read only); manual pairing, staff changes and the event's settings need
  the organizer; disqualification the head judge;
* a player reads their own team, registers a team they are listed on, drops their team,
  reports their own match and chooses their team's seats (who is primary) for it;
* anyone (also anonymous) reads events, published rounds and matches, and the standings through
  the last complete published round.

Refusals: 401 not logged in, 403 wrong role, 404 unknown (or an unpublished round for non-staff),
400 invalid body naming every bad field, 409 a state conflict (see each service).
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api import serializers as s
from tournaments.api.permissions import EventAccess
from tournaments.models import Match, Round, Team, Tournament
from tournaments.permissions import ALL_STAFF, HEAD_JUDGE, ORGANIZER, SCOREKEEPING, has_role, player_team_id
from tournaments.selectors import (
    last_public_standings_round,
    match_detail,
    pods_for_draft,
    round_detail,
    rounds_for,
    staff_for,
    standings_for,
    teams_for,
    tournaments_listed,
)
from tournaments.services.cut import cut_build
from tournaments.services.events import staff_add, tournament_create, tournament_update
from tournaments.services.pods import pods_seat
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_delete, round_pair, round_pair_manual, round_publish
from tournaments.services.seating import match_seats_set
from tournaments.services.teams import PlayerEntry, team_disqualify, team_drop, team_register

_ERROR_TEXT = {
    400: "Invalid body or a rule of the event refused it; ``errors`` names each field.",
    401: "Not logged in.",
    403: "Logged in, but not allowed to do this in this event.",
    404: "No such event or object (or a round not yet published, for non-staff).",
    409: "The event's state forbids this now.",
}


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: OpenApiResponse(s.ErrorSerializer, description=_ERROR_TEXT[code]) for code in codes}


class EventApi(APIView):
    """Base of the per-event views: the event from the URL (404 if unknown) and the access rule."""

    permission_classes = [EventAccess]
    staff_roles: dict[str, frozenset[str]] = {}

    def get_tournament(self) -> Tournament:
        if not hasattr(self, "_tournament"):
            self._tournament = get_object_or_404(Tournament, pk=self.kwargs["tournament_id"])
        return self._tournament

    def allows_others(self, request: Request) -> bool:
        return False

    def is_staff(self, request: Request, roles: frozenset[str] = ALL_STAFF) -> bool:
        return has_role(request.user, self.get_tournament(), roles)


class TournamentListCreateApi(APIView):
    """Events: anyone lists them; any logged-in user creates one and becomes its organizer."""

    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(operation_id="tournaments_list", responses={200: s.TournamentOutputSerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response(s.TournamentOutputSerializer(tournaments_listed(), many=True).data)

    @extend_schema(
        operation_id="tournaments_create",
        request=s.TournamentInputSerializer,
        responses={201: s.TournamentOutputSerializer, **errors(400, 401)},
    )
    def post(self, request: Request) -> Response:
        data = s.TournamentInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = tournament_create(actor=request.user, **data.validated_data)
        return Response(s.TournamentOutputSerializer(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailApi(EventApi):
    """GET: one event's settings and status (public). PATCH: change settings (organizer only)."""

    staff_roles = {"PATCH": ORGANIZER}

    def allows_others(self, request: Request) -> bool:
        return request.method == "GET"

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

    staff_roles = {"GET": ALL_STAFF, "POST": ORGANIZER}

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


class TeamListRegisterApi(EventApi):
    """GET: staff see every team, a player only their own. POST: staff register any team; a
    logged-in player registers a team that lists them by username."""

    staff_roles = {"GET": ALL_STAFF, "POST": SCOREKEEPING}

    def allows_others(self, request: Request) -> bool:
        if request.method == "GET":
            return player_team_id(request.user, self.get_tournament()) is not None
        players = request.data.get("players") if hasattr(request.data, "get") else None
        if not isinstance(players, list):  # the body is not validated yet: any JSON may be here
            return False
        usernames = {
            p["username"] for p in players if isinstance(p, dict) and isinstance(p.get("username"), str)
        }
        return request.user.is_authenticated and request.user.username in usernames

    @extend_schema(
        operation_id="tournaments_teams_list",
        responses={200: s.TeamOutputSerializer(many=True), **errors(401, 403, 404)},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.get_tournament()
        team_id = None if self.is_staff(request) else player_team_id(request.user, tournament)
        return Response(s.TeamOutputSerializer(teams_for(tournament, team_id=team_id), many=True).data)

    @extend_schema(
        operation_id="tournaments_teams_register",
        request=s.TeamInputSerializer,
        responses={201: s.TeamOutputSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = s.TeamInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = self.get_tournament()
        awarded_byes = data.validated_data["awarded_byes"]
        if awarded_byes and not self.is_staff(request):
            raise PermissionDenied("only the event's staff award byes (awarded_byes)")
        team = team_register(
            tournament=tournament,
            actor=request.user,
            name=data.validated_data["name"],
            players=[
                PlayerEntry(p["name"], p["wizards_id"], p.get("username") or None)
                for p in data.validated_data["players"]
            ],
            awarded_byes=awarded_byes,
        )
        return Response(
            s.TeamOutputSerializer(teams_for(tournament, team_id=team.id).get()).data,
            status=status.HTTP_201_CREATED,
        )


class TeamApi(EventApi):
    """Base of the views of one team: the team from the URL, 404 if not in this event."""

    def get_team(self) -> Team:
        if not hasattr(self, "_team"):
            self._team = get_object_or_404(teams_for(self.get_tournament()), pk=self.kwargs["team_id"])
        return self._team

    def allows_others(self, request: Request) -> bool:
        return player_team_id(request.user, self.get_tournament()) == self.get_team().pk


class TeamDetailApi(TeamApi):
    """One team with its players: staff, or a member of the team."""

    staff_roles = {"GET": ALL_STAFF}

    @extend_schema(responses={200: s.TeamOutputSerializer, **errors(401, 403, 404)})
    def get(self, request: Request, tournament_id: int, team_id: int) -> Response:
        return Response(s.TeamOutputSerializer(self.get_team()).data)


class TeamDropApi(TeamApi):
    """Drop the team (scorekeeping staff or a member); effective from the next round."""

    staff_roles = {"POST": SCOREKEEPING}

    @extend_schema(
        request=s.ReasonInputSerializer,
        responses={200: s.TeamOutputSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int, team_id: int) -> Response:
        data = s.ReasonInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        team = team_drop(team=self.get_team(), actor=request.user, reason=data.validated_data["reason"])
        return Response(s.TeamOutputSerializer(teams_for(self.get_tournament(), team_id=team.id).get()).data)


class TeamDisqualifyApi(TeamApi):
    """Disqualify the team (head judge; the organizer if no head judge is named)."""

    staff_roles = {"POST": HEAD_JUDGE}

    def allows_others(self, request: Request) -> bool:
        return (
            has_role(request.user, self.get_tournament(), ORGANIZER)
            and not self.get_tournament().staff.filter(role__in=HEAD_JUDGE).exists()
        )

    @extend_schema(
        request=s.ReasonInputSerializer,
        responses={200: s.TeamOutputSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int, team_id: int) -> Response:
        data = s.ReasonInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        team = team_disqualify(team=self.get_team(), actor=request.user, reason=data.validated_data["reason"])
        return Response(s.TeamOutputSerializer(teams_for(self.get_tournament(), team_id=team.id).get()).data)


class RoundListPairApi(EventApi):
    """GET: the rounds (non-staff: published only). POST ``{}``: pair the next round with the
    engine; POST with ``matches`` and ``reason``: the organizer's manual pairing."""

    staff_roles = {"GET": ALL_STAFF, "POST": SCOREKEEPING}

    def allows_others(self, request: Request) -> bool:
        return request.method == "GET"

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
        responses={201: s.RoundOutputSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = s.RoundPairInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = self.get_tournament()
        matches = data.validated_data.get("matches")
        if matches is None:
            new_round = round_pair(tournament=tournament, actor=request.user)
        else:
            if not self.is_staff(request, ORGANIZER):
                raise PermissionDenied("only the organizer may pair a round by hand")
            new_round = round_pair_manual(
                tournament=tournament,
                actor=request.user,
                matches=[(m["team_a"], m["team_b"]) for m in matches],
                reason=data.validated_data.get("reason", ""),
            )
        created = round_detail(tournament, new_round.number, include_unpublished=True)
        return Response(s.RoundOutputSerializer(created).data, status=status.HTTP_201_CREATED)


class RoundApi(EventApi):
    """Base of the views of one round, by number; unpublished rounds are 404 to non-staff."""

    def get_round(self, request: Request) -> Round:
        if not hasattr(self, "_round"):
            found = round_detail(
                self.get_tournament(), self.kwargs["number"], include_unpublished=self.is_staff(request)
            )
            if found is None:
                raise Http404("no such round")
            self._round = found
        return self._round


class RoundDetailApi(RoundApi):
    """GET: the round's pairings. DELETE: undo the latest round to pair it again (re-pair)."""

    staff_roles = {"GET": ALL_STAFF, "DELETE": SCOREKEEPING}

    def allows_others(self, request: Request) -> bool:
        return request.method == "GET" and self.get_round(request) is not None

    @extend_schema(responses={200: s.RoundOutputSerializer, **errors(404)})
    def get(self, request: Request, tournament_id: int, number: int) -> Response:
        return Response(s.RoundOutputSerializer(self.get_round(request)).data)

    @extend_schema(responses={204: None, **errors(401, 403, 404, 409)})
    def delete(self, request: Request, tournament_id: int, number: int) -> Response:
        round_delete(round=self.get_round(request), actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoundPublishApi(RoundApi):
    """Show the round's pairings to players and the public."""

    staff_roles = {"POST": SCOREKEEPING}

    @extend_schema(request=None, responses={200: s.RoundOutputSerializer, **errors(401, 403, 404)})
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        round_publish(round=self.get_round(request), actor=request.user)
        refreshed = round_detail(self.get_tournament(), number, include_unpublished=True)
        return Response(s.RoundOutputSerializer(refreshed).data)


class CutBuildApi(EventApi):
    """Build the playoff bracket from the final Swiss standings."""

    staff_roles = {"POST": SCOREKEEPING}

    @extend_schema(request=None, responses={201: s.RoundOutputSerializer, **errors(401, 403, 404, 409)})
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.get_tournament()
        new_round = cut_build(tournament=tournament, actor=request.user)
        created = round_detail(tournament, new_round.number, include_unpublished=True)
        return Response(s.RoundOutputSerializer(created).data, status=status.HTTP_201_CREATED)


class PodsApi(EventApi):
    """Booster Draft pods. GET: the latest draft's pods (anyone who may see the event); POST
    ``{"draft": n}``: seat the active teams in random pods for the event's next draft."""

    staff_roles = {"GET": ALL_STAFF, "POST": SCOREKEEPING}

    def allows_others(self, request: Request) -> bool:
        return request.method == "GET"

    @extend_schema(
        operation_id="tournaments_pods_list", responses={200: s.PodsOutputSerializer, **errors(404)}
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        pods = pods_for_draft(self.get_tournament())
        body = {"draft": pods[0].draft if pods else None, "pods": pods}
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
        pods = pods_seat(tournament=self.get_tournament(), actor=request.user, draft=draft)
        body = {"draft": draft, "pods": pods}
        return Response(s.PodsOutputSerializer(body).data, status=status.HTTP_201_CREATED)


class StandingsApi(EventApi):
    """Swiss standings; staff see every confirmed result, everyone else only through the last
    published round whose results are all in, as on the event page (``?round=N`` asks for the
    standings after round N)."""

    staff_roles = {"GET": ALL_STAFF}

    def allows_others(self, request: Request) -> bool:
        return True

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
        rows = standings_for(tournament, through_round=through)
        return Response(s.StandingsRowOutputSerializer(rows, many=True).data)


class MatchApi(EventApi):
    """Base of the match views: the match (404 if unknown) and its event; non-staff see it only
    once its round is published."""

    def get_match(self) -> Match:
        if not hasattr(self, "_match"):
            found = match_detail(self.kwargs["match_id"])
            if found is None:
                raise Http404("no such match")
            self._match = found
        return self._match

    def get_tournament(self) -> Tournament:
        return self.get_match().round.tournament


class MatchDetailApi(MatchApi):
    staff_roles = {"GET": ALL_STAFF}

    def allows_others(self, request: Request) -> bool:
        if self.get_match().round.published_at is None:
            raise Http404("no such match")
        return True

    @extend_schema(responses={200: s.MatchOutputSerializer, **errors(404)})
    def get(self, request: Request, match_id: int) -> Response:
        return Response(s.MatchOutputSerializer(self.get_match()).data)


class MatchResultReportApi(MatchApi):
    """Report a result with the version read; a stale version answers 409 with the current match."""

    staff_roles = {"PUT": SCOREKEEPING}

    def allows_others(self, request: Request) -> bool:
        match = self.get_match()
        if match.round.published_at is None:
            return False
        return player_team_id(request.user, match.round.tournament_id) in (match.team_a_id, match.team_b_id)

    @extend_schema(
        request=s.ResultInputSerializer,
        responses={
            200: s.MatchOutputSerializer,
            **errors(400, 401, 403, 404),
            409: OpenApiResponse(
                s.StaleMatchSerializer, description="Stale version (body has the match) or locked."
            ),
        },
    )
    def put(self, request: Request, match_id: int) -> Response:
        data = s.ResultInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match_result_report(match=self.get_match(), actor=request.user, **data.validated_data)
        return Response(s.MatchOutputSerializer(match_detail(match_id)).data)


class MatchSeatsApi(MatchApi):
    """Record one team's seat order for the match (primary on the right, MTR 9.4(1)): any staff
    role, or a player of that team once the round is published; fixed once a result is in."""

    staff_roles = {"PUT": ALL_STAFF}

    def allows_others(self, request: Request) -> bool:
        match = self.get_match()
        if match.round.published_at is None:
            return False
        return player_team_id(request.user, match.round.tournament_id) in (match.team_a_id, match.team_b_id)

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
