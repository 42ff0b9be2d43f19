from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, render

from tournaments.models import Tournament
from tournaments.selectors import tournaments_listed, tournaments_staffed_by


def home(request):
    return render(request, "tournaments/home.html", {"tournaments": tournaments_listed()})


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
        {"tournaments": [(t, roles[t.id]) for t in staffed]},
    )


def tournament_public(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    teams = tournament.teams.prefetch_related("players")
    return render(request, "tournaments/public.html", {"tournament": tournament, "teams": teams})
