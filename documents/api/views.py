"""Documents API v1: request a printed document, follow its job, download the PDF.

Staff of the event request documents and see every job; anyone may download pairings and
standings of a published round. Refusals: 401 not logged in, 403 wrong role, 404 unknown,
400 invalid body naming the field, 409 a state conflict (no round yet, retrying a job that
has neither failed nor got stuck).
"""

from __future__ import annotations

from django.http import FileResponse
from django.shortcuts import get_object_or_404
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from documents.api import serializers as s
from documents.enums import JobStatus
from documents.models import ORPHANED_AFTER, DocumentJob
from documents.services import document_request, document_retry
from tournaments.api.permissions import RulePermission
from tournaments.api.serializers import ErrorSerializer
from tournaments.models import Tournament

#: The print panel lists this many recent jobs.
RECENT_JOBS = 50


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: OpenApiResponse(ErrorSerializer) for code in codes}


class DocumentsApi(APIView):
    """Each view names the rule (``tournaments.rules``) that decides each method: ``can_print``
    about the event, ``can_read_document`` about a job (a public kind of a public round is
    anyone's to read)."""

    permission_classes = [RulePermission]
    rules: dict[str, str] = {}
    refusal_message = gettext_lazy("Only the event's staff may print documents.")

    def get_job(self) -> DocumentJob:
        if not hasattr(self, "_job"):
            self._job = get_object_or_404(
                DocumentJob.objects.select_related("round"), pk=self.kwargs["job_id"]
            )
        return self._job


class TournamentDocumentsApi(DocumentsApi):
    rules = {"GET": "can_print", "POST": "can_print"}

    def get_tournament(self) -> Tournament:
        if not hasattr(self, "_tournament"):
            self._tournament = get_object_or_404(Tournament, pk=self.kwargs["tournament_id"])
        return self._tournament

    def rule_args(self, request: Request) -> tuple:
        return (self.get_tournament(),)

    @extend_schema(
        operation_id="documents_request",
        request=s.DocumentRequestInput,
        responses={202: s.DocumentAcceptedOutput, **_errors(400, 401, 403, 404, 409)},
        description="Queue a printed document; the PDF is rendered in the background.",
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.get_tournament()
        data = s.DocumentRequestInput(data=request.data)
        data.is_valid(raise_exception=True)
        job = document_request(tournament=tournament, actor=request.user, **data.validated_data)
        return Response({"id": job.id, "status": job.status}, status=status.HTTP_202_ACCEPTED)

    @extend_schema(
        operation_id="documents_list",
        responses={200: s.DocumentJobOutput(many=True), **_errors(401, 403, 404)},
        description=f"The event's {RECENT_JOBS} most recent document jobs (staff).",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.get_tournament()
        jobs = DocumentJob.objects.filter(tournament=tournament).select_related("round")[:RECENT_JOBS]
        return Response(s.DocumentJobOutput(jobs, many=True, context={"request": request}).data)


class ReadableJobApi(DocumentsApi):
    """A job's status or file: ``can_read_document``, asked about the job."""

    rules = {"GET": "can_read_document"}
    refusal_message = gettext_lazy("This document is for the event's staff only.")

    def rule_args(self, request: Request) -> tuple:
        return (self.get_job(),)


class DocumentJobApi(ReadableJobApi):
    @extend_schema(
        operation_id="documents_job",
        responses={200: s.DocumentJobOutput, **_errors(401, 403, 404)},
        description="A job's status and progress; ``url`` is set once the PDF is ready.",
    )
    def get(self, request: Request, job_id: int) -> Response:
        job = self.get_job()
        return Response(s.DocumentJobOutput(job, context={"request": request}).data)


class DocumentRetryApi(DocumentsApi):
    rules = {"POST": "can_print"}

    def rule_args(self, request: Request) -> tuple:
        return (self.get_job().tournament_id,)

    @extend_schema(
        operation_id="documents_retry",
        request=None,
        responses={202: s.DocumentAcceptedOutput, **_errors(401, 403, 404, 409)},
        description="Queue a failed job again, or a running one whose worker stopped beating "
        f"({ORPHANED_AFTER.seconds} s).",
    )
    def post(self, request: Request, job_id: int) -> Response:
        job = document_retry(job=self.get_job(), actor=request.user)
        return Response({"id": job.id, "status": job.status}, status=status.HTTP_202_ACCEPTED)


class DocumentFileApi(ReadableJobApi):
    @extend_schema(
        operation_id="documents_file",
        responses={(200, "application/pdf"): OpenApiTypes.BINARY, **_errors(401, 403, 404)},
        description="The PDF, inline. 404 while the job is not done.",
    )
    def get(self, request: Request, job_id: int):
        job = self.get_job()
        if job.status != JobStatus.DONE:
            return Response(
                {
                    "detail": _("the document is %(status)s") % {"status": job.get_status_display()},
                    "errors": [{"message": _("job is %(status)s") % {"status": job.get_status_display()}}],
                },
                status=status.HTTP_404_NOT_FOUND,
            )
        round_part = f"-round-{job.round.number}" if job.round else ""
        filename = f"{slugify(job.tournament.name) or 'event'}-{job.kind.replace('_', '-')}{round_part}.pdf"
        return FileResponse(
            job.file.open("rb"), content_type="application/pdf", as_attachment=False, filename=filename
        )
