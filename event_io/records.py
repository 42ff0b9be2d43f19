"""Importing what the event recorded about its rows: penalties, decklists and pools with every
version, deck checks with their findings, and the audit trail. Runs after :mod:`.load` has
created the teams, players, rounds and matches these refer to."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from decklists.models import DeckCheck, DeckCheckFinding, Decklist, DecklistVersion, TeamPool, TeamPoolVersion
from event_io.load import insert
from event_io.reading import KEYED_TYPES, EventFileError, Node, player_key
from penalties.models import Penalty
from tournaments.models import AuditEntry

if TYPE_CHECKING:
    from event_io.load import Importer

PENALTY_CHOICES = ("infraction", "base_penalty", "proposed_penalty", "penalty", "team_effect", "review")
PENALTY_TEXTS = ("description", "explanation", "deviation_reason", "overturn_reason", "review_reason")
PENALTY_FLAGS = ("upgraded", "drops_team", "applies_to_next_match", "deviated", "overturned")
PENALTY_JSON = {"steps": list, "notes": list, "context": dict}


def load_penalties(importer: Importer) -> list[Penalty]:
    """Penalties in file order; ``simultaneous_with`` (an index in the list) is set once all exist."""
    nodes = importer.root.nodes("penalties")
    rows = []
    for node in nodes:
        values: dict[str, Any] = {field: node.choice(field, Penalty) for field in PENALTY_CHOICES}
        values.update({field: node.get(field, str) for field in PENALTY_TEXTS})
        values.update({field: node.get(field, bool) for field in PENALTY_FLAGS})
        values.update({field: node.get(field, kind) for field, kind in PENALTY_JSON.items()})
        # A file written before the explanation and notes were kept as messages has none: the English shows.
        values["explanation_message"] = (
            node.get("explanation_message", dict, null=True) if "explanation_message" in node.value else None
        )
        values["notes_message"] = (
            node.get("notes_message", list, null=True) if "notes_message" in node.value else None
        )
        values["match_point_adjustment"] = node.get("match_point_adjustment", int)
        values["extra_turns"] = node.natural("extra_turns")
        values["day"] = node.natural("day")
        rows.append(
            Penalty(
                tournament=importer.tournament,
                round=importer.round(node, "round"),
                match=importer.match(node, "match", null=True),
                player=importer.player(node, "player"),
                team=importer.team(node, "team"),
                judge=importer.user(node, "judge", null=False),
                created_at=node.moment("created_at"),
                offer_ftmgs_to=importer.player_ids(node.raw("offer_ftmgs_to"), node.at("offer_ftmgs_to")),
                overturned_by=importer.user(node, "overturned_by"),
                overturned_at=node.moment("overturned_at", null=True),
                reviewed_by=importer.user(node, "reviewed_by"),
                reviewed_at=node.moment("reviewed_at", null=True),
                **values,
            )
        )
    penalties = Penalty.objects.bulk_create(rows)
    for index, (penalty, node) in enumerate(zip(penalties, nodes, strict=True)):
        importer.remember("penalty", index, penalty.pk)
        earlier = node.get("simultaneous_with", int, null=True)
        if earlier is not None:
            if not 0 <= earlier < len(penalties):
                raise EventFileError(node.at("simultaneous_with"), f"no penalty {earlier} in the file")
            penalty.simultaneous_with = penalties[earlier]
        replacement = node.get("replaced_by", int, null=True)
        if replacement is not None:
            if not 0 <= replacement < len(penalties):
                raise EventFileError(node.at("replaced_by"), f"no penalty {replacement} in the file")
            penalty.replaced_by = penalties[replacement]
    Penalty.objects.bulk_update(penalties, ["simultaneous_with", "replaced_by"])
    return penalties


def _versions(
    importer: Importer, node: Node, model, parent_field: str, parent, extra: tuple[str, ...]
) -> list[tuple[Any, dict]]:
    rows = []
    for version in node.nodes("versions"):
        rows.append(
            (
                model(
                    **{parent_field: parent},
                    number=version.natural("number"),
                    text=version.get("text", str),
                    cards=version.get("cards", list),
                    errors=version.get("errors", list),
                    valid=version.get("valid", bool),
                    submitted_by=importer.user(version, "submitted_by"),
                    reason=version.get("reason", str),
                    card_data_revision=version.natural("card_data_revision"),
                    **{field: version.natural(field) for field in extra},
                ),
                {"created_at": version.moment("created_at")},
            )
        )
    return rows


def load_registrations(importer: Importer) -> None:
    """Each player's decklist and each team's pool, every version, and which version counts."""
    owners = []
    for team_node in importer.root.nodes("teams"):
        team = importer.teams[team_node.value["name"]]
        pool = team_node.node("pool", null=True)
        if pool is not None:
            owners.append((TeamPool(tournament=importer.tournament, team=team), pool, "teampool", team.name))
        for player_node in team_node.nodes("players"):
            player = importer.players[
                player_key(player_node.value["wizards_id"], player_node.value.get("user"))
            ]
            decklist = player_node.node("decklist", null=True)
            if decklist is not None:
                owners.append(
                    (
                        Decklist(tournament=importer.tournament, player=player),
                        decklist,
                        "decklist",
                        player_key(player.wizards_id, player.user.username if player.user else None),
                    )
                )
    for model, version_model, parent_field, extra in (
        (Decklist, DecklistVersion, "decklist", ()),
        (TeamPool, TeamPoolVersion, "pool", ("boosters",)),
    ):
        mine = [owner for owner in owners if isinstance(owner[0], model)]
        insert(model, [(row, {}) for row, *_ in mine])
        versions, stamps = [], []
        for row, node, kind, key in mine:
            importer.remember(kind, key, row.pk)
            made = _versions(importer, node, version_model, parent_field, row, extra)
            versions.extend(made)
            stamps.append((row, node, made))
        insert(version_model, versions)
        for row, node, made in stamps:
            current = node.get("current", int, null=True)
            numbers = {version.number: version for version, _ in made}
            if current is not None and current not in numbers:
                raise EventFileError(node.at("current"), f"no version {current} in the file")
            row.current = numbers.get(current)
            row.created_at = node.moment("created_at")
            row.updated_at = node.moment("updated_at")
        model.objects.bulk_update([row for row, *_ in mine], ["current", "created_at", "updated_at"])


def load_deck_checks(importer: Importer, penalties: list[Penalty]) -> None:
    """Deck checks (their extension is an index in the match's ``extensions``) and findings."""
    checks, finding_rows = [], []
    nodes = importer.root.nodes("deck_checks")
    for node in nodes:
        match = importer.match(node, "match")
        extensions = importer.extensions[json.dumps([match.round.number, match.team_a.name])]
        extension = node.get("extension", int, null=True)
        if extension is not None and not 0 <= extension < len(extensions):
            raise EventFileError(node.at("extension"), f"the match has no extension {extension}")
        checks.append(
            DeckCheck(
                tournament=importer.tournament,
                round=importer.round(node, "round"),
                match=match,
                judge=importer.user(node, "judge", null=False),
                started_at=node.moment("started_at"),
                finished_at=node.moment("finished_at", null=True),
                extension=None if extension is None else extensions[extension],
            )
        )
    DeckCheck.objects.bulk_create(checks)
    keys = []
    for index, (check, node) in enumerate(zip(checks, nodes, strict=True)):
        importer.remember("deckcheck", index, check.pk)
        for position, finding in enumerate(node.nodes("findings")):
            penalty = finding.get("penalty", int, null=True)
            if penalty is not None and not 0 <= penalty < len(penalties):
                raise EventFileError(finding.at("penalty"), f"no penalty {penalty} in the file")
            row = DeckCheckFinding(
                deck_check=check,
                player=importer.player(finding, "player"),
                kind=finding.choice("kind", DeckCheckFinding),
                card=finding.get("card", str),
                count=finding.natural("count"),
                note=finding.get("note", str),
                penalty=None if penalty is None else penalties[penalty],
                recorded_by=importer.user(finding, "recorded_by", null=False),
            )
            finding_rows.append((row, {"created_at": finding.moment("created_at")}))
            keys.append([index, position])
    for row, key in zip(insert(DeckCheckFinding, finding_rows), keys, strict=True):
        importer.remember("deckcheckfinding", key, row.pk)


def load_audit(importer: Importer) -> None:
    """The audit trail as written, pointed at the new rows.

    ``object`` is looked up among the rows just created; an entry about a row that no longer
    existed at export (``object`` null) keeps an empty ``object_id``, and a non-key ``object_id``
    (a deleted round's number) is kept as written.
    """
    rows = []
    for node in importer.root.nodes("audit"):
        object_type = node.get("object_type", str)
        object_id = node.get("object_id", str, null=True)
        if object_id is None:
            key = node.raw("object")
            if object_type not in KEYED_TYPES:
                raise EventFileError(node.at("object_type"), f"{object_type!r} rows have no key in the file")
            if key is not None or object_type == "tournament":
                known = importer.refs.get(object_type, {})
                object_id = str(importer.lookup(known, json.dumps(key), node.at("object"), object_type))
            else:
                object_id = ""
        entry = AuditEntry(
            tournament=importer.tournament,
            actor=importer.user(node, "actor"),
            action=node.get("action", str),
            object_type=object_type,
            object_id=object_id,
            before=node.raw("before"),
            after=node.raw("after"),
            reason=node.get("reason", str),
        )
        rows.append((entry, {"created_at": node.moment("created_at")}))
    insert(AuditEntry, rows)
