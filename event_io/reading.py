"""What export and import share: the format's name and version, timestamps, and a reader that
says where in the file something is wrong.

Every error names a JSON path (``teams[3].players[1].wizards_id: missing``) so whoever edits or
repairs a file by hand can find the line; one error stops the import, and the transaction around
it leaves the database as it was.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.db import models

from common.numbers import INTEGER_RANGES, column_range

FORMAT = "twohg-event"
VERSION = 1

TEAM_IN_LINE = re.compile(r"\b([Tt]eam) (\d+)\b")
"""How the Swiss engine names a team in its explanation lines ("Team 12 (3 points) paired down to
team 7"): by database id. The same pattern the organizer page uses to show names instead."""

TEAM_REF_IN_LINE = re.compile(r"\b([Tt]eam) #(\d+)\b")
"""The file's form of the same words: ``team #3`` is the third team of the file's ``teams`` list."""

RAW_OBJECT_ID_ACTIONS = frozenset({"round_delete"})
"""Audit actions whose ``object_id`` is not a row's key (``round_delete`` stores the deleted
round's number, its row being gone); they are carried as written."""


KEYED_TYPES = (
    "tournament",
    "staff",
    "team",
    "player",
    "decklist",
    "teampool",
    "round",
    "match",
    "timeextension",
    "penalty",
    "deckcheck",
    "deckcheckfinding",
)
"""Kinds of rows the file gives keys to, named as audit entries name them (``object_type``)."""


class EventFileError(Exception):
    """The file cannot be imported; ``path`` says where (``teams[3].name``), ``message`` why."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message


def player_key(wizards_id: str, username: str | None) -> str:
    """How the document names a player: their Wizards Account, or for a player who joined by
    invitation without one yet, their account ("@login")."""
    return wizards_id or (f"@{username}" if username else "")


def timestamp(value: dt.datetime | None) -> str | None:
    """ISO 8601 in UTC with microseconds as stored, so a re-export writes the same characters."""
    return None if value is None else value.astimezone(dt.UTC).isoformat()


def day(value: dt.date | None) -> str | None:
    return None if value is None else value.isoformat()


_TYPE_NAMES = {str: "a string", int: "an integer", bool: "true or false", list: "a list", dict: "an object"}


class Node:
    """A JSON object read at ``path``: typed getters that raise :class:`EventFileError` there."""

    def __init__(self, value: Any, path: str):
        if not isinstance(value, dict):
            raise EventFileError(path, f"expected an object, got {_describe(value)}")
        self.value = value
        self.path = path

    def at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def raw(self, key: str) -> Any:
        if key not in self.value:
            raise EventFileError(self.at(key), "missing")
        return self.value[key]

    def get(self, key: str, kind: type, *, null: bool = False) -> Any:
        """The value at ``key``, which must be of ``kind`` (or ``None`` if ``null``)."""
        value = self.raw(key)
        if value is None and null:
            return None
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            expected = _TYPE_NAMES[kind] + (" or null" if null else "")
            raise EventFileError(self.at(key), f"expected {expected}, got {_describe(value)}")
        return value

    def natural(self, key: str, *, null: bool = False) -> int | None:
        """A non-negative integer, as the positive-integer columns require."""
        value = self.get(key, int, null=null)
        if value is not None and value < 0:
            raise EventFileError(self.at(key), f"must not be negative, got {value}")
        return value

    def choice(self, key: str, model: type[models.Model], *, field: str | None = None) -> str:
        """A string that is one of the model field's choices (the database does not check these)."""
        value = self.get(key, str)
        allowed = [str(option) for option, _ in model._meta.get_field(field or key).choices]
        if value not in allowed and not (value == "" and model._meta.get_field(field or key).blank):
            raise EventFileError(self.at(key), f"{value!r} is not one of {allowed}")
        return value

    def moment(self, key: str, *, null: bool = False) -> dt.datetime | None:
        """An ISO 8601 timestamp with a time zone, as an aware datetime in UTC."""
        value = self.get(key, str, null=null)
        if value is None:
            return None
        try:
            parsed = dt.datetime.fromisoformat(value)
        except ValueError:
            raise EventFileError(self.at(key), f"not an ISO 8601 timestamp: {value!r}") from None
        if parsed.tzinfo is None:
            raise EventFileError(self.at(key), f"timestamp without a time zone: {value!r}")
        return parsed.astimezone(dt.UTC)

    def date(self, key: str) -> dt.date | None:
        value = self.get(key, str, null=True)
        if value is None:
            return None
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            raise EventFileError(self.at(key), f"not an ISO 8601 date: {value!r}") from None

    def nodes(self, key: str) -> list[Node]:
        """The list at ``key`` as nodes, each with its own path (``teams[3]``)."""
        return [Node(item, f"{self.at(key)}[{index}]") for index, item in enumerate(self.get(key, list))]

    def node(self, key: str, *, null: bool = False) -> Node | None:
        value = self.raw(key)
        if value is None and null:
            return None
        return Node(value, self.at(key))


def _unstorable(text: str) -> str | None:
    """What in ``text`` no database text column stores: PostgreSQL refuses NUL, and a lone
    surrogate (``"\\ud800"`` in JSON) is not encodable as UTF-8 at all."""
    if "\x00" in text:
        return "a NUL character"
    if any("\ud800" <= char <= "\udfff" for char in text):
        return "a lone surrogate"
    return None


def check_storable(value: Any, path: str = "", columns: dict[str, type[models.Model]] | None = None) -> None:
    """Refuse, naming the JSON path, any value no column can store: text with NUL or a lone
    surrogate anywhere in the file, and an integer outside its column's range (``columns`` maps
    the path of a kind of object, list indexes written ``[]``, to its model; other integers must
    fit a 64-bit column). Run once over the parsed file before any row is written."""
    pattern = re.sub(r"\[\d+\]", "[]", path)
    if isinstance(value, dict):
        model = (columns or {}).get(pattern)
        for key, item in value.items():
            key_text = str(key)
            problem = _unstorable(key_text)
            if problem:
                raise EventFileError(path, f"a key contains {problem}")
            item_path = f"{path}.{key_text}" if path else key_text
            if model is not None and _is_int(item):
                _check_column(model, key_text, item, item_path)
            check_storable(item, item_path, columns)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            check_storable(item, f"{path}[{index}]", columns)
    elif isinstance(value, str):
        problem = _unstorable(value)
        if problem:
            raise EventFileError(path, f"contains {problem}")
    elif _is_int(value):
        low, high = INTEGER_RANGES["BigIntegerField"]
        if not low <= value <= high:
            raise EventFileError(path, f"must be between {low} and {high}, got {value}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_column(model: type[models.Model], name: str, value: int, path: str) -> None:
    try:
        field = model._meta.get_field(name)
    except FieldDoesNotExist:
        return
    if field.is_relation or field.get_internal_type() not in INTEGER_RANGES:
        return
    low, high = column_range(model, name)
    if not low <= value <= high:
        raise EventFileError(path, f"must be between {low} and {high}, got {value}")


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    for kind, name in _TYPE_NAMES.items():
        if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
            return name
    return type(value).__name__
