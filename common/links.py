"""Absolute links: one configured public address for every link the app prints or renders.

Slip QR codes are drawn by the worker, which has no request to take a host from; invite links and
the projector's QR code are read on phones, which must reach the address the organizer chose, not
the one a desk browser happened to use (``localhost`` on the laptop itself). So every absolute
link is ``settings.PUBLIC_URL`` + the path.
"""

from __future__ import annotations

from django.conf import settings


def public_url(path: str) -> str:
    """``path`` (from ``reverse``, starting with ``/``) as an absolute address phones reach."""
    return f"{settings.PUBLIC_URL}{path}"
