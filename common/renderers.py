"""The API's JSON renderer (``REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"]``)."""

from __future__ import annotations

from rest_framework import renderers


class JSONRenderer(renderers.JSONRenderer):
    """DRF's JSON renderer, escaping lone surrogates instead of failing on them.

    A refusal may quote the input (``"\\ud800" is not a valid choice.``); a lone surrogate is
    valid in a JSON string escape but cannot be encoded as UTF-8, so the UTF-8 rendering crashed
    with a 500. Such a body is rendered with ASCII escapes instead.
    """

    def render(self, data, accepted_media_type=None, renderer_context=None):
        try:
            return super().render(data, accepted_media_type, renderer_context)
        except UnicodeEncodeError:
            self.ensure_ascii = True  # one renderer instance per response
            return super().render(data, accepted_media_type, renderer_context)
