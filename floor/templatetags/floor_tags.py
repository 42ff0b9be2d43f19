"""``{% judge_call_panel %}``: the player's "Call a judge" button and its status, on their own page."""

from __future__ import annotations

from django import template

from floor import selectors

register = template.Library()


@register.inclusion_tag("floor/_player_call.html", takes_context=True)
def judge_call_panel(context, tournament, match):
    request = context["request"]
    call = selectors.player_live_call(tournament, user=request.user, match=match)
    return {
        "tournament": tournament,
        "match": match,
        "call": call,
        "request": request,
        "csrf_token": context.get("csrf_token"),
    }
