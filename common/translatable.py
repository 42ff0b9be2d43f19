"""Messages the pure cores raise, in English, that the adapters give in the reader's language.

The domain packages may not import Django (tests/test_domain_purity.py), so they cannot call
``gettext``. They write a refusal as ``N_("round %(number)s needs two teams", number=3)``: ``N_``
is the marker ``makemessages`` extracts (``common/management/commands/makemessages.py`` adds
``--keyword=N_``), and the value is the English text, a plain ``str`` everywhere (logs, tests,
``str(exc)``), that remembers its msgid and values. The adapter that shows it (the API's
exception handler, a service turning a domain error into a ``DomainError``, a page) calls
``common.i18n.localize`` in the request's language, which translates the msgid and fills in the
values.
"""

from __future__ import annotations

from typing import Any


class N_(str):
    """English ``msgid % values``, carrying ``msgid`` and ``values`` for a later translation."""

    msgid: str
    values: dict[str, Any]

    def __new__(cls, msgid: str, /, **values: Any) -> N_:
        text = super().__new__(cls, msgid % values if values else msgid)
        text.msgid = msgid
        text.values = values
        return text


def as_data(text: str) -> dict[str, Any] | str:
    """``text`` as JSON data that keeps its msgid and values (nested messages too), for a message
    stored now and translated whenever it is read (``from_data``); plain text stays as it is."""
    if not isinstance(text, N_):
        return text
    return {
        "msgid": text.msgid,
        "values": {
            key: as_data(value) if isinstance(value, N_) else value for key, value in text.values.items()
        },
    }


def from_data(data: dict[str, Any] | str) -> str:
    """The message ``as_data`` stored, again an ``N_`` an adapter can translate."""
    if not isinstance(data, dict):
        return data
    return N_(data["msgid"], **{key: from_data(value) for key, value in data["values"].items()})
