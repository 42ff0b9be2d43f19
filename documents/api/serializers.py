"""Input and output shapes of the documents API."""

from __future__ import annotations

from rest_framework import serializers

from documents.enums import DocumentKind, JobStatus, Paper
from documents.models import ORPHANED_AFTER


class DocumentRequestInput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=DocumentKind.choices)
    round = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        source="round_number",
        help_text="Round number; default the latest round.",
    )
    paper = serializers.ChoiceField(choices=Paper.choices, default=Paper.A4)


class DocumentJobOutput(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=DocumentKind.choices)
    round = serializers.IntegerField(allow_null=True, source="round.number", default=None)
    paper = serializers.ChoiceField(choices=Paper.choices)
    status = serializers.ChoiceField(choices=JobStatus.choices)
    progress = serializers.IntegerField(min_value=0, max_value=100)
    error = serializers.CharField()
    url = serializers.SerializerMethodField()
    retryable = serializers.BooleanField(
        help_text=f"Failed, or running with no heartbeat from its worker for {ORPHANED_AFTER.seconds} s (the "
        "worker is gone; the periodic sweep requeues it by itself too): POST retry/."
    )
    page_count = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)

    def get_url(self, job) -> str | None:
        """Where the PDF is served (permission-checked), once the job is done."""
        if job.status != JobStatus.DONE:
            return None
        request = self.context.get("request")
        path = f"/api/v1/documents/{job.id}/file/"
        return request.build_absolute_uri(path) if request else path


class DocumentAcceptedOutput(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=JobStatus.choices)
