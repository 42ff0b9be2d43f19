"""Banned and restricted lists with their effective dates: a card's legality on a given day.

A card record's ``legalities`` say what a format allows *today*; the history says when each
banned/restricted list entry took effect. A list is checked against the lists in force on the
event's date, so a card banned after the event is legal for it, and a ban announced for a future
date applies from that date on and not before.

The history is also what decides a card that is on a format's list: a card is only ever banned
or restricted in a format whose card pool holds it, so a list entry wins over a "not legal" the
card data may carry (derived legalities can miss a printing, as they did for Narcomoeba and
Price of Progress in Pauper).

Stored shape (the snapshot's ``meta.ban_history``, also ``import_cards``' input):
``{"pauper": [["2026-09-02", {"Narcomoeba": "banned", ...}], ...], ...}``; the dates are ISO
dates, the statuses ``legal`` (taken off the list), ``banned`` or ``restricted``.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from decklists.domain.cards import LEGALITY_BY_VALUE, Card, Legality


class BanListError(ValueError):
    """The ban-list history is malformed; the message names the format, entry and field."""


@dataclass(frozen=True, slots=True)
class BanListChange:
    """One card put on, moved on, or taken off a format's list, from ``effective`` on."""

    format_id: str
    card_name: str
    legality: Legality
    effective: datetime.date


class BanListHistory:
    """Every known list change, looked up by format and card name (full name or front face)."""

    def __init__(self, changes: Iterable[BanListChange] = ()) -> None:
        timeline: dict[tuple[str, str], list[tuple[datetime.date, Legality]]] = {}
        for change in changes:
            timeline.setdefault((change.format_id, change.card_name), []).append(
                (change.effective, change.legality)
            )
        self._timeline = {key: tuple(sorted(entries)) for key, entries in timeline.items()}

    def __len__(self) -> int:
        return sum(len(entries) for entries in self._timeline.values())

    def __bool__(self) -> bool:
        return bool(self._timeline)

    @classmethod
    def from_json(cls, raw: Any) -> BanListHistory:
        """Read the stored shape (see the module docstring); raises :class:`BanListError`."""
        if raw is None:
            return cls()
        if not isinstance(raw, Mapping):
            raise BanListError("ban-list history: expected an object of formats")
        changes: list[BanListChange] = []
        for format_id, entries in raw.items():
            if not isinstance(entries, list):
                raise BanListError(f"ban-list history: {format_id}: expected a list of [date, changes]")
            for i, entry in enumerate(entries):
                where = f"ban-list history: {format_id} entry {i}"
                if not (
                    isinstance(entry, list | tuple) and len(entry) == 2 and isinstance(entry[1], Mapping)
                ):
                    raise BanListError(f"{where}: expected [date, {{card: status}}]")
                try:
                    effective = datetime.date.fromisoformat(str(entry[0]))
                except ValueError as exc:
                    raise BanListError(f"{where}: bad date {entry[0]!r}") from exc
                for name, status in entry[1].items():
                    legality = LEGALITY_BY_VALUE.get(str(status).strip().lower())
                    if legality is None or legality is Legality.NOT_LEGAL:
                        raise BanListError(f"{where}: {name!r} has unknown status {status!r}")
                    changes.append(BanListChange(str(format_id).lower(), str(name), legality, effective))
        return cls(changes)

    def to_json(self) -> dict[str, list[list[Any]]]:
        """The stored shape, formats and dates in order (so equal histories compare equal)."""
        by_format: dict[str, dict[datetime.date, dict[str, str]]] = {}
        for (format_id, name), entries in self._timeline.items():
            for effective, legality in entries:
                by_format.setdefault(format_id, {}).setdefault(effective, {})[name] = legality.value
        return {
            format_id: [[day.isoformat(), dict(sorted(cards.items()))] for day, cards in sorted(days.items())]
            for format_id, days in sorted(by_format.items())
        }

    def legality_on(self, card: Card, format_id: str, on: datetime.date | None) -> Legality:
        """``card``'s legality in ``format_id`` under the lists in force on ``on``.

        No list entry for the card: its card data. Otherwise the latest entry in force on
        ``on`` (``None``: the latest entry of all) decides; before the first entry, the card
        had the status that entry changed: legal before a ban or a restriction, banned (in
        Vintage: restricted) before it came off the list.
        """
        entries = self._timeline.get((format_id, card.name)) or self._timeline.get(
            (format_id, card.face_names[0])
        )
        if not entries:
            return card.legality(format_id)
        in_force = [legality for effective, legality in entries if on is None or effective <= on]
        if in_force:
            return in_force[-1]
        first = entries[0][1]
        if first is Legality.LEGAL:
            return Legality.RESTRICTED if format_id == "vintage" else Legality.BANNED
        return Legality.LEGAL
