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
