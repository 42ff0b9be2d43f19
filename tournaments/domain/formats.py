"""Which formats a 2HG event may be sanctioned in [MTR 3.2; rules notes §1.9].

MTR 3.2 names the Constructed formats sanctioned for Two-Headed Giant: Standard, Pioneer, Modern,
Vintage and Legacy; Sealed and Booster Draft are the Limited ones. Any other format (Pauper, for
one) may still be played, but only as an unsanctioned event, and the event page says so.
Individual and 3-or-more-headed events are not judged here: their format lists are not 3.2's.
"""

from __future__ import annotations

SANCTIONED_2HG_FORMATS = frozenset({"standard", "pioneer", "modern", "vintage", "legacy", "sealed", "draft"})


def unsanctioned_reason(*, format_id: str, team_size: int, format_label: str = "") -> str | None:
    """Why an event in ``format_id`` cannot be sanctioned, or ``None`` when it can."""
    if team_size != 2 or format_id in SANCTIONED_2HG_FORMATS:
        return None
    label = format_label or format_id.capitalize()
    return (
        f"{label} is not a sanctioned Two-Headed Giant format (MTR 3.2: Standard, Pioneer, Modern, "
        "Vintage, Legacy, Sealed, Booster Draft): this is an unsanctioned event."
    )
