"""A pure core's message (``N_``) is English text that an adapter translates when it shows it."""

from __future__ import annotations

import json

from django.utils import translation

from common.i18n import error_text, localize
from common.translatable import N_, as_data, from_data
from tournaments.domain.errors import PairingError


def test_a_message_is_its_english_text_and_remembers_what_translates_it():
    message = N_("round %(number)s needs at least two active teams, found %(found)s", number=2, found=1)

    assert message == "round 2 needs at least two active teams, found 1"
    assert (message.msgid, message.values) == (
        "round %(number)s needs at least two active teams, found %(found)s",
        {"number": 2, "found": 1},
    )
    with translation.override("es"):
        assert localize(message) == "la ronda 2 necesita al menos dos equipos activos; hay 1"
        assert error_text(PairingError(message)) == "la ronda 2 necesita al menos dos equipos activos; hay 1"
        assert localize("already translated text") == "already translated text"


def test_a_stored_message_with_nested_parts_translates_when_read():
    problem = N_(
        "unknown card %(card)r (did you mean %(suggestions)s?).",
        card="Bolt",
        suggestions=N_("%(first)r or %(second)r", first="Lightning Bolt", second="Lightning Colt"),
    )
    message = N_("Line %(line)s: %(problem)s", line=3, problem=problem)

    stored = json.loads(json.dumps(as_data(message)))

    assert from_data(stored) == message
    with translation.override("pt-br"):
        assert localize(from_data(stored)) == (
            "Linha 3: card desconhecido 'Bolt' (você quis dizer 'Lightning Bolt' ou 'Lightning Colt'?)."
        )
    assert as_data("plain") == "plain" and from_data("plain") == "plain"
