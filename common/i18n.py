"""Translating, in the active language, the messages the pure cores wrote (``common.translatable``)."""

from __future__ import annotations

from django.utils.translation import gettext

from common.translatable import N_


def localize(text: str) -> str:
    """``text`` in the active language if a core marked it with ``N_`` (its values too), else as is."""
    if not isinstance(text, N_):
        return text
    if not text.values:
        return gettext(text.msgid)
    return gettext(text.msgid) % {
        key: localize(value) if isinstance(value, N_) else value for key, value in text.values.items()
    }


def error_text(exc: Exception) -> str:
    """A pure core's exception as the reader should see it: its ``N_`` message translated."""
    message = exc.args[0] if exc.args else ""
    return localize(message) if isinstance(message, str) else str(exc)
