"""Banned and restricted lists with their effective dates: a card's legality on a given day.

A card record's ``legalities`` say what a format allows at the card data's date; the history
says when each banned/restricted list entry took effect. A list is checked against the lists in
force on the event's date, so a card banned after the event is legal for it, and a ban announced
for a future date applies from that date on and not before.

A card's status in a format on a date (``decklists/data/README.md``): its last change for that
format dated on or before the date; if it has changes but none that early, the status its first
change replaced (legal before a ban or a restriction; before an unban banned, or restricted in
Vintage); with no change at all, its card data. A list entry wins over a "not legal" the card
data may carry (derived legalities can miss a printing, as they did for Narcomoeba and Price of
Progress in Pauper), but an unban never brings a card the card data leaves out of the format's
pool into it.

Shape (``decklists/data/banlist-history.json``, ``import_cards --ban-history``, a snapshot's
``meta.ban_history`` and the stored copy): ``{"changes": [{"format": "modern", "date":
"2026-05-18", "card": "Phlage, Titan of Fire's Fury", "status": "banned"}, ...]}``; ``date`` is
an ISO date, or ``null`` for a card on the list since the format began (Pauper's first list);
``status`` is ``banned``, ``restricted`` or ``legal`` (taken off the list).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from decklists.domain.cards import LEGALITY_BY_VALUE, Card, Legality

SINCE_THE_START = datetime.date.min
"""The effective date of a list entry dated ``null``: on the list since the format began."""


class BanListError(ValueError):
    """The ban-list history is malformed; the message names the change and field."""


@dataclass(frozen=True, slots=True)
class BanListChange:
    """One card put on, moved on, or taken off a format's list, from ``effective`` on."""

    format_id: str
    card_name: str
    legality: Legality
    effective: datetime.date

    @property
    def dated(self) -> bool:
        """False for an entry on the list since the format began (no date to name)."""
        return self.effective != SINCE_THE_START


class BanListHistory:
    """Every known list change, looked up by format and card name (full name or front face)."""

    def __init__(self, changes: Iterable[BanListChange] = ()) -> None:
        timeline: dict[tuple[str, str], list[BanListChange]] = {}
        for change in changes:
            timeline.setdefault((change.format_id, change.card_name), []).append(change)
        self._timeline = {
            key: tuple(sorted(entries, key=lambda c: c.effective)) for key, entries in timeline.items()
        }

    def __len__(self) -> int:
        return sum(len(entries) for entries in self._timeline.values())

    def __bool__(self) -> bool:
        return bool(self._timeline)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BanListHistory) and self._timeline == other._timeline

    __hash__ = None  # type: ignore[assignment]

    @classmethod
    def from_json(cls, raw: Any) -> BanListHistory:
        """Read the shape in the module docstring; raises :class:`BanListError`."""
        if raw is None or raw == {}:
            return cls()
        if not isinstance(raw, Mapping) or not isinstance(raw.get("changes"), list):
            raise BanListError("ban-list history: expected an object with a 'changes' list")
        return cls(_change(entry, i) for i, entry in enumerate(raw["changes"]))

    def to_json(self) -> dict[str, list[dict[str, Any]]]:
        """The shape read by :meth:`from_json`, in format, date and card order (so equal
        histories store equal)."""
        changes = sorted(
            (c for entries in self._timeline.values() for c in entries),
            key=lambda c: (c.format_id, c.effective, c.card_name),
        )
        return {
            "changes": [
                {
                    "format": c.format_id,
                    "date": c.effective.isoformat() if c.dated else None,
                    "card": c.card_name,
                    "status": c.legality.value,
                }
                for c in changes
            ]
        }

    def legality_on(self, card: Card, format_id: str, on: datetime.date | None) -> Legality:
        """``card``'s legality in ``format_id`` under the lists in force on ``on`` (``None``:
        the latest lists known), by the rule in the module docstring."""
        return self.status_on(card, format_id, on)[0]

    def status_on(
        self, card: Card, format_id: str, on: datetime.date | None
    ) -> tuple[Legality, BanListChange | None]:
        """The legality and the list change that decided it (``None`` when the card data
        decided, or when the card's first change lies after ``on``)."""
        entries = self._timeline.get((format_id, card.name)) or self._timeline.get(
            (format_id, card.face_names[0])
        )
        if not entries:
            return card.legality(format_id), None
        in_force = [c for c in entries if on is None or c.effective <= on]
        if not in_force:
            if entries[0].legality is not Legality.LEGAL:
                return Legality.LEGAL, None
            return (Legality.RESTRICTED if format_id == "vintage" else Legality.BANNED), None
        change = in_force[-1]
        if change.legality is Legality.LEGAL and card.legality(format_id) is Legality.NOT_LEGAL:
            return Legality.NOT_LEGAL, None
        return change.legality, change


def _change(entry: Any, i: int) -> BanListChange:
    where = f"ban-list history: change {i}"
    if not isinstance(entry, Mapping):
        raise BanListError(f"{where}: expected an object with format, date, card and status")
    for field in ("format", "card", "status"):
        if not isinstance(entry.get(field), str) or not entry[field].strip():
            raise BanListError(f"{where}: '{field}' is missing or empty")
    raw_date = entry.get("date")
    try:
        effective = SINCE_THE_START if raw_date is None else datetime.date.fromisoformat(str(raw_date))
    except ValueError as exc:
        raise BanListError(f"{where} ({entry['card']}): bad date {raw_date!r}") from exc
    legality = LEGALITY_BY_VALUE.get(entry["status"].strip().lower())
    if legality is None or legality is Legality.NOT_LEGAL:
        raise BanListError(f"{where} ({entry['card']}): unknown status {entry['status']!r}")
    return BanListChange(entry["format"].strip().lower(), entry["card"].strip(), legality, effective)
