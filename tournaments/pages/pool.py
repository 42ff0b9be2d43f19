"""The organizer forms teams from the partner pool, at random (preview, then confirm) or by hand,
from the manage page's pool section; a refusal renders the manage page again.
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
from tournaments.domain.team_forming import (
    PoolLeftover,
)
from tournaments.models import Tournament
from tournaments.pages.manage_page import refused
from tournaments.rules import can_form_pool_teams
from tournaments.services.pool import (
    pool_form_team_by_hand,
    pool_form_teams,
    pool_plan,
)


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
        return refused(request, tournament, error)
    messages.success(request, _("Team “%(team)s” formed from the partner pool.") % {"team": team.name})
    return redirect(f"{reverse('tournament-manage', args=[tournament.id])}#pool")
