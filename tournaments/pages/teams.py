"""Pages for forming teams: creating a team, invite links and join codes, the partner pool,
check-in. Plain forms (post/redirect/get) that work without JavaScript; each calls one service.

The player's side lives on ``/events/<id>/me/`` (includes ``_me_join.html``, ``_me_team.html``,
``_me_checkin.html``) and on the invite link ``/join/<code>/``; a refusal renders that page again
(``me_page.back_to_me``). The organizer's side of the pool is in ``pool``; staff tick check-ins
on the manage page through ``team_check_in_view`` too.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.throttling import join_code_failed, join_code_retry_after
from common.errors import DomainError
from common.i18n import localize
from tournaments.domain.team_forming import (
    InvitationStatus,
    join_code_problem,
    normalise_join_code,
)
from tournaments.models import Team, TeamInvitation, Tournament
from tournaments.pages.common import posted_text
from tournaments.pages.manage_page import refused
from tournaments.pages.me_page import back_to_me, to_me
from tournaments.permissions import player_team_id
from tournaments.registration.planner import PlayerEntry
from tournaments.registration.player import (
    InvitationNotOpen,
    invitation_accept,
    invitation_cancel,
    invitation_decline,
    invitation_open_to,
    invitation_send,
    team_by_code,
)
from tournaments.registration.register import team_register
from tournaments.rules import can_check_in, can_invite_to_team
from tournaments.selectors import teams_for
from tournaments.services.participation import team_check_in
from tournaments.services.pool import (
    pool_join,
    pool_leave,
)


@login_required
@require_POST
def team_create_view(request, tournament_id: int):
    """A player creates their team; each teammate login typed in is invited, never added."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        players = [
            PlayerEntry(
                name=posted_text(request, "player_name"),
                wizards_id=posted_text(request, "wizards_id"),
                username=request.user.username,
                name_reading=posted_text(request, "player_name_reading"),
            )
        ]
        for index in range(1, tournament.team_size):
            login = posted_text(request, f"invite_{index}").strip()
            if login:
                players.append(PlayerEntry(name="", wizards_id="", username=login))
        team = team_register(
            tournament=tournament, actor=request.user, name=posted_text(request, "team_name"), players=players
        )
    except DomainError as error:
        return back_to_me(request, tournament, error)
    messages.success(
        request,
        _("Team “%(team)s” created. Give your teammate the join code %(code)s.")
        % {"team": team.name, "code": team.grouped_join_code},
    )
    return to_me(tournament)


@login_required
@require_POST
def invitation_send_view(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    team = get_object_or_404(Team, pk=player_team_id(request.user, tournament) or 0)
    try:
        invitation = invitation_send(team=team, actor=request.user, username=posted_text(request, "username"))
    except DomainError as error:
        return back_to_me(request, tournament, error)
    messages.success(
        request,
        _("%(user)s is invited: they accept on their own page.") % {"user": invitation.invitee.username},
    )
    return to_me(tournament)


@login_required
@require_POST
def invitation_cancel_view(request, tournament_id: int, invitation_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    invitation = get_object_or_404(TeamInvitation, pk=invitation_id, tournament=tournament)
    if not can_invite_to_team(request.user, invitation.team):
        raise PermissionDenied(_("Only the team's captain or the event's staff cancel its invitations."))
    try:
        invitation_cancel(invitation=invitation, actor=request.user)
    except DomainError as error:
        return back_to_me(request, tournament, error)
    messages.success(request, _("Invitation cancelled."))
    if request.POST.get("next") == "manage":
        return redirect(f"{reverse('tournament-manage', args=[tournament.id])}#teams")
    return to_me(tournament)


def join_code_lookup(request):
    """The join-code box (a GET form): on to the invite page of the code typed."""
    code = normalise_join_code(request.GET.get("code", ""))
    problem = join_code_problem(code)
    if problem:
        return _no_team(request, localize(problem), 404)
    return redirect("team-join", code=code)


def _no_team(request, error: str, status: int):
    return render(request, "tournaments/join.html", {"error": error, "team": None}, status=status)


def _open_team(request, code: str) -> Team:
    """The team behind ``code`` if the reader may see it; else ``InvitationNotOpen``, counted
    against the join-code limit (``accounts.throttling``): a full, closed or foreign team shows
    nothing of itself, not even its name."""
    try:
        team = team_by_code(code)
        if not invitation_open_to(team, request.user):
            raise InvitationNotOpen()
    except InvitationNotOpen:
        join_code_failed(request)
        raise
    return team


@login_required
def team_join(request, code: str):
    """The invite link: see the team, accept (with the name and Wizards Account to play under)
    or decline. Signed-out players log in or sign up first and come back here."""
    wait = join_code_retry_after(request)
    if wait is not None:
        response = _no_team(
            request,
            _("Too many join codes that lead nowhere: try again in %(minutes)s minute(s).")
            % {"minutes": -(-wait // 60)},
            429,
        )
        response["Retry-After"] = str(wait)
        return response
    try:
        team = _open_team(request, code)
    except DomainError as error:
        return _no_team(request, error.message, 404)
    tournament = team.tournament
    invitation = team.invitations.filter(invitee=request.user, status=InvitationStatus.PENDING).first()
    status, error = 200, ""
    if request.method == "POST":
        try:
            if request.POST.get("answer") == "decline":
                invitation_decline(code=code, actor=request.user)
                messages.success(request, _("Invitation to “%(team)s” declined.") % {"team": team.name})
            else:
                player = invitation_accept(
                    code=code,
                    actor=request.user,
                    name=posted_text(request, "player_name"),
                    wizards_id=posted_text(request, "wizards_id"),
                    name_reading=posted_text(request, "player_name_reading"),
                )
                if invitation is not None and invitation.player_id == player.pk:
                    messages.success(
                        request,
                        _("Your account is linked to %(name)s on “%(team)s”.")
                        % {"name": player.name, "team": team.name},
                    )
                else:
                    messages.success(request, _("You joined “%(team)s”.") % {"team": team.name})
            return to_me(tournament)
        except DomainError as error_:
            status, error = error_.status_code, error_.message
    context = {
        "team": teams_for(tournament, team_id=team.pk).get(),
        "tournament": tournament,
        "invitation": invitation,
        "code": team.join_code,
        "error": error,
        "mine": player_team_id(request.user, tournament),
    }
    return render(request, "tournaments/join.html", context, status=status)


@login_required
@require_POST
def pool_join_view(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        pool_join(
            tournament=tournament,
            actor=request.user,
            name=posted_text(request, "player_name"),
            wizards_id=posted_text(request, "wizards_id"),
            name_reading=posted_text(request, "player_name_reading"),
        )
    except DomainError as error:
        return back_to_me(request, tournament, error)
    messages.success(request, _("You are in the partner pool: the players in it see your name."))
    return to_me(tournament)


@login_required
@require_POST
def pool_leave_view(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    pool_leave(tournament=tournament, actor=request.user)
    messages.success(request, _("You left the partner pool."))
    return to_me(tournament)


@login_required
@require_POST
def team_check_in_view(request, tournament_id: int, team_id: int):
    """A player checks their team in on their phone; staff tick (or untick) it on the manage page."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    team = get_object_or_404(Team, pk=team_id, tournament=tournament)
    if not can_check_in(request.user, team):
        raise PermissionDenied(_("Only the team's players or the event's scorekeeping staff check it in."))
    to_manage = request.POST.get("next") == "manage"
    try:
        team_check_in(team=team, actor=request.user, checked_in=request.POST.get("checked_in", "1") == "1")
    except DomainError as error:
        if to_manage:
            return refused(request, tournament, error)
        return back_to_me(request, tournament, error)
    if to_manage:
        return redirect(f"{reverse('tournament-manage', args=[tournament.id])}#teams")
    messages.success(request, _("“%(team)s” is checked in.") % {"team": team.name})
    return to_me(tournament)
