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
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api import serializers as s
from tournaments.api.permissions import LoggedIn, RulePermission
from tournaments.live import memoized
from tournaments.models import Match, Round, Team, TeamInvitation, Tournament
from tournaments.permissions import player_team_id
from tournaments.rules import can_award_byes, is_event_staff
from tournaments.selectors import (
    invitations_for,
    last_public_standings_round,
    match_detail,
    pods_for_draft,
    pool_for,
    round_detail,
    rounds_for,
    staff_for,
    standings_for,
    teams_for,
    tournaments_listed,
)
from tournaments.services.cut import cut_build
from tournaments.services.events import staff_add, tournament_create, tournament_update
from tournaments.services.invitations import (
    invitation_accept,
    invitation_cancel,
    invitation_decline,
    invitation_send,
)
from tournaments.services.participation import team_check_in, team_disqualify, team_drop
from tournaments.services.pods import pods_seat
from tournaments.services.pool import pool_form_teams, pool_join, pool_leave, pool_plan
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_delete, round_pair, round_pair_manual, round_publish
from tournaments.services.seating import match_seats_set
from tournaments.services.teams import PlayerEntry, team_register

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


class TeamListRegisterApi(EventApi):
    """GET: staff see every team, a player only their own. POST: staff register any team; a
    logged-in player registers a team that lists them by username."""

    rules = {"GET": "can_read_teams", "POST": "can_register_team"}

    def rule_args(self, request: Request) -> tuple:
        if request.method != "POST":
            return (self.get_tournament(),)
        players = request.data.get("players") if hasattr(request.data, "get") else None
        if not isinstance(players, list):  # the body is not validated yet: any JSON may be here
            players = []
        usernames = frozenset(
            p["username"] for p in players if isinstance(p, dict) and isinstance(p.get("username"), str)
        )
        return (self.get_tournament(), usernames)

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
        if awarded_byes and not can_award_byes(request.user, tournament):
            raise PermissionDenied(_("only the event's staff award byes (awarded_byes)"))
        team = team_register(
            tournament=tournament,
            actor=request.user,
            name=data.validated_data["name"],
            players=[
                PlayerEntry(p["name"], p["wizards_id"], p.get("username") or None, p["name_reading"])
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

    def rule_args(self, request: Request) -> tuple:
        return (self.get_team(),)


class TeamDetailApi(TeamApi):
    """One team with its players: staff, or a member of the team."""

    rules = {"GET": "can_read_team"}

    @extend_schema(responses={200: s.TeamOutputSerializer, **errors(401, 403, 404)})
    def get(self, request: Request, tournament_id: int, team_id: int) -> Response:
        return Response(s.TeamOutputSerializer(self.get_team()).data)


class TeamDropApi(TeamApi):
    """Drop the team (scorekeeping staff or a member); effective from the next round."""

    rules = {"POST": "can_drop_team"}

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

    rules = {"POST": "can_disqualify"}

    def rule_args(self, request: Request) -> tuple:
        return (self.get_tournament(),)

    @extend_schema(
        request=s.ReasonInputSerializer,
        responses={200: s.TeamOutputSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int, team_id: int) -> Response:
        data = s.ReasonInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        team = team_disqualify(team=self.get_team(), actor=request.user, reason=data.validated_data["reason"])
        return Response(s.TeamOutputSerializer(teams_for(self.get_tournament(), team_id=team.id).get()).data)


class TeamCheckInApi(TeamApi):
    """Check the team in before round 1: a player of the team, or scorekeeping staff (who may
    also take it back with ``{"checked_in": false}``)."""

    rules = {"POST": "can_check_in"}

    @extend_schema(
        request=s.CheckInInputSerializer,
        responses={200: s.TeamOutputSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int, team_id: int) -> Response:
        data = s.CheckInInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        team = team_check_in(
            team=self.get_team(), actor=request.user, checked_in=data.validated_data["checked_in"]
        )
        return Response(s.TeamOutputSerializer(teams_for(self.get_tournament(), team_id=team.id).get()).data)


class TeamInvitationSendApi(TeamApi):
    """The captain (or staff) invites one more account to a forming team."""

    rules = {"POST": "can_invite_to_team"}

    @extend_schema(
        request=s.InvitationSendInputSerializer,
        responses={201: s.InvitationOutputSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int, team_id: int) -> Response:
        data = s.InvitationSendInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        invitation = invitation_send(team=self.get_team(), actor=request.user, **data.validated_data)
        return Response(s.InvitationOutputSerializer(invitation).data, status=status.HTTP_201_CREATED)


class TeamInvitationCancelApi(TeamApi):
    """The captain (or staff) cancels a pending invitation of the team."""

    rules = {"DELETE": "can_invite_to_team"}

    @extend_schema(responses={200: s.InvitationOutputSerializer, **errors(401, 403, 404, 409)})
    def delete(self, request: Request, tournament_id: int, team_id: int, invitation_id: int) -> Response:
        invitation = get_object_or_404(TeamInvitation, pk=invitation_id, team=self.get_team())
        invitation = invitation_cancel(invitation=invitation, actor=request.user)
        return Response(s.InvitationOutputSerializer(invitation).data)


class MyInvitationsApi(EventApi):
    """The signed-in player's invitations in this event, each with the team's join code."""

    rules = {"GET": "is_logged_in"}

    @extend_schema(responses={200: s.InvitationOutputSerializer(many=True), **errors(401, 404)})
    def get(self, request: Request, tournament_id: int) -> Response:
        invitations = invitations_for(request.user, self.get_tournament())
        return Response(s.InvitationOutputSerializer(invitations, many=True).data)


class InvitationAcceptApi(APIView):
    """Join the team with this join code: one's own invitation, or an open seat. Any signed-in
    player; 404 for an unknown code, 409 when the team is full or the player is on a team."""

    permission_classes = [LoggedIn]

    @extend_schema(
        request=s.InvitationAnswerInputSerializer,
        responses={200: s.TeamOutputSerializer, **errors(400, 401, 404, 409)},
    )
    def post(self, request: Request, code: str) -> Response:
        data = s.InvitationAnswerInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = invitation_accept(code=code, actor=request.user, **data.validated_data)
        return Response(
            s.TeamOutputSerializer(teams_for(player.tournament, team_id=player.team_id).get()).data
        )


class InvitationDeclineApi(APIView):
    """Decline one's own pending invitation to the team with this join code (404 if none)."""

    permission_classes = [LoggedIn]

    @extend_schema(request=None, responses={200: s.InvitationOutputSerializer, **errors(401, 404)})
    def post(self, request: Request, code: str) -> Response:
        invitation = invitation_decline(code=code, actor=request.user)
        return Response(s.InvitationOutputSerializer(invitation).data)


class PoolApi(EventApi):
    """The partner pool: GET its members (staff and members), POST join, DELETE leave."""

    rules = {"GET": "can_see_partner_pool", "POST": "is_logged_in", "DELETE": "is_logged_in"}

    @extend_schema(responses={200: s.PoolEntryOutputSerializer(many=True), **errors(401, 403, 404)})
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(s.PoolEntryOutputSerializer(pool_for(self.get_tournament()), many=True).data)

    @extend_schema(
        request=s.PoolJoinInputSerializer,
        responses={201: s.PoolEntryOutputSerializer, **errors(400, 401, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = s.PoolJoinInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = pool_join(tournament=self.get_tournament(), actor=request.user, **data.validated_data)
        return Response(s.PoolEntryOutputSerializer(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=None,
        responses={204: None, **errors(401, 404)},
        description="Leave the pool (also when not in it).",
    )
    def delete(self, request: Request, tournament_id: int) -> Response:
        pool_leave(tournament=self.get_tournament(), actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PoolTeamsApi(EventApi):
    """The organizer forms teams from the whole pool at random (seeded); ``preview`` answers the
    teams a seed gives without saving them."""

    rules = {"POST": "can_form_pool_teams"}

    @extend_schema(
        request=s.PoolFormInputSerializer,
        responses={
            201: s.PoolFormOutputSerializer,
            200: s.PoolFormOutputSerializer,
            **errors(400, 401, 403, 404, 409),
        },
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = s.PoolFormInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = self.get_tournament()
        seed = data.validated_data.get("seed")
        leftover = data.validated_data["leftover"]
        plan = pool_plan(tournament, seed=seed, leftover=leftover)
        if data.validated_data["preview"]:
            body = {
                "seed": plan.seed,
                "saved": False,
                "teams": [
                    {"id": None, "name": None, "players": [entry.name for entry in team]}
                    for team in plan.teams
                ],
                "waiting": [entry.name for entry in plan.waiting],
            }
            return Response(s.PoolFormOutputSerializer(body).data)
        teams = pool_form_teams(tournament=tournament, actor=request.user, seed=plan.seed, leftover=leftover)
        made = teams_for(tournament).filter(pk__in=[team.pk for team in teams])
        body = {
            "seed": plan.seed,
            "saved": True,
            "teams": [
                {
                    "id": team.pk,
                    "name": team.name,
                    "status": team.status,
                    "players": [player.name for player in team.players.all()],
                }
                for team in made
            ],
            "waiting": [entry.name for entry in plan.waiting],
        }
        return Response(s.PoolFormOutputSerializer(body).data, status=status.HTTP_201_CREATED)


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
        responses={201: s.RoundOutputSerializer, **errors(400, 401, 403, 404, 409)},
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
        return Response(s.RoundOutputSerializer(created).data, status=status.HTTP_201_CREATED)


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
    """Booster Draft pods. GET: the latest draft's pods (anyone who may see the event); POST
    ``{"draft": n}``: seat the active teams in random pods for the event's next draft."""

    rules = {"GET": "anyone", "POST": "can_run_event"}

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
        rows = memoized(
            tournament.pk,
            f"api-standings:{through}",
            lambda: (
                s.StandingsRowOutputSerializer(
                    standings_for(tournament, through_round=through), many=True
                ).data
            ),
        )
        renderer = request.accepted_renderer
        if renderer.format == "json":
            body = memoized(tournament.pk, f"api-standings-json:{through}", lambda: renderer.render(rows))
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
