"""OpenAPI naming and the error answers every operation can give.

Each API view declares its own ``InputSerializer``/``OutputSerializer`` (one serializer per
endpoint), so the bare class names collide across apps; ``AccountCreateApi.InputSerializer``
becomes the component ``AccountCreateInput`` instead.

Some 4xx answers come from the framework rather than the view (a bad token, a body that does not
parse or is too large, an unknown id in the path, the login throttle), so a view would have to
repeat them all; the schema adds them where they can happen, in the one error shape, unless the
view documented that status itself.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny

from common.api import ErrorSerializer

_VIEW_SUFFIXES = ("Api", "View", "APIView")
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


class AutoSchema(SpectacularAutoSchema):
    def _framework_errors(self) -> dict[str, str]:
        """Status -> description of the answers the framework gives for this operation."""
        view = self.view
        found: dict[str, str] = {}
        has_body = self.method in _BODY_METHODS and self.get_request_serializer() is not None
        has_query = any(parameter.get("in") == "query" for parameter in self._get_parameters())
        if has_body or has_query:
            found["400"] = "Invalid input; ``errors`` names each field."
        if view.get_authenticators():
            found["401"] = "Missing or invalid token, where one is needed."
        allow_any = all(isinstance(permission, AllowAny) for permission in view.get_permissions())
        csrf_checked = self.method in _BODY_METHODS and any(
            isinstance(authenticator, SessionAuthentication) for authenticator in view.get_authenticators()
        )
        if not allow_any or csrf_checked:
            found["403"] = "Not allowed to do this here."
        if "{" in self.path:
            found["404"] = "No such object (or not visible to this user)."
        if self.method in _BODY_METHODS:
            found["413"] = "Request body over the size limit (named in ``detail``)."
        if has_body:
            found["415"] = "Unsupported Content-Type."
        if view.get_throttles():
            found["429"] = "Too many attempts; wait and retry."
        return found

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        for code, description in self._framework_errors().items():
            if code not in responses:
                responses[code] = self._get_response_for_code(
                    OpenApiResponse(ErrorSerializer, description=description), code, direction=direction
                )
        return responses

    def _get_serializer_name(self, serializer, direction, bypass_extensions=False) -> str:
        name = super()._get_serializer_name(serializer, direction, bypass_extensions)
        cls = serializer if isinstance(serializer, type) else type(serializer)
        outer, _, inner = cls.__qualname__.rpartition(".")
        if not outer or "<locals>" in outer or getattr(getattr(cls, "Meta", None), "ref_name", None):
            return name
        outer = outer.rpartition(".")[2]
        for suffix in _VIEW_SUFFIXES:
            if outer.endswith(suffix) and outer != suffix:
                outer = outer[: -len(suffix)]
                break
        return outer + name if not name.startswith(outer) else name
