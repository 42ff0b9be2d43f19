"""The staff's manage page (teams, rounds, results) and the round and result writes it posts to.
One service call per POST, then a redirect; a refusal renders the page again with the service's
words and its 4xx status (``manage_page.refused``).

The team desk's writes are in ``manage_teams``, the event's settings, staff and audit log in
``events``; all check the reader with ``page_access.staff_event``.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from common.errors import DomainError
from tournaments.enums import ResultKind, RoundKind
from tournaments.forms import MatchResultForm, PodsSeatForm
from tournaments.models import Match, Round
from tournaments.page_access import staff_event
from tournaments.pages.common import is_htmx
from tournaments.pages.manage_page import refused, render_manage
from tournaments.pages.staff_results import result_row, staff_result_entry, staff_views
from tournaments.rules import can_check_decks
from tournaments.services.cut import cut_build
from tournaments.services.participation import UNCHECKED_CHOICES
from tournaments.services.pods import pods_seat
from tournaments.services.rounds import (
    round_delete,
    round_pair,
    round_publish,
)


@login_required
def tournament_manage(request, tournament_id: int):
    return render_manage(request, staff_event(request, tournament_id))


@login_required
@require_POST
def round_pair_view(request, tournament_id: int):
    """Pair the next round; for round 1 of an event requiring check-in, a team not checked in
    makes the page ask the organizer to drop those teams or pair them anyway (nothing silent)."""
    tournament = staff_event(request, tournament_id, "can_run_event")
    unchecked = request.POST.get("unchecked") or None
    if unchecked not in (None, *UNCHECKED_CHOICES):
        unchecked = None
    try:
        paired = round_pair(tournament=tournament, actor=request.user, unchecked=unchecked)
    except DomainError as error:
        unchecked_teams = error.extra.get("unchecked_teams", ())
        return render_manage(
            request,
            tournament,
            status=error.status_code,
            error=_("Round 1 is not paired yet: some teams have not checked in. Choose below.")
            if unchecked_teams
            else error.message,
            unchecked_teams=unchecked_teams,
        )
    messages.success(
        request, _("Round %(number)s paired. Check it, then publish it.") % {"number": paired.number}
    )
    return redirect("tournament-manage", tournament_id=tournament.id)


@login_required
@require_POST
def round_publish_view(request, tournament_id: int, round_id: int):
    tournament = staff_event(request, tournament_id, "can_run_event")
    target = get_object_or_404(Round, pk=round_id, tournament=tournament)
    try:
        published = round_publish(round_row=target, actor=request.user)
    except DomainError as error:
        return refused(request, tournament, error)
    messages.success(
        request, _("Round %(number)s published: players can see their tables.") % {"number": published.number}
    )
    return redirect("tournament-manage", tournament_id=tournament.id)


@login_required
@require_POST
def round_delete_view(request, tournament_id: int, round_id: int):
    tournament = staff_event(request, tournament_id, "can_run_event")
    target = get_object_or_404(Round, pk=round_id, tournament=tournament)
    number = target.number
    try:
        round_delete(round_row=target, actor=request.user)
    except DomainError as error:
        return refused(request, tournament, error)
    messages.success(request, _("Round %(number)s deleted. Pair it again when ready.") % {"number": number})
    return redirect("tournament-manage", tournament_id=tournament.id)


@login_required
@require_POST
def pods_seat_view(request, tournament_id: int):
    """Seat the teams in random pods for the next draft (a form; works without JavaScript)."""
    tournament = staff_event(request, tournament_id, "can_run_event")
    form = PodsSeatForm(request.POST)
    if not form.is_valid():
        return render_manage(
            request, tournament, status=400, error=_("Give the number of the draft to seat.")
        )
    try:
        pods = pods_seat(
            tournament=tournament,
            actor=request.user,
            draft=form.cleaned_data["draft"],
            single_pod=form.cleaned_data["single_pod"],
        )
    except DomainError as error:
        return refused(request, tournament, error)
    messages.success(
        request,
        _("Draft %(draft)s: teams seated in %(pods)s pods.")
        % {"draft": form.cleaned_data["draft"], "pods": len(pods)},
    )
    return redirect("tournament-manage", tournament_id=tournament.id)


@login_required
@require_POST
def cut_build_view(request, tournament_id: int):
    tournament = staff_event(request, tournament_id, "can_run_event")
    try:
        playoff = cut_build(tournament=tournament, actor=request.user)
    except DomainError as error:
        return refused(request, tournament, error)
    messages.success(
        request,
        _("Top cut built: round %(number)s is paired. Check it, then publish it.")
        % {"number": playoff.number},
    )
    return redirect("tournament-manage", tournament_id=tournament.id)


@login_required
@require_POST
def match_result_view(request, tournament_id: int, match_id: int):
    """A scorekeeper enters one table's result from the manage page (a plain form; with JS the
    keyboard grid submits the same form and swaps in the row this view answers with)."""
    tournament = staff_event(request, tournament_id, "can_run_event")
    match = get_object_or_404(
        Match.objects.public().select_related("round", "team_a", "team_b", "reported_by"),
        pk=match_id,
        round__tournament=tournament,
    )
    match, status, message = staff_result_entry(
        request, tournament, match, _("Choose the result: left team wins, right team wins or a draw.")
    )
    chosen = request.POST.get("result", "") if status == 400 else ""
    chosen = chosen if chosen in dict(MatchResultForm.RESULT_CHOICES) else ""
    playoff = match.round.kind == RoundKind.PLAYOFF
    saved = _("Saved %(a)s-%(b)s-%(draws)s") % {
        "a": match.team_a_wins,
        "b": match.team_b_wins,
        "draws": match.draws,
    }
    if is_htmx(request):
        context = {
            "tournament": tournament,
            "row": result_row(
                match,
                staff_views([match])[match.pk],
                playoff=playoff,
                message=message or saved,
                failed=bool(message),
                chosen=chosen,
            ),
            "can_write": True,
            "can_deck_check": can_check_decks(request.user, tournament),
            "counter": _results_counter(match.round),
        }
        return render(request, "tournaments/_result_row.html", context, status=status)
    if message:
        return render_manage(
            request,
            tournament,
            status=status,
            error=_("Table %(table)s: %(message)s") % {"table": match.table, "message": message},
            row_message=(match.pk, message, chosen),
        )
    messages.success(request, _("Table %(table)s: %(message)s.") % {"table": match.table, "message": saved})
    return redirect(f"{reverse('tournament-manage', args=[tournament.id])}#results-heading")


def _results_counter(round_obj: Round) -> dict:
    played = Match.objects.filter(round=round_obj, team_b__isnull=False)
    return {"total": played.count(), "reported": played.exclude(result_kind=ResultKind.PENDING).count()}
