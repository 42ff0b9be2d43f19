"""Numbers from outside checked against the column they go into: the one place for those ranges.

The ranges are Django's for each integer field type, the ones PostgreSQL enforces (a ``smallint``
holds up to 32,767): a number past them would be a database error there, and SQLite, which stores
any integer, would quietly keep a value PostgreSQL refuses. Serializers and forms take their
bounds from :func:`column_bounds`; pages read ids and numbers from the query string or a form
with :func:`parse_column_int`, which accepts only plain ASCII digits (``"²".isdigit()`` is true,
``int("²")`` fails) and answers a 400 naming the parameter.
"""

from __future__ import annotations

from django.core.exceptions import BadRequest
from django.db import models

#: Django's ``BaseDatabaseOperations.integer_field_ranges`` (PostgreSQL's column types), by field type.
INTEGER_RANGES: dict[str, tuple[int, int]] = {
    "SmallIntegerField": (-32768, 32767),
    "IntegerField": (-2147483648, 2147483647),
    "BigIntegerField": (-9223372036854775808, 9223372036854775807),
    "PositiveBigIntegerField": (0, 9223372036854775807),
    "PositiveSmallIntegerField": (0, 32767),
    "PositiveIntegerField": (0, 2147483647),
    "SmallAutoField": (1, 32767),
    "AutoField": (1, 2147483647),
    "BigAutoField": (1, 9223372036854775807),
}


class BadParameter(BadRequest):
    """A request parameter that cannot be what it names; pages answer 400 with this message."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def column_range(model: type[models.Model], field_name: str) -> tuple[int, int]:
    """The smallest and largest integer ``model.field_name`` can store (a foreign key: its target's id)."""
    field = model._meta.get_field(field_name)
    if field.is_relation:
        field = field.target_field
    return INTEGER_RANGES[field.get_internal_type()]


def column_bounds(
    model: type[models.Model], field_name: str, *, min_value: int | None = None, max_value: int | None = None
) -> dict[str, int]:
    """``min_value``/``max_value`` for a serializer or form field: the rule's own bounds, narrowed
    to what the column can hold."""
    low, high = column_range(model, field_name)
    return {
        "min_value": low if min_value is None else max(low, min_value),
        "max_value": high if max_value is None else min(high, max_value),
    }


def parse_id(text: str | None, model: type[models.Model], *, param: str) -> int | None:
    """An id from a query string or form (``?player=12``) as a bounded positive integer, the range
    of ``model``'s primary key; ``None`` when absent or empty; 400 naming ``param`` otherwise."""
    return parse_column_int(text, model, model._meta.pk.name, param=param)


def parse_column_int(
    text: str | None, model: type[models.Model], field_name: str, *, param: str | None = None
) -> int | None:
    """``text`` as an integer for ``model.field_name``; ``None`` when absent or empty.

    Raises :class:`BadParameter` naming ``param`` (default the field's name) when ``text`` is not
    plain ASCII digits (an optional leading minus) or lies outside the column's range.
    """
    name = param or field_name
    if text is None or str(text).strip() == "":
        return None
    raw = str(text).strip()
    low, high = column_range(model, field_name)
    digits = raw[1:] if raw.startswith("-") else raw
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 20:
        raise BadParameter(name, f"expected a whole number, got {raw[:40]!r}")
    value = int(raw)
    if not low <= value <= high:
        raise BadParameter(name, f"must be between {low} and {high}, got {raw[:40]}")
    return value
