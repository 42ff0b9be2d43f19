"""The team desk on the staff's manage page: register a team or many (CSV), correct one, ask an
account to be linked to a player, drop a team and take a drop back.

These views post from the manage page's Teams section and, when refused, render that page again
through ``manage_page.render_manage``, with the same rules: one service call per POST, then a redirect.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from common.errors import DomainError
from common.numbers import column_range, parse_id
from tournaments.forms import ReasonForm, TeamRegisterForm, TeamsImportForm, add_domain_errors
from tournaments.models import Player, Team
from tournaments.page_access import staff_event
from tournaments.pages.manage_page import refused, render_manage
from tournaments.registration.checks import field_label
from tournaments.registration.desk import PlayerEdit, account_link_invite, team_update
from tournaments.registration.register import team_register
from tournaments.selectors import teams_for
from tournaments.services.participation import (
    team_check_in_by_code,
    team_drop,
    team_drop_undo,
    team_reinstate_late_entry,
    teams_check_in,
)
from tournaments.services.team_import import teams_import

#: The largest fixed table the column holds.
MAX_TABLE = column_range(Team, "fixed_table")[1]


@login_required
@require_POST
def team_add(request, tournament_id: int):
    tournament = staff_event(request, tournament_id, "can_run_event")
    form = TeamRegisterForm(request.POST, team_size=tournament.team_size)
    if form.is_valid():
        try:
            team = team_register(
                tournament=tournament,
                actor=request.user,
                name=form.cleaned_data["name"],
                players=form.player_entries(),
                awarded_byes=form.cleaned_data["awarded_byes"] or 0,
            )
        except DomainError as error:
            add_domain_errors(form, error, form.domain_field_map())
            return render_manage(
                request, tournament, status=error.status_code, error=error.message, team_form=form
            )
        messages.success(request, _("Team “%(name)s” registered.") % {"name": team.name})
        return redirect("tournament-manage", tournament_id=tournament.id)
    return render_manage(
        request, tournament, status=400, error=_("The team was not registered: see the form."), team_form=form
    )


@login_required
@require_POST
def teams_import_view(request, tournament_id: int):
    """Register many teams from pasted CSV lines; all or nothing, problems listed by line."""
    tournament = staff_event(request, tournament_id, "can_run_event")
    form = TeamsImportForm(request.POST)
    if not form.is_valid():
        return render_manage(
            request, tournament, status=400, error=_("Paste at least one team."), import_form=form
        )
    try:
        teams = teams_import(tournament=tournament, actor=request.user, text=form.cleaned_data["csv"])
    except DomainError as error:
        return render_manage(
            request,
            tournament,
            status=error.status_code,
            error=_("%(problem)s: nothing was saved. Fix the lines below and import again.")
            % {"problem": error.message.split(":")[0]},
            import_form=form,
            import_errors=error.errors,
        )
    messages.success(
        request,
        ngettext("%(count)s team registered.", "%(count)s teams registered.", len(teams))
        % {"count": len(teams)},
    )
    return redirect("tournament-manage", tournament_id=tournament.id)


@login_required
def team_edit(request, tournament_id: int, team_id: int):
    """Correct a team (name, players, fixed table): freely before round 1, with a reason after."""
    tournament = staff_event(request, tournament_id, "can_run_event")
    team = get_object_or_404(teams_for(tournament), pk=team_id)
    players = list(team.players.all())
    status, errors, values = 200, [], None
    if request.method == "POST":
        data = request.POST
        fixed = data.get("fixed_table", "").strip()
        values = {
            "name": data.get("name", ""),
            "fixed_table": fixed,
            "reason": data.get("reason", ""),
            "players": [
                (
                    p,
                    data.get(f"player_{p.id}_name", ""),
                    data.get(f"player_{p.id}_name_reading", ""),
                    data.get(f"player_{p.id}_wizards_id", ""),
                )
                for p in players
            ],
        }
        if fixed and not (fixed.isascii() and fixed.isdigit() and 1 <= int(fixed) <= MAX_TABLE):
            status, errors = 400, [_("fixed table: a table number from 1 to %(max)s") % {"max": MAX_TABLE}]
        else:
            try:
                team_update(
                    team=team,
                    actor=request.user,
                    name=values["name"],
                    players=[PlayerEdit(p.id, n, w, r) for p, n, r, w in values["players"]],
                    fixed_table=int(fixed) if fixed else None,
                    reason=values["reason"],
                )
            except DomainError as error:
                status = error.status_code
                errors = [f"{field_label(e['field'])}: {e['message']}" for e in error.errors] or [
                    error.message
                ]
            else:
                messages.success(
                    request, _("Team “%(name)s” saved.") % {"name": " ".join(values["name"].split())}
                )
                return redirect(f"{reverse('tournament-manage', args=[tournament.id])}#teams")
    values = values or {
        "name": team.name,
        "fixed_table": team.fixed_table or "",
        "reason": "",
        "players": [(p, p.name, p.name_reading, p.wizards_id) for p in players],
    }
    context = {
        "tournament": tournament,
        "team": team,
        "values": values,
        "errors": errors,
        "needs_reason": tournament.rounds.exists(),
    }
    return render(request, "tournaments/team_edit.html", context, status=status)


@login_required
@require_POST
def player_link_view(request, tournament_id: int, team_id: int):
    """Ask an account to be linked to one of the team's registered players, from the team's row:
    linked when its player accepts (docs/decisions.md "Team formation")."""
    tournament = staff_event(request, tournament_id, "can_run_event")
    team = get_object_or_404(Team, pk=team_id, tournament=tournament)
    player = get_object_or_404(
        Player, pk=parse_id(request.POST.get("player"), Player, param="player") or 0, team=team
    )
    try:
        invitation = account_link_invite(
            player=player, actor=request.user, username=request.POST.get("username", "")
        )
    except DomainError as error:
        return refused(request, tournament, error)
    messages.success(
        request,
        _(
            "%(account)s is asked to confirm that they are %(name)s; the account is linked when they "
            "accept on their event page."
        )
        % {"name": player.name, "account": invitation.invitee.username},
    )
    return redirect(f"{reverse('tournament-manage', args=[tournament.id])}#teams")


@login_required
@require_POST
def team_drop_view(request, tournament_id: int, team_id: int):
    tournament = staff_event(request, tournament_id, "can_run_event")
    team = get_object_or_404(Team, pk=team_id, tournament=tournament)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        return render_manage(request, tournament, status=400, error=_("Give a reason to drop a team."))
    if request.POST.get("confirm") != "yes":
        latest = tournament.rounds.newest()
        context = {
            "tournament": tournament,
            "team": team,
            "reason": form.cleaned_data["reason"],
            "latest": latest,
        }
        return render(request, "tournaments/drop_confirm.html", context)
    try:
        team_drop(team=team, actor=request.user, reason=form.cleaned_data["reason"])
    except DomainError as error:
        return refused(request, tournament, error)
    messages.success(
        request,
        _("Team “%(name)s” dropped. Until the next round is paired you can undo it from its row.")
        % {"name": team.name},
    )
    return redirect(f"{reverse('tournament-manage', args=[tournament.id])}#teams")


@login_required
@require_POST
def team_drop_undo_view(request, tournament_id: int, team_id: int):
    tournament = staff_event(request, tournament_id, "can_run_event")
    team = get_object_or_404(Team, pk=team_id, tournament=tournament)
    try:
        team_drop_undo(team=team, actor=request.user, reason=request.POST.get("reason", ""))
    except DomainError as error:
        return refused(request, tournament, error)
    messages.success(
        request,
        _("Team “%(name)s” is back in the event: it is paired from the next round.") % {"name": team.name},
    )
    return redirect(f"{reverse('tournament-manage', args=[tournament.id])}#teams")


def _wants_json(request) -> bool:
    """The desk's script posts with ``Accept: application/json`` to stay on the page; a plain form
    gets the manage page again."""
    return "application/json" in request.headers.get("Accept", "")


@login_required
@require_POST
def check_in_by_code_view(request, tournament_id: int):
    """The desk types (or a USB scanner types) a team's check-in code: the team is checked in and
    the field is ready for the next. With JavaScript the answer is JSON and the page stays."""
    tournament = staff_event(request, tournament_id, "can_run_event")
    code = request.POST.get("code", "")
    try:
        team = team_check_in_by_code(tournament=tournament, actor=request.user, code=code)
    except DomainError as error:
        if _wants_json(request):
            return JsonResponse({"detail": error.message, "errors": error.errors}, status=error.status_code)
        return refused(request, tournament, error)
    message = _("“%(team)s” is checked in.") % {"team": team.name}
    if _wants_json(request):
        state = _("Checked in at %(time)s") % {"time": date_format(localtime(team.checked_in_at), "H:i")}
        return JsonResponse({"team": team.pk, "name": team.name, "detail": message, "state": state})
    messages.success(request, message)
    return redirect(f"{reverse('tournament-manage', args=[tournament.id])}#check-in-desk")


@login_required
@require_POST
def check_in_present_view(request, tournament_id: int):
    """ "Check in all present": every team ticked in the teams table, in one submit."""
    tournament = staff_event(request, tournament_id, "can_run_event")
    ids = [parse_id(raw, Team, param="team") or 0 for raw in request.POST.getlist("team") if raw.strip()]
    try:
        teams = teams_check_in(tournament=tournament, actor=request.user, team_ids=ids)
    except DomainError as error:
        return refused(request, tournament, error)
    messages.success(
        request,
        ngettext("%(count)s team checked in.", "%(count)s teams checked in.", len(teams))
        % {"count": len(teams)},
    )
    return redirect(f"{reverse('tournament-manage', args=[tournament.id])}#teams")


@login_required
@require_POST
def team_reinstate_view(request, tournament_id: int, team_id: int):
    """A team dropped before round 1 that turns up: back as a late entry, with a reason."""
    tournament = staff_event(request, tournament_id, "can_run_event")
    team = get_object_or_404(Team, pk=team_id, tournament=tournament)
    try:
        team = team_reinstate_late_entry(team=team, actor=request.user, reason=request.POST.get("reason", ""))
    except DomainError as error:
        return refused(request, tournament, error)
    messages.success(
        request,
        _("Team “%(name)s” is back as a late entry: it is paired from round %(number)s.")
        % {"name": team.name, "number": team.registered_after_round + 1},
    )
    return redirect(f"{reverse('tournament-manage', args=[tournament.id])}#teams")
