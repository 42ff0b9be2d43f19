"""Pages for forming teams: creating a team, invite links and join codes, the partner pool,
check-in. Plain forms (post/redirect/get) that work without JavaScript; each calls one service.

The player's side lives on ``/events/<id>/me/`` (includes ``_me_join.html``, ``_me_team.html``,
``_me_checkin.html``) and on the invite link ``/join/<code>/``; the organizer's side on the
manage page (``_manage_pool.html``, the check-in column, the round-1 check-in question).
"""

from __future__ import annotations

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.throttling import join_code_failed, join_code_retry_after
from common.errors import DomainError
from common.i18n import localize
from common.links import public_url
from tournaments.domain.check_in import check_in_code
from tournaments.domain.team_forming import (
    InvitationStatus,
    PoolLeftover,
    join_code_problem,
    normalise_join_code,
)
from tournaments.models import PoolEntry, Team, TeamInvitation, Tournament
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
from tournaments.rules import can_check_in, can_form_pool_teams, can_invite_to_team, can_run_event
from tournaments.selectors import invitations_for, pool_for, teams_for
from tournaments.services.participation import team_check_in
from tournaments.services.pool import (
    pool_form_team_by_hand,
    pool_form_teams,
    pool_join,
    pool_leave,
    pool_plan,
)


def _text(request, name: str) -> str:
    """A posted text field; a NUL character (no database text column holds one) is refused."""
    value = request.POST.get(name, "")
    if "\x00" in value:
        raise DomainError(
            _("%(field)s: contains a NUL character") % {"field": name},
            errors=[{"field": name, "message": "NUL"}],
        )
    return value


def _me(tournament: Tournament):
    return redirect("tournament-me", tournament_id=tournament.id)


def _back_to_me(request, tournament: Tournament, error: DomainError):
    """A refusal on the player's page: the page again with the service's words, and its status."""
    from tournaments.views import tournament_me_page

    return tournament_me_page(request, tournament, status=error.status_code, error=error.message)


def join_context(request, tournament: Tournament) -> dict:
    """What a signed-in player without a team sees on ``/events/<id>/me/``: invitations to
    answer, a join code box, a form to create a team, the partner pool."""
    my_pool_entry = PoolEntry.objects.filter(tournament=tournament, user=request.user).first()
    in_pool = my_pool_entry is not None
    invitations = [
        i for i in invitations_for(request.user, tournament) if i.status == InvitationStatus.PENDING
    ]
    return {
        "invitations": invitations,
        # Staff seated a player under this account at the desk: on a team, only not linked yet.
        "seated": any(invitation.player_id for invitation in invitations),
        "in_pool": in_pool,
        # The "Invite" buttons beside pool members create a team under the name given to the pool.
        "my_pool_entry": my_pool_entry,
        "pool": list(pool_for(tournament)) if in_pool else [],
        "invite_slots": range(1, tournament.team_size),
    }


def team_context(request, tournament: Tournament, team: Team) -> dict:
    """The forming part of the player's own team: its status, code, link and invitations."""
    return {
        "is_captain": can_invite_to_team(request.user, team),
        "invite_url": public_url(reverse("team-join", args=[team.join_code])) if team.join_code else "",
        "open_seats": max(0, tournament.team_size - len(team.players.all())),
        "pending": list(getattr(team, "pending_invitations", [])),
        "may_check_in": tournament.check_in_required and can_check_in(request.user, team),
        "check_in_code": check_in_code(team.pk),
        "check_in_qr": _check_in_qr(team) if tournament.check_in_required and not team.checked_in_at else "",
    }


def _check_in_qr(team: Team) -> str:
    """The team's check-in code as an inline SVG QR code, for the desk's scanner (segno's markup,
    from the code's own letters only)."""
    code = check_in_code(team.pk)
    svg = segno.make(code, error="m", micro=False).svg_inline(
        scale=5, light="#fff", title=_("Check-in code %(code)s") % {"code": code}
    )
    return mark_safe(svg.replace("<svg ", '<svg role="img" ', 1))  # noqa: S308 - segno's own markup


@login_required
@require_POST
def team_create_view(request, tournament_id: int):
    """A player creates their team; each teammate login typed in is invited, never added."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        players = [
            PlayerEntry(
                name=_text(request, "player_name"),
                wizards_id=_text(request, "wizards_id"),
                username=request.user.username,
                name_reading=_text(request, "player_name_reading"),
            )
        ]
        for index in range(1, tournament.team_size):
            login = _text(request, f"invite_{index}").strip()
            if login:
                players.append(PlayerEntry(name="", wizards_id="", username=login))
        team = team_register(
            tournament=tournament, actor=request.user, name=_text(request, "team_name"), players=players
        )
    except DomainError as error:
        return _back_to_me(request, tournament, error)
    messages.success(
        request,
        _("Team “%(team)s” created. Give your teammate the join code %(code)s.")
        % {"team": team.name, "code": team.grouped_join_code},
    )
    return _me(tournament)


@login_required
@require_POST
def invitation_send_view(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    team = get_object_or_404(Team, pk=player_team_id(request.user, tournament) or 0)
    try:
        invitation = invitation_send(team=team, actor=request.user, username=_text(request, "username"))
    except DomainError as error:
        return _back_to_me(request, tournament, error)
    messages.success(
        request,
        _("%(user)s is invited: they accept on their own page.") % {"user": invitation.invitee.username},
    )
    return _me(tournament)


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
        return _back_to_me(request, tournament, error)
    messages.success(request, _("Invitation cancelled."))
    if request.POST.get("next") == "manage":
        return redirect(f"{reverse('tournament-manage', args=[tournament.id])}#teams")
    return _me(tournament)


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
                    name=_text(request, "player_name"),
                    wizards_id=_text(request, "wizards_id"),
                    name_reading=_text(request, "player_name_reading"),
                )
                if invitation is not None and invitation.player_id == player.pk:
                    messages.success(
                        request,
                        _("Your account is linked to %(name)s on “%(team)s”.")
                        % {"name": player.name, "team": team.name},
                    )
                else:
                    messages.success(request, _("You joined “%(team)s”.") % {"team": team.name})
            return _me(tournament)
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
            name=_text(request, "player_name"),
            wizards_id=_text(request, "wizards_id"),
            name_reading=_text(request, "player_name_reading"),
        )
    except DomainError as error:
        return _back_to_me(request, tournament, error)
    messages.success(request, _("You are in the partner pool: the players in it see your name."))
    return _me(tournament)


@login_required
@require_POST
def pool_leave_view(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    pool_leave(tournament=tournament, actor=request.user)
    messages.success(request, _("You left the partner pool."))
    return _me(tournament)


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
            from tournaments.manage_views import refused

            return refused(request, tournament, error)
        return _back_to_me(request, tournament, error)
    if to_manage:
        return redirect(f"{reverse('tournament-manage', args=[tournament.id])}#teams")
    messages.success(request, _("“%(team)s” is checked in.") % {"team": team.name})
    return _me(tournament)


def _organizer_event(request, tournament_id: int) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not can_form_pool_teams(request.user, tournament):
        raise PermissionDenied(_("Forming teams from the partner pool is the organizer's decision."))
    return tournament


def _seed(raw: str) -> int | None:
    raw = raw.strip()
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 9 else None


@login_required
@require_POST
def pool_form_view(request, tournament_id: int):
    """Random forming in two steps: the preview (the seed's teams, nothing saved), then the
    confirmation of exactly those (the same seed and the pool the preview showed)."""
    tournament = _organizer_event(request, tournament_id)
    leftover = request.POST.get("leftover", PoolLeftover.WAIT)
    if leftover not in PoolLeftover.values:
        leftover = PoolLeftover.WAIT
    seed = _seed(request.POST.get("seed", ""))
    if request.POST.get("confirm") != "yes":
        plan = pool_plan(tournament, seed=seed, leftover=leftover)
        context = {
            "tournament": tournament,
            "plan": plan,
            "leftover": leftover,
            "leftover_choices": PoolLeftover.choices,
            "entry_ids": ",".join(str(e.pk) for team in plan.teams for e in team)
            + "|"
            + ",".join(str(e.pk) for e in plan.waiting),
        }
        return render(request, "tournaments/pool_preview.html", context)
    expected = [
        int(pk)
        for pk in request.POST.get("entries", "").replace("|", ",").split(",")
        if pk.isascii() and pk.isdigit() and len(pk) <= 9
    ]
    try:
        teams = pool_form_teams(
            tournament=tournament, actor=request.user, seed=seed, leftover=leftover, expected_entries=expected
        )
    except DomainError as error:
        from tournaments.manage_views import refused

        return refused(request, tournament, error)
    messages.success(request, _("%(count)s team(s) formed from the partner pool.") % {"count": len(teams)})
    return redirect(f"{reverse('tournament-manage', args=[tournament.id])}#pool")


@login_required
@require_POST
def pool_form_by_hand_view(request, tournament_id: int):
    tournament = _organizer_event(request, tournament_id)
    ids = [int(pk) for pk in request.POST.getlist("entry") if pk.isascii() and pk.isdigit() and len(pk) <= 9]
    try:
        team = pool_form_team_by_hand(tournament=tournament, actor=request.user, entry_ids=ids)
    except DomainError as error:
        from tournaments.manage_views import refused

        return refused(request, tournament, error)
    messages.success(request, _("Team “%(team)s” formed from the partner pool.") % {"team": team.name})
    return redirect(f"{reverse('tournament-manage', args=[tournament.id])}#pool")


def manage_context(request, tournament: Tournament) -> dict:
    """The manage page's part: the pool, and whether staff may tick check-ins."""
    return {
        "pool_entries": list(pool_for(tournament)),
        "may_form_pool": can_form_pool_teams(request.user, tournament),
        "may_tick_check_in": tournament.check_in_required and can_run_event(request.user, tournament),
    }
