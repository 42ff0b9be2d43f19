"""The player's page (``/events/<id>/me/``): their team, current table and seat, or, for a player
not on a team yet, how to join one; and the choice of their team's primary for the match.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from common.errors import DomainError
from tournaments.forms import PrimaryPlayerForm
from tournaments.models import Match, Tournament
from tournaments.pages.common import side_of
from tournaments.pages.me_page import render_me, tournament_me_page
from tournaments.permissions import player_team_id
from tournaments.services.seating import match_seats_set


@login_required
def tournament_me(request, tournament_id: int):
    """The logged-in player's team, current table and seat; for a player not on a team yet,
    their invitations, a join code box, a form to create a team and the partner pool."""
    return tournament_me_page(request, get_object_or_404(Tournament, pk=tournament_id))


@login_required
@require_POST
def match_seats_view(request, tournament_id: int, match_id: int):
    """A player chooses their team's primary for the current match (MTR 9.4(1)); the teammates
    keep their current order behind them."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    team_id = player_team_id(request.user, tournament)
    if team_id is None:
        raise PermissionDenied(_("You are not registered on a team in this event."))
    match = get_object_or_404(
        Match.objects.public()
        .select_related("team_a", "team_b")
        .prefetch_related("team_a__players", "team_b__players"),
        pk=match_id,
        round__tournament=tournament,
    )
    if team_id not in (match.team_a_id, match.team_b_id):
        raise PermissionDenied(_("This is not your team's match."))
    side = side_of(match, "A" if match.team_a_id == team_id else "B")
    seated = [seat.player for seat in side.seats]
    form = PrimaryPlayerForm(request.POST, players=seated)
    if not form.is_valid():
        return render_me(request, tournament, team_id, status=400, error=_("Choose who sits on the right."))
    primary_id = int(form.cleaned_data["primary"])
    order = [primary_id, *(p.pk for p in seated if p.pk != primary_id)]
    try:
        match_seats_set(match=match, actor=request.user, team_id=team_id, player_ids=order)
    except DomainError as error:
        return render_me(request, tournament, team_id, status=error.status_code, error=error.message)
    primary = next(p for p in seated if p.pk == primary_id)
    messages.success(
        request, _("Recorded: %(name)s is primary and sits on the right.") % {"name": primary.name}
    )
    return redirect("tournament-me", tournament_id=tournament.id)
