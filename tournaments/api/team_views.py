"""Events API v1, the team side: registering teams and reading them, a team's drop,
disqualification and check-in, invitations and join codes, and the partner pool.

Kept apart from ``tournaments.api.views`` (events, staff, rounds, standings, matches) so neither
module outgrows a read; the views here are built the same way, on its ``EventApi`` and its
``errors`` table, and the rules each declares are summed up in that module's docstring.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.throttling import JoinCodeThrottle, join_code_failed
from tournaments.api import serializers as s
from tournaments.api.permissions import LoggedIn
from tournaments.api.views import EventApi, errors
from tournaments.models import Team, TeamInvitation
from tournaments.permissions import player_team_id
from tournaments.registration.planner import PlayerEntry
from tournaments.registration.player import (
    InvitationNotOpen,
    invitation_accept,
    invitation_cancel,
    invitation_decline,
    invitation_send,
)
from tournaments.registration.register import team_register
from tournaments.rules import can_award_byes
from tournaments.selectors import invitations_for, pool_for, teams_for
from tournaments.services.participation import (
    team_check_in,
    team_disqualify,
    team_drop,
    team_reinstate_late_entry,
)
from tournaments.services.pool import pool_form_teams, pool_join, pool_leave, pool_plan


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

    def team_answer(self, team: Team) -> Response:
        """The team as it is after a change, read again as the team list shows it (``teams_for``)."""
        return Response(s.TeamOutputSerializer(teams_for(self.get_tournament(), team_id=team.id).get()).data)


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
        return self.team_answer(team)


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
        return self.team_answer(team)


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
        return self.team_answer(team)


class TeamReinstateApi(TeamApi):
    """A team dropped before round 1 (it did not check in in time) comes back as a late entry:
    paired from the next round, the rounds already paired recorded as a late entry's missed rounds."""

    rules = {"POST": "can_reinstate_team"}

    @extend_schema(
        request=s.ReasonInputSerializer,
        responses={200: s.TeamOutputSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int, team_id: int) -> Response:
        data = s.ReasonInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        team = team_reinstate_late_entry(
            team=self.get_team(), actor=request.user, reason=data.validated_data["reason"]
        )
        return self.team_answer(team)


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


@contextmanager
def counted_join_code(request: Request) -> Iterator[None]:
    """A join code that leads to no open invitation counts against the join-code limit."""
    try:
        yield
    except InvitationNotOpen:
        join_code_failed(request)
        raise


class InvitationAcceptApi(APIView):
    """Join the team with this join code: one's own invitation, or an open seat. Any signed-in
    player; 404 for an unknown code, 409 when the team is full or the player is on a team."""

    permission_classes = [LoggedIn]
    throttle_classes = [JoinCodeThrottle]

    @extend_schema(
        request=s.InvitationAnswerInputSerializer,
        responses={200: s.TeamOutputSerializer, **errors(400, 401, 404, 409, 429)},
    )
    def post(self, request: Request, code: str) -> Response:
        data = s.InvitationAnswerInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        with counted_join_code(request):
            player = invitation_accept(code=code, actor=request.user, **data.validated_data)
        return Response(
            s.TeamOutputSerializer(teams_for(player.tournament, team_id=player.team_id).get()).data
        )


class InvitationDeclineApi(APIView):
    """Decline one's own pending invitation to the team with this join code (404 if none)."""

    permission_classes = [LoggedIn]
    throttle_classes = [JoinCodeThrottle]

    @extend_schema(request=None, responses={200: s.InvitationOutputSerializer, **errors(401, 404, 429)})
    def post(self, request: Request, code: str) -> Response:
        with counted_join_code(request):
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
