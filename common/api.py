"""One error shape for the whole API: ``{"detail": ..., "errors": [{"field"|"line": ..., "message": ...}]}``."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.utils.translation import gettext as _
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from common.errors import DomainError
from common.i18n import localize
from common.numbers import BadParameter


class ErrorItemSerializer(serializers.Serializer):
    field = serializers.CharField(required=False)
    line = serializers.IntegerField(required=False, allow_null=True)
    message = serializers.CharField()


class ErrorSerializer(serializers.Serializer):
    """The body of every 4xx answer of the API."""

    detail = serializers.CharField()
    errors = ErrorItemSerializer(many=True)


def body_too_big_message(limit_setting: str = "DATA_UPLOAD_MAX_MEMORY_SIZE") -> str:
    """Names the limit, so a client knows how much to cut (``DATA_UPLOAD_MAX_MEMORY_SIZE``, or the
    setting an endpoint with its own bound names)."""
    return _("request body too large; the limit is %(limit)s bytes") % {
        "limit": getattr(settings, limit_setting)
    }


def error_body(message: str, *, field: str = "body") -> dict:
    return {"detail": message, "errors": [{"field": field, "message": message}]}


def _flatten(detail, prefix: str = "") -> list[dict]:
    """DRF's nested validation errors as a flat list of {field, message}."""
    errors: list[dict] = []
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = f"{prefix}.{key}" if prefix else str(key)
            if key == "non_field_errors":
                name = prefix or "non_field_errors"
            errors.extend(_flatten(value, name))
    elif isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            errors.extend({"field": prefix or "body", "message": str(item)} for item in detail)
        else:
            for index, item in enumerate(detail):
                errors.extend(_flatten(item, f"{prefix}[{index}]" if prefix else f"[{index}]"))
    else:
        errors.append({"field": prefix or "body", "message": str(detail)})
    return errors


def exception_handler(exc, context):
    if isinstance(exc, RequestDataTooBig):
        return Response(error_body(body_too_big_message()), status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        return Response(
            error_body(_("too many fields in the request: %(error)s") % {"error": exc}),
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, BadParameter):
        return Response(error_body(str(exc), field=exc.field), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, DomainError):
        # A refusal a pure core wrote (``N_``) is translated here, in the request's language.
        detail = localize(exc.message)
        errors = [
            {**item, "message": localize(item["message"])} if "message" in item else item
            for item in exc.errors
        ]
        body = {"detail": detail, "errors": errors or [{"message": detail}]}
        body.update(exc.extra)
        return Response(body, status=exc.status_code)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        errors = _flatten(exc.detail)
        summary = "; ".join(f"{e['field']}: {e['message']}" for e in errors[:5])
        response.data = {"detail": _("Invalid request: %(summary)s") % {"summary": summary}, "errors": errors}
    elif isinstance(response.data, dict) and "detail" in response.data:
        response.data = {
            "detail": str(response.data["detail"]),
            "errors": [{"message": str(response.data["detail"])}],
        }
    if response.status_code == status.HTTP_429_TOO_MANY_REQUESTS:
        response.data["errors"] = [{"message": _("too many requests; wait and retry")}]
    return response
