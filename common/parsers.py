"""The API's request parser (``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]``)."""

from __future__ import annotations

from rest_framework import exceptions, parsers


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, with a 400 for nesting too deep to decode.

    ``json.loads`` raises ``RecursionError``, not ``ValueError``, past about a thousand nested
    arrays (``[[[[...``, a few kilobytes); DRF catches only the latter, so that body was a 500.
    """

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError("JSON parse error - nested too deeply") from None
