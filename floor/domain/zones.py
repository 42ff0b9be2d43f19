"""Zones of the hall: ranges of table numbers a group of judges works at the end of a round.

A zone is a closed range (tables 1-40, 41-80); zones of one event never overlap, so a table
belongs to at most one zone. The end-of-round console lists a zone's outstanding tables by
their own end (round end plus the table's extensions), the table that runs out first on top.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from common.translatable import N_


class ZoneError(Exception):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class TableRange:
    name: str
    first_table: int
    last_table: int

    def __contains__(self, table: object) -> bool:
        return isinstance(table, int) and self.first_table <= table <= self.last_table


def check_zone(new: TableRange, existing: Iterable[TableRange]) -> None:
    """Refuse an empty or reversed range, a blank name, and a range overlapping another zone."""
    if not new.name.strip():
        raise ZoneError("name", N_("name the zone (for example 'Front' or 'Tables 1-40')"))
    if new.first_table < 1:
        raise ZoneError("first_table", N_("tables are numbered from 1"))
    if new.last_table < new.first_table:
        raise ZoneError(
            "last_table",
            N_(
                "the last table (%(last)s) is before the first (%(first)s)",
                last=new.last_table,
                first=new.first_table,
            ),
        )
    for other in existing:
        if new.first_table <= other.last_table and other.first_table <= new.last_table:
            raise ZoneError(
                "first_table",
                N_(
                    "tables %(first)s-%(last)s are already in zone '%(zone)s' (%(zone_first)s-%(zone_last)s)",
                    first=max(new.first_table, other.first_table),
                    last=min(new.last_table, other.last_table),
                    zone=other.name,
                    zone_first=other.first_table,
                    zone_last=other.last_table,
                ),
            )


Row = TypeVar("Row")


def order_by_end(rows: Sequence[Row], *, table_of, ends_at_of) -> list[Row]:
    """Tables ending first on top; a table without an end (untimed, or the clock not started) goes
    last; ties by table number, so the order is the same on every phone and on the sheet."""

    def key(row: Row) -> tuple[int, datetime | int, int]:
        ends_at: datetime | None = ends_at_of(row)
        return (0, ends_at, table_of(row)) if ends_at is not None else (1, 0, table_of(row))

    return sorted(rows, key=key)
