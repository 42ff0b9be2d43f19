"""The organizer's event pages: the dashboard, a new event, and the pages behind the manage page's
header buttons, its settings and staff (the organizer's) and its audit log (any staff role).

They render their own templates and share nothing with the manage page but ``staff_event``.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from common.errors import DomainError
from tournaments.audit_text import audit_lines
from tournaments.forms import (
    StaffAddForm,
    TournamentCreateForm,
    TournamentSettingsForm,
    add_domain_errors,
)
from tournaments.models import Match, Staff, Tournament
from tournaments.page_access import staff_event
from tournaments.rules import can_create_events
from tournaments.selectors import (
    staff_for,
    tournaments_staffed_by,
)
from tournaments.services.events import staff_add, staff_remove, tournament_create, tournament_update


@login_required
def dashboard(request):
    staffed = tournaments_staffed_by(request.user).prefetch_related("staff")
    roles = {
        tournament.id: next(
            s.get_role_display() for s in tournament.staff.all() if s.user_id == request.user.id
        )
        for tournament in staffed
    }
    return render(
        request,
        "tournaments/dashboard.html",
        {"tournaments": [(t, roles[t.id]) for t in staffed], "may_create": can_create_events(request.user)},
    )


@login_required
def tournament_new(request):
    """Accounts the site lets create events (``can_create_events``) create one and become its
    organizer (the service adds the staff row)."""
    if not can_create_events(request.user):
        raise PermissionDenied(
            _(
                "Creating events is for the organizers this site knows: your account may play in events "
                "and be added to an event's staff, but not create one. Ask the site's administrator."
            )
        )
    form = TournamentCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournament_create(actor=request.user, **form.cleaned_data)
        except DomainError as error:
            add_domain_errors(form, error)
        else:
            messages.success(
                request, _("Event “%(name)s” created. Register the teams next.") % {"name": tournament.name}
            )
            return redirect("tournament-manage", tournament_id=tournament.id)
    status = 400 if form.is_bound else 200
    return render(request, "tournaments/create.html", {"form": form}, status=status)


AUDIT_PAGE_SIZE = 500


@login_required
def tournament_settings(request, tournament_id: int):
    """The organizer changes the event's settings; the structure is shown fixed once round 1 is paired."""
    tournament = staff_event(request, tournament_id, "can_manage_event")
    form = _settings_form(tournament, request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                tournament_update(tournament=tournament, actor=request.user, **form.changes())
            except DomainError as error:
                add_domain_errors(form, error)
                status = error.status_code
            else:
                messages.success(request, _("Event settings saved."))
                return redirect("tournament-manage", tournament_id=tournament.id)
    return _render_settings(request, tournament, form=form, status=status)


def _settings_form(tournament: Tournament, data=None) -> TournamentSettingsForm:
    structure_fixed = tournament.rounds.exists()
    return TournamentSettingsForm(
        data,
        tournament=tournament,
        structure_fixed=structure_fixed,
        team_size_fixed=structure_fixed or tournament.teams.exists(),
    )


def _render_settings(request, tournament: Tournament, *, form=None, staff_form=None, status=200):
    context = {
        "tournament": tournament,
        "form": form or _settings_form(tournament),
        "structure_fixed": tournament.rounds.exists(),
        "staff": staff_for(tournament),
        "staff_form": staff_form or StaffAddForm(),
        "role_choices": StaffAddForm.ROLE_CHOICES,
    }
    return render(request, "tournaments/settings.html", context, status=status)


@login_required
@require_POST
def staff_add_view(request, tournament_id: int):
    """The organizer adds a judge, scorekeeper or head judge by username or e-mail, or changes a role."""
    tournament = staff_event(request, tournament_id, "can_manage_event")
    form = StaffAddForm(request.POST)
    if form.is_valid():
        try:
            staff = staff_add(tournament=tournament, actor=request.user, **form.cleaned_data)
        except DomainError as error:
            add_domain_errors(form, error)
            return _render_settings(request, tournament, staff_form=form, status=error.status_code)
        messages.success(
            request,
            _("%(name)s is now %(role)s.")
            % {"name": staff.user.username, "role": str(staff.get_role_display()).lower()},
        )
        return redirect(f"{reverse('tournament-settings', args=[tournament.id])}#staff")
    return _render_settings(request, tournament, staff_form=form, status=400)


@login_required
@require_POST
def staff_remove_view(request, tournament_id: int, staff_id: int):
    tournament = staff_event(request, tournament_id, "can_manage_event")
    staff = get_object_or_404(Staff.objects.select_related("user"), pk=staff_id, tournament=tournament)
    try:
        staff_remove(staff=staff, actor=request.user)
    except DomainError as error:
        messages.error(request, error.message)
        return _render_settings(request, tournament, status=error.status_code)
    messages.success(request, _("%(name)s is no longer on the staff.") % {"name": staff.user.username})
    return redirect(f"{reverse('tournament-settings', args=[tournament.id])}#staff")


@login_required
def tournament_audit(request, tournament_id: int):
    tournament = staff_event(request, tournament_id)
    entries = list(
        tournament.audit_entries.select_related("actor").order_by("-created_at", "-id")[:AUDIT_PAGE_SIZE]
    )
    lines = audit_lines(
        entries,
        rounds=dict(tournament.rounds.values_list("id", "number")),
        matches={
            match_id: (number, table)
            for match_id, number, table in Match.objects.filter(round__tournament=tournament).values_list(
                "id", "round__number", "table"
            )
        },
        teams=dict(tournament.teams.values_list("id", "name")),
        player_teams=dict(tournament.players.values_list("id", "team__name")),
    )
    return render(
        request, "tournaments/audit.html", {"tournament": tournament, "entries": entries, "lines": lines}
    )
