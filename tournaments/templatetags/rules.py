"""Templates ask the same named rules as the API and the views: ``{% load rules %}`` then
``{% rule "can_overturn_penalty" request.user tournament as may_overturn %}``."""

from __future__ import annotations

from django import template

from tournaments.rules import check

register = template.Library()


@register.simple_tag
def rule(name: str, user, *args) -> bool:
    return check(name, user, *args)
