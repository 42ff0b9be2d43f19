"""The DQ report: filled from the penalty and the statements, rendered to PDF, kept with the penalty."""

from __future__ import annotations

from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import DomainError
from common.pdf import render_pdf
from floor import documents
from floor.models import DisqualificationReport
from penalties.models import Penalty
from tournaments.localization import event_locale
from tournaments.services.audit import audit_log


@transaction.atomic
def dq_report_file(
    *, penalty: Penalty, actor, player_statement: str = "", head_judge_statement: str = ""
) -> DisqualificationReport:
    """File (or re-file, overwriting) the report for a Disqualification; callers check the head judge.

    The PDF is rendered now from the stored facts and kept in the report's file, so what was sent
    to Wizards stays as it was even if notes are added later; filing again replaces it (audited).
    """
    penalty = Penalty.objects.select_related("tournament", "player", "team", "judge", "round", "match").get(
        pk=penalty.pk
    )
    if penalty.penalty != "disqualification" or penalty.overturned:
        raise DomainError(
            _("only a Disqualification that stands has a DQ report"),
            errors=[{"field": "penalty", "message": _("not a standing Disqualification")}],
        )
    now = timezone.now()
    # In the event's language and time zone, like every printed document of the event.
    with event_locale(penalty.tournament):
        context = documents.dq_report(
            penalty,
            player_statement=player_statement.strip(),
            head_judge_statement=head_judge_statement.strip(),
            head_judge=actor,
            now=now,
        )
        pdf = render_pdf("pdf/dq_report.html", context)
    report = DisqualificationReport.objects.select_for_update().filter(penalty=penalty).first()
    created = report is None
    if created:
        report = DisqualificationReport(penalty=penalty)
    report.player_statement = player_statement.strip()
    report.head_judge_statement = head_judge_statement.strip()
    report.filed_by = actor
    report.filed_at = now
    if report.file:
        report.file.delete(save=False)
    report.file.save(f"dq-report-{penalty.pk}.pdf", ContentFile(pdf), save=False)
    report.save()
    audit_log(
        tournament=penalty.tournament,
        actor=actor,
        action="dq_report.file" if created else "dq_report.refile",
        obj=report,
        after={"penalty": penalty.pk, "bytes": len(pdf)},
    )
    return report
