"""``{% table_clock %}``: the player's table clock on their own page, counting down in the phone
(``static/js/clock.js``), so it keeps counting through a dropped connection and on a copy the
phone kept (from the end time it last knew)."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils import timezone

from clock.selectors import match_clock_row, round_clock_only

register = template.Library()


@register.inclusion_tag("clock/_table_clock.html")
def table_clock(tournament, match):
    now = timezone.now()
    clock = round_clock_only(match.round)
    return {
        "tournament": tournament,
        "round": match.round,
        "row": match_clock_row(match, now=now),
        "state": str(clock.state(now)),
        "remaining": clock.remaining_seconds(now),
        "now": now,
        # The script appends "<round number>/clock/" (the api-round-clock route).
        "api_base": reverse("api-rounds", args=[tournament.pk]),
    }
