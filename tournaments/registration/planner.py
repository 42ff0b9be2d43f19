"""Who a team registration seats now, invites and links, and what it refuses: plain values, no Django."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PlayerEntry:
    name: str
    wizards_id: str
    username: str | None = None
    name_reading: str = ""
