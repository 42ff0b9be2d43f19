"""The projector's invitation to the hall: the event page's public address and its QR code."""

from __future__ import annotations

from functools import lru_cache

import segno
from django import template
from django.urls import reverse
from django.utils.safestring import mark_safe

from common.links import public_url

register = template.Library()


@lru_cache(maxsize=256)
def _qr_svg(url: str) -> str:
    """The code as inline SVG (no file, no script: the page's CSP stays as it is), black on white
    with the quiet zone the standard asks for, so a phone reads it off a projected screen."""
    return segno.make(url, error="m").svg_inline(scale=4, border=4, dark="#000", light="#fff", omitsize=True)


@register.inclusion_tag("tournaments/_hall_link.html")
def hall_link(tournament) -> dict:
    """What a phone opens to follow the event: ``PUBLIC_URL`` + the event page, the address the
    hall's Wi-Fi reaches (``common.links``), never the projector laptop's own ``localhost``."""
    url = public_url(reverse("tournament-public", args=[tournament.pk]))
    return {"url": url, "qr": mark_safe(_qr_svg(url))}  # noqa: S308 - segno's own SVG, the URL is ours
