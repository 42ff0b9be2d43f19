"""The Print panel: staff request documents, watch their progress and download them."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from common.errors import DomainError
from documents.api.views import RECENT_JOBS
from documents.enums import DocumentKind, Paper
from documents.models import DocumentJob
from documents.services import document_request, document_retry
from tournaments.enums import Format, RoundKind
from tournaments.models import Round
from tournaments.page_access import staff_event


@login_required
def print_panel(request, tournament_id: int):
    """GET: the panel. POST: queue one document (kind, round, paper) and come back to the panel."""
    tournament = staff_event(request, tournament_id, rule="can_print")
    status = 200
    if request.method == "POST":
        kind = request.POST.get("kind", "")
        round_number = request.POST.get("round") or None
        paper = request.POST.get("paper", Paper.A4)
        if kind not in DocumentKind.values or paper not in Paper.values:
            messages.error(request, _("Unknown document or paper size."))
            status = 400
        else:
            try:
                document_request(
                    tournament=tournament,
                    actor=request.user,
                    kind=kind,
                    round_number=int(round_number) if round_number else None,
                    paper=paper,
                )
            except (DomainError, ValueError) as error:
                messages.error(request, getattr(error, "message", str(error)))
                status = getattr(error, "status_code", 400)
            else:
                messages.success(request, _("%(label)s queued.") % {"label": DocumentKind(kind).label})
                return redirect("documents-print", tournament_id=tournament.id)
    jobs = DocumentJob.objects.filter(tournament=tournament).select_related("round")[:RECENT_JOBS]
    context = {
        "tournament": tournament,
        "kinds": _kinds_offered(tournament),
        "per_round": DocumentKind.per_round(),
        "papers": Paper.choices,
        "rounds": Round.objects.filter(tournament=tournament).order_by("-number"),
        "jobs": jobs,
    }
    return render(request, "documents/print.html", context, status=status)


def _kinds_offered(tournament) -> list[tuple[str, str]]:
    """The documents this event can print now: standings once a Swiss round is finished (before,
    the request is refused), pod seatings only in a Booster Draft event."""
    left_out = set()
    if not Round.objects.finished().filter(tournament=tournament, kind=RoundKind.SWISS).exists():
        left_out.add(DocumentKind.STANDINGS)
    if tournament.format != Format.DRAFT:
        left_out.add(DocumentKind.POD_SEATINGS)
    return [(value, label) for value, label in DocumentKind.choices if value not in left_out]


@login_required
def print_retry(request, tournament_id: int, job_id: int):
    tournament = staff_event(request, tournament_id, rule="can_print")
    job = get_object_or_404(DocumentJob, pk=job_id, tournament=tournament)
    if request.method == "POST":
        try:
            document_retry(job=job, actor=request.user)
        except DomainError as error:
            messages.error(request, error.message)
    return redirect("documents-print", tournament_id=tournament.id)
