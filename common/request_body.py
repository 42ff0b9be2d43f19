"""Request bodies read to their end before the answer goes out (``config/wsgi.py``).

Django answers many requests without reading their body: a 401, a CSRF 403, a 429 from a rate
limit. granian (``common/server.py``) then closes the keep-alive connection without saying so (no
``Connection: close``), and the client's next request on it fails with a reset: measured, 13 of 160
such POSTs on one connection, none once the body is read. A phone retrying a join code, a form
posted again after a refusal, a script checking a limit all met it. The rest of a body is read up
to ``DATA_UPLOAD_MAX_MEMORY_SIZE``; a bigger one is left to the server (closing is right there).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.conf import settings

CHUNK = 65_536


def drained(app: Callable[..., Iterable[bytes]]) -> Callable[..., Iterable[bytes]]:
    """``app`` reading what is left of each request's body after answering it."""

    def application(environ: dict, start_response: Callable) -> Iterable[bytes]:
        stream = environ.get("wsgi.input")
        result = app(environ, start_response)
        left = settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0
        while stream is not None and left > 0:
            chunk = stream.read(min(CHUNK, left))
            if not chunk:
                break
            left -= len(chunk)
        return result

    return application
