"""OpenAPI naming: nested per-view serializers are named after their view.

Each API view declares its own ``InputSerializer``/``OutputSerializer`` (one serializer per
endpoint), so the bare class names collide across apps; ``AccountCreateApi.InputSerializer``
becomes the component ``AccountCreateInput`` instead.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema

_VIEW_SUFFIXES = ("Api", "View", "APIView")


class AutoSchema(SpectacularAutoSchema):
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
