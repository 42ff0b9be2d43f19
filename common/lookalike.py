"""When two names read as the same name: one rule for team names (and anything else a reader
tells apart only by eye).

Two names look alike when, after Unicode NFKC (fullwidth "Ｇｏｂｌｉｎｓ" is "Goblins"), they
share a *spoof key*: the Unicode TR39 confusable skeleton (disarm's ``skeleton_key``, so a
Cyrillic "о" is an "o") of the name as typed or of its case fold. Both, because the skeleton
maps a capital "I" to "l" but leaves "i" alone: "MILL" and "mill" meet only through the case
fold, "paypaI" and "paypal" only through the name as typed. Pure (no Django), so the domain
cores may use it.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from disarm import skeleton_key


@lru_cache(maxsize=16_384)  # an event's team names are compared on every registration (a CSV import: all)
def lookalike_keys(name: str) -> frozenset[str]:
    """The spoof keys of ``name``; two names look alike when their keys meet."""
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    return frozenset({skeleton_key(text), skeleton_key(text.casefold())})


def lookalike_of(name: str, existing: list[str]) -> str | None:
    """The first of ``existing`` that looks like ``name``, or ``None``."""
    keys = lookalike_keys(name)
    return next((other for other in existing if keys & lookalike_keys(other)), None)
