"""A result slip's address and short code: made for the printed slip, read back from a scan or a
typed code (the scorekeeper's entry by slip, the slip's QR page).
"""

from __future__ import annotations

import re

from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac

from common.links import public_url
from common.numbers import column_range
from tournaments.models import Match, Round, Tournament


def slip_secret(match: Match) -> str:
    """The per-match secret a result slip's QR code carries: whoever holds the slip may report for
    that table. Derived (HMAC with the site's secret key and the event's seed), so nothing is stored
    and a guessed match id opens nothing."""
    digest = salted_hmac("tournaments.result-slip", f"{match.pk}:{match.round.tournament.seed}").hexdigest()
    return digest[:SLIP_SECRET_LENGTH]


#: 16 hex digits: 64 bits, short enough to keep the QR code small.
SLIP_SECRET_LENGTH = 16


def slip_url(match: Match) -> str:
    """The absolute address of the match's slip page, as its QR code holds it."""
    return public_url(reverse("slip-report", args=[match.pk, slip_secret(match)]))


def slip_code(match: Match) -> str:
    """The slip's short code, printed beside its QR code and typed on the entry-by-slip page:
    round and table (``3-12``)."""
    return f"{match.round.number}-{match.table}"


_SCANNED_SLIP = re.compile(r"/slip/([0-9]+)/([0-9a-f]+)")
_ROUND_TABLE = re.compile(r"^([0-9]+)\s*[-./ ]\s*([0-9]+)$")


def match_for_slip_code(tournament: Tournament, code: str) -> Match | None:
    """The two-team match a typed or scanned slip code names in this event: the QR code's address
    (a USB scanner types it), the printed short code ``round-table``, or a table number alone
    (the latest published round). ``None`` if it names none."""
    code = code.strip()
    matches = Match.objects.public().filter(round__tournament=tournament, team_b__isnull=False)
    matches = matches.select_related("round__tournament", "team_a", "team_b", "reported_by")
    scanned = _SCANNED_SLIP.search(code)
    if scanned:
        match_id = _in_column(scanned.group(1), Match, "id")
        match = matches.filter(pk=match_id).first() if match_id else None
        if match is None or not constant_time_compare(scanned.group(2), slip_secret(match)):
            return None
        return match
    round_table = _ROUND_TABLE.match(code)
    if round_table:
        number, table = (
            _in_column(round_table.group(1), Round, "number"),
            _in_column(round_table.group(2), Match, "table"),
        )
        return matches.filter(round__number=number, table=table).first() if number and table else None
    table = _in_column(code, Match, "table")
    if table:
        latest = Round.objects.public().filter(tournament=tournament).newest()
        return matches.filter(round=latest, table=table).first() if latest else None
    return None


def _in_column(text: str, model, field: str) -> int | None:
    """``text`` as a number ``model.field`` can hold, or ``None`` (other digits than 0-9, or past
    the column): a slip code naming no table."""
    low, high = column_range(model, field)
    if not (text.isascii() and text.isdigit()) or len(text) > 20:
        return None
    value = int(text)
    return value if low <= value <= high else None
