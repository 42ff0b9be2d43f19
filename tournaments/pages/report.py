"""Players report their match's result from their phone, and the other team confirms it.

Plain forms that work without JavaScript (post, then back to the page); with htmx the block
``templates/tournaments/_me_report.html`` posts in place and polls every few seconds, answering
204 while the match's version is the one the page shows. The result's rules are in
``tournaments.domain.result_state``; these views only map a tap to a game record.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from common.errors import DomainError
from common.i18n import localize
from common.idempotency import idempotent
from tournaments.domain import games_to_win
from tournaments.enums import RoundKind, TeamSide
from tournaments.forms import PlayerReportForm
from tournaments.models import Match, Tournament
from tournaments.page_access import staff_event
from tournaments.pages.common import is_htmx
from tournaments.pages.me_page import render_me
from tournaments.pages.result_block import me_report_block, outcome_text, report_block
from tournaments.pages.staff_results import staff_result_entry, staff_views
from tournaments.permissions import player_team_id
from tournaments.read_models import winner_first
from tournaments.services.results import match_result_report, match_slip_report
from tournaments.slips import match_for_slip_code, slip_secret


def refusal_text(error: DomainError) -> str:
    """A refused report in the player's words."""
    if error.status_code == 409 and "match" in error.extra:
        return _(
            "The result changed while you were looking (the other team or a judge reported). Check it below."
        )
    return error.message


@login_required
@require_http_methods(["GET", "POST"])
@idempotent
def me_report_view(request, tournament_id: int, match_id: int):
    """A player reports their match or confirms the other team's report (POST), or the block
    asks whether anything changed (GET: 204 while the match is at the version it shows). A report
    a phone queued offline and sends again counts once (its idempotency key)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    team_id = player_team_id(request.user, tournament)
    if team_id is None:
        raise PermissionDenied(_("You are not registered on a team in this event."))
    match = get_object_or_404(
        Match.objects.public().select_related("round__tournament", "team_a", "team_b"),
        pk=match_id,
        round__tournament=tournament,
    )
    if team_id not in (match.team_a_id, match.team_b_id) or match.is_bye:
        raise PermissionDenied(_("This is not your team's match."))
    me_url = reverse("tournament-me", args=[tournament.pk])
    if request.method == "GET":
        if not is_htmx(request):
            return redirect(f"{me_url}#me-report")
        if request.GET.get("v") == str(match.version):
            return HttpResponse(status=204)
        block = me_report_block(tournament, match, team_id)
        return render(request, "tournaments/_me_report.html", {"report": block, "tournament": tournament})
    status, message = 200, ""
    form = PlayerReportForm(request.POST)
    side = TeamSide.A if match.team_a_id == team_id else TeamSide.B
    if not form.is_valid():
        status, message = 400, _("Choose the result: we won, they won or a draw.")
    else:
        try:
            match = match_result_report(
                match=match,
                actor=request.user,
                version=form.cleaned_data["version"],
                **form.games(side, games_to_win(tournament.games_per_match)),
            )
            message = _("Result sent.")
        except DomainError as error:
            status, message = error.status_code, refusal_text(error)
            match.refresh_from_db()
    if is_htmx(request):
        block = me_report_block(tournament, match, team_id, message=message, failed=status >= 400)
        context = {"report": block, "tournament": tournament}
        return render(request, "tournaments/_me_report.html", context, status=status)
    if status >= 400:
        return render_me(request, tournament, team_id, status=status, report_message=message)
    messages.success(request, message)
    return redirect(f"{me_url}#me-report")


def _slip_match(match_id: int, secret: str) -> Match:
    """The slip's match if ``secret`` is its slip secret (404 otherwise: a guessed id opens nothing)."""
    match = get_object_or_404(
        Match.objects.public().select_related("round__tournament", "team_a", "team_b"), pk=match_id
    )
    if match.is_bye or not constant_time_compare(secret, slip_secret(match)):
        raise Http404(_("No result slip has this code."))
    return match


def _slip_side(request, match: Match) -> tuple[TeamSide | None, bool]:
    """The team the slip's holder reports for, and whether it is fixed: a signed-in player of the
    match reports for their team; anyone else says which team on the form (remembered in the
    session once they did)."""
    team_id = player_team_id(request.user, match.round.tournament_id)
    if team_id in (match.team_a_id, match.team_b_id):
        return (TeamSide.A if team_id == match.team_a_id else TeamSide.B), True
    remembered = request.session.get(f"slip-side-{match.pk}")
    return (TeamSide(remembered) if remembered in TeamSide.values else None), False


def _slip_block(request, match: Match, **kwargs) -> dict:
    side, fixed = _slip_side(request, match)
    url = request.path
    return report_block(
        match.round.tournament, match, side, post_url=url, poll_url=url, ask_side=not fixed, **kwargs
    )


@require_http_methods(["GET", "POST"])
def slip_report_view(request, match_id: int, secret: str):
    """The page a result slip's QR code opens: whoever holds the slip reports for their team,
    signed in or not; the other team confirms (on their phone or by scanning the slip too), or
    staff enter the result."""
    match = _slip_match(match_id, secret)
    tournament = match.round.tournament
    if request.method == "GET":
        if is_htmx(request):
            if request.GET.get("v") == str(match.version):
                return HttpResponse(status=204)
            return render(request, "tournaments/_me_report.html", {"report": _slip_block(request, match)})
        return _render_slip(request, match)
    status, message = 200, ""
    form = PlayerReportForm(request.POST)
    side, fixed = _slip_side(request, match)
    if form.is_valid() and not fixed:
        side = TeamSide(form.cleaned_data["side"]) if form.cleaned_data["side"] else None
    if not form.is_valid():
        status, message = 400, _("Choose the result: we won, they won or a draw.")
    elif side is None:
        status, message = 400, _("Choose your team first.")
    else:
        try:
            match = match_slip_report(
                match=match,
                side=side,
                actor=request.user,
                version=form.cleaned_data["version"],
                **form.games(side, games_to_win(tournament.games_per_match)),
            )
            request.session[f"slip-side-{match.pk}"] = str(side)
            message = _("Result sent.")
        except DomainError as error:
            status, message = error.status_code, refusal_text(error)
            match.refresh_from_db()
    if is_htmx(request):
        block = _slip_block(request, match, message=message, failed=status >= 400)
        return render(request, "tournaments/_me_report.html", {"report": block}, status=status)
    if status >= 400:
        return _render_slip(request, match, status=status, message=message)
    messages.success(request, message)
    return redirect(request.path)


def _render_slip(request, match: Match, *, status: int = 200, message: str = ""):
    context = {
        "tournament": match.round.tournament,
        "match": match,
        "report": _slip_block(request, match, message=message, failed=bool(message)),
    }
    return render(request, "tournaments/slip_report.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def slip_entry_view(request, tournament_id: int, match_id: int | None = None):
    """A scorekeeper enters results from paper slips: type or scan the slip's code, see the table,
    one key (or button) per result, and the next slip's code field comes back. Without JS the
    result buttons are a plain form; static/js/slip_entry.js maps 1, 2, d, i to them."""
    tournament = staff_event(request, tournament_id, "can_run_event")
    code = request.GET.get("code", "")
    status, message, match = 200, "", None
    if request.method == "POST":
        match = get_object_or_404(
            Match.objects.public().select_related("round__tournament", "team_a", "team_b", "reported_by"),
            pk=match_id,
            round__tournament=tournament,
            team_b__isnull=False,
        )
        match, status, message = staff_result_entry(
            request,
            tournament,
            match,
            _("Choose the result: 1 left team wins, 2 right team wins, d draw, i intentional draw."),
        )
        if status == 200:
            saved = outcome_text(match, match.team_a_wins, match.team_b_wins, match.draws)
            messages.success(
                request,
                _("Table %(table)s: %(result)s (%(record)s).")
                % {
                    "table": match.table,
                    "result": saved,
                    "record": winner_first(match.team_a_wins, match.team_b_wins, match.draws),
                },
            )
            return redirect(reverse("tournament-slip-entry", args=[tournament.pk]))
    elif code:
        match = match_for_slip_code(tournament, code)
        if match is None:
            status, message = 404, _("No table of this event has the slip code “%(code)s”.") % {"code": code}
    view = staff_views([match])[match.pk] if match is not None else None
    reports = []
    if match is not None and view is not None:
        for team, report in ((match.team_a, view.ours), (match.team_b, view.theirs)):
            if report is not None:
                reports.append((team.name, outcome_text(match, report.a_wins, report.b_wins, report.draws)))
    context = {
        "tournament": tournament,
        "code": code,
        "match": match,
        "playoff": match is not None and match.round.kind == RoundKind.PLAYOFF,
        "reports": reports,
        "status_text": localize(view.status) if view else "",
        "state": view.state.value if view else "",
        "message": message,
    }
    return render(request, "tournaments/slip_entry.html", context, status=status)
