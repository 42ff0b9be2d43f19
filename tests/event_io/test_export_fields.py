"""Every column of every exported model is in the export, or listed as deliberately left out.

A field added to a model and forgotten by the export would silently vanish on a move between
databases; here it fails, naming the model and the field, until it is exported or listed in
``event_io.export.NOT_EXPORTED`` with the reason.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest
from django.db import models

from decklists.models import DeckCheck, DeckCheckFinding, Decklist, DecklistVersion, TeamPool, TeamPoolVersion
from event_io.export import NOT_EXPORTED, event_export
from penalties.models import Penalty
from tests.reliability.test_export_import import build_event
from tournaments.models import (
    AuditEntry,
    KeepApart,
    Match,
    Player,
    ResultReport,
    Round,
    RoundPause,
    Staff,
    Team,
    TimeExtension,
    Tournament,
)

pytestmark = pytest.mark.django_db

#: Where each model's rows sit in the document (a path of keys, ``*`` for every item of a list),
#: and the link to the row they are nested in, which the nesting itself records.
PLACES: dict[type[models.Model], tuple[tuple[str, ...], str | None]] = {
    Tournament: (("tournament",), None),
    Staff: (("staff", "*"), "tournament"),
    Team: (("teams", "*"), "tournament"),
    Player: (("teams", "*", "players", "*"), "team"),
    Decklist: (("teams", "*", "players", "*", "decklist"), "player"),
    DecklistVersion: (("teams", "*", "players", "*", "decklist", "versions", "*"), "decklist"),
    TeamPool: (("teams", "*", "pool"), "team"),
    TeamPoolVersion: (("teams", "*", "pool", "versions", "*"), "pool"),
    KeepApart: (("keep_apart", "*"), "tournament"),
    Round: (("rounds", "*"), "tournament"),
    RoundPause: (("rounds", "*", "pauses", "*"), "round"),
    Match: (("rounds", "*", "matches", "*"), "round"),
    TimeExtension: (("rounds", "*", "matches", "*", "extensions", "*"), "match"),
    ResultReport: (("rounds", "*", "matches", "*", "reports", "*"), "match"),
    Penalty: (("penalties", "*"), "tournament"),
    DeckCheck: (("deck_checks", "*"), "tournament"),
    DeckCheckFinding: (("deck_checks", "*", "findings", "*"), "deck_check"),
    AuditEntry: (("audit", "*"), "tournament"),
}
"""A row's own event is implied too (Player.tournament is its team's); its database id is never
written, since the document refers to rows by keys that mean the same in any database."""
IMPLIED = {"tournament"}


def _rows_at(node: Any, path: tuple[str, ...]) -> list[dict]:
    if not path:
        return [node] if isinstance(node, dict) else []
    head, rest = path[0], path[1:]
    if head == "*":
        return [row for item in (node or []) for row in _rows_at(item, rest)]
    return _rows_at(node.get(head) if isinstance(node, dict) else None, rest)


def _with_a_pool(tournament: Tournament) -> None:
    """build_event is a constructed event; give one team a registered pool so pools are exported too."""
    team = Team.objects.filter(tournament=tournament).order_by("pk").first()
    pool = TeamPool.objects.create(team=team, tournament=tournament)
    version = TeamPoolVersion.objects.create(pool=pool, number=1, text="30 Plains", boosters=6, valid=True)
    TeamPool.objects.filter(pk=pool.pk).update(current=version)


def test_every_model_field_is_exported_or_listed_as_not_exported() -> None:
    tournament = build_event()
    _with_a_pool(tournament)
    document = event_export(tournament)
    missing: dict[str, list[str]] = defaultdict(list)
    for model, (place, parent) in PLACES.items():
        rows = _rows_at(document, place)
        assert rows, f"the sample event exports no {model.__name__}"
        keys = set().union(*(row.keys() for row in rows))
        left_out = NOT_EXPORTED.get(model._meta.label, {})
        structural = {model._meta.pk.name, parent, *IMPLIED}
        for field in model._meta.concrete_fields:
            if field.name not in keys | structural and field.name not in left_out:
                missing[model._meta.label].append(field.name)
    assert dict(missing) == {}


def test_nothing_is_listed_as_left_out_that_the_model_does_not_have() -> None:
    labels = {model._meta.label: model for model in PLACES}
    stale = {
        label: sorted(set(fields) - {f.name for f in labels[label]._meta.concrete_fields})
        for label, fields in NOT_EXPORTED.items()
    }
    assert {label: names for label, names in stale.items() if names} == {}
