"""``{% table_clock %}``: the player's table clock on their own page, counting down in the phone
(``static/js/clock.js``), so it keeps counting through a dropped connection and on a copy the
phone kept (from the end time it last knew)."""

from __future__ import annotations

import math

from django import template
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from clock.selectors import match_clock_row, round_clock_only
from clock.views import STATE_LABELS, format_seconds

register = template.Library()


@register.inclusion_tag("clock/_table_clock.html")
def table_clock(tournament, match):
    now = timezone.now()
    clock = round_clock_only(match.round)
    row = match_clock_row(match, now=now)
    state, remaining = str(clock.state(now)), clock.remaining_seconds(now)
    return {
        "tournament": tournament,
        "round": match.round,
        "row": row,
        "state": state,
        "remaining": remaining,
        "now": now,
        # What the script shows, for a phone with JavaScript off.
        "round_text": "" if state == "not_started" else format_seconds(remaining),
        "state_label": STATE_LABELS[state],
        "table_text": _table_text(row.ends_at, now) if state in ("running", "time_up") else "",
        # The script appends "<round number>/clock/" (the api-round-clock route).
        "api_base": reverse("api-rounds", args=[tournament.pk]),
    }


def _table_text(ends_at, now) -> str:
    if ends_at is None:
        return ""
    left = math.ceil((ends_at - now).total_seconds())
    return _("%(time)s left") % {"time": format_seconds(left)} if left > 0 else _("time up")
