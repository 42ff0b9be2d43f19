"""The mirror's API: on the laptop, start, read and stop mirroring an event; on the server, the
endpoint the laptop's pushes arrive at (``event_io.mirror_push`` and ``event_io.mirror_copy``)."""

from __future__ import annotations

import json
import zlib

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api import ErrorSerializer
from common.errors import DomainError
from event_io.mirror_copy import mirror_receive
from event_io.mirror_push import active_target, mirror_start, mirror_stop, refused
from event_io.models import MirrorTarget
from event_io.reading import EventFileError
from tournaments.api.permissions import RulePermission
from tournaments.api.views import EventApi, errors
from tournaments.live import generation


class MirrorInputSerializer(serializers.Serializer):
    url = serializers.CharField(
        max_length=300, help_text="The server's base URL, e.g. https://events.example.org"
    )
    token = serializers.CharField(max_length=200, help_text="An API token of an account on the server.")


class MirrorOutputSerializer(serializers.Serializer):
    url = serializers.CharField()
    remote_id = serializers.IntegerField(allow_null=True, help_text="The copy's event id on the server.")
    last_pushed_at = serializers.DateTimeField(allow_null=True)
    last_error = serializers.CharField(
        allow_null=True, help_text="Why the last push failed; null after a success."
    )
    up_to_date = serializers.BooleanField(help_text="The last push carried the event as it is now.")


def mirror_state(target: MirrorTarget) -> dict:
    return {
        "url": target.url,
        "remote_id": target.remote_id,
        "last_pushed_at": target.last_pushed_at,
        "last_error": target.error_text(),
        "up_to_date": target.last_error is None
        and target.pushed_generation is not None
        and target.pushed_generation == generation(target.tournament_id),
    }


class MirrorApi(EventApi):
    """The event's read-only mirror on a public server (the laptop's side): the organizer starts
    it (POST), reads how the pushes go (GET) and stops it (DELETE)."""

    rules = {"GET": "can_manage_event", "POST": "can_manage_event", "DELETE": "can_manage_event"}

    @extend_schema(responses={200: MirrorOutputSerializer, **errors(401, 403, 404)})
    def get(self, request: Request, tournament_id: int) -> Response:
        target = active_target(self.get_tournament().pk)
        if target is None:
            raise DomainError(_("this event is not mirrored"), status_code=404)
        return Response(MirrorOutputSerializer(mirror_state(target)).data)

    @extend_schema(
        request=MirrorInputSerializer,
        responses={200: MirrorOutputSerializer, **errors(400, 401, 403, 404, 409)},
        description="Push the event to the server at `url` (its API token in `token`) within seconds of "
        "each change and at least every minute, from the background worker. Restarting towards the "
        "same server keeps the copy there. 409 if this event is itself a mirror.",
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = MirrorInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        target = mirror_start(tournament=self.get_tournament(), **data.validated_data)
        return Response(MirrorOutputSerializer(mirror_state(target)).data)

    @extend_schema(responses={204: None, **errors(401, 403, 404)})
    def delete(self, request: Request, tournament_id: int) -> Response:
        mirror_stop(tournament=self.get_tournament())
        return Response(status=status.HTTP_204_NO_CONTENT)


class MirrorPushInputSerializer(serializers.Serializer):
    sequence = serializers.IntegerField(min_value=1, max_value=2**62, help_text="The push's number.")
    event = serializers.DictField(help_text="The event file, as export_event writes it.")


class MirrorPushOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The mirrored event's id on this server.")
    sequence = serializers.IntegerField()
    updated_at = serializers.DateTimeField()


class MirrorPushApi(APIView):
    """The server's side: a laptop pushes its event here (``PUT``, JSON, gzip allowed), creating or
    replacing the read-only copy named ``key``, owned by the token's account."""

    permission_classes = [RulePermission]
    rules = {"PUT": "can_create_events"}
    #: The setting that bounds this endpoint's body instead of DATA_UPLOAD_MAX_MEMORY_SIZE (common.middleware).
    body_limit_setting = "MIRROR_MAX_BYTES"
    refusal_message = gettext_lazy(
        "Mirroring creates an event on this server: the account needs the right to create events "
        "(EVENT_CREATORS). Ask the site's administrator."
    )

    def rule_args(self, request: Request) -> tuple:
        return ()

    @extend_schema(
        request=MirrorPushInputSerializer,
        responses={
            200: MirrorPushOutputSerializer,
            201: MirrorPushOutputSerializer,
            **errors(400, 401, 403, 409),
            413: OpenApiResponse(ErrorSerializer, description="Over MIRROR_MAX_BYTES, gzipped or unpacked."),
        },
        parameters=[OpenApiParameter("key", str, OpenApiParameter.PATH, description="32 hexadecimal digits")],
        description="Create (201) or replace (200) the mirror `key` with the pushed event file. Refused: a "
        "`sequence` not above the copy's (409, with the copy's `sequence`), another account's mirror "
        "(403), a body over MIRROR_MAX_BYTES (413), a file an import refuses (400 naming where).",
    )
    def put(self, request: Request, key: str) -> Response:
        body = _read_body(request)
        data = MirrorPushInputSerializer(data=body)
        data.is_valid(raise_exception=True)
        try:
            outcome = mirror_receive(
                owner=request.user,
                key=key,
                sequence=data.validated_data["sequence"],
                document=data.validated_data["event"],
            )
        except EventFileError as error:
            field = f"event.{error.path}" if error.path else "event"
            message = _("the event file was not imported, nothing changed: %(error)s") % {"error": error}
            raise DomainError(message, errors=[{"field": field, "message": error.message}]) from None
        mirror = outcome.mirror
        answer = {"id": mirror.tournament_id, "sequence": mirror.sequence, "updated_at": mirror.updated_at}
        code = status.HTTP_201_CREATED if outcome.created else status.HTTP_200_OK
        return Response(MirrorPushOutputSerializer(answer).data, status=code)


def _read_body(request: Request) -> dict:
    """The JSON body, gunzipped when sent so, never more than ``MIRROR_MAX_BYTES`` read or unpacked."""
    limit = settings.MIRROR_MAX_BYTES
    stream = request.stream
    raw = stream.read(limit + 1) if stream is not None else b""
    too_big = DomainError(
        _("the event file is over this server's limit of %(limit)s bytes (MIRROR_MAX_BYTES)")
        % {"limit": limit},
        status_code=413,
    )
    if len(raw) > limit:
        raise too_big
    if request.META.get("HTTP_CONTENT_ENCODING", "").strip().lower() == "gzip":
        unpacker = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
        try:
            raw = unpacker.decompress(raw, limit + 1)
        except zlib.error:
            raise refused("body", _("the body is not valid gzip")) from None
        if len(raw) > limit or unpacker.unconsumed_tail:
            raise too_big
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise refused("body", _("the body is not JSON")) from None
    if not isinstance(data, dict):
        raise refused("body", _("the body must be a JSON object"))
    return data
