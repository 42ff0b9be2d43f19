"""Log filters (``LOGGING`` in ``config/settings.py``).

Django logs every 4xx answer on ``django.request`` ("Forbidden (Permission denied): /events/3/manage/"),
and for a refusal raised as an exception (``PermissionDenied``, ``Http404``) it attaches the
exception, so a routine 403 or 404 wrote a full traceback to the server log and buried the real
errors. A refusal is the app working: one line says what and where; a 5xx keeps its traceback.
"""

from __future__ import annotations

import logging


class RefusalsOnOneLine(logging.Filter):
    """Drop the traceback of a record about an answer below 500 (403, 404, 409, ...)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", 500) < 500:
            record.exc_info = None
            record.exc_text = None
        return True
