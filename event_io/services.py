"""Moving a whole event between databases as one JSON document: ``twohg-event`` version 1.

Why a format of our own rather than ``dumpdata``: a dump carries database ids, so it cannot be
loaded into a database that already holds other events, and its users are ids too. This file
refers to everything by keys that mean the same in any database, so an import gets fresh ids
and exporting the imported event gives back the same document (``export → import → export``
compares equal), which is what makes it trustworthy as a backup.

The document (``python manage.py export_event ID`` writes it with sorted keys, indent 2)::

    format       "twohg-event"
    version      1 (an importer refuses any other version)
    users        [{username, email}] sorted by username: every account the event refers to
    tournament   every setting, status, seed, date, decklist deadline, created_by, created_at
    staff        [{user, role}]
    teams        [{name, registered_after_round, dropped_after_round, drop_reason, disqualified,
                   disqualification: null | {dropped_after_round_before, drop_reason_before}
                   (the drop a disqualified team had before; absent in older files: none),
                   fixed_table, awarded_byes (0-3; absent in older files: 0), created_at,
                   players: [{name, name_reading (absent in older files: ""), wizards_id, legacy_dci, user, position,
                              decklist: null | {current, created_at, updated_at, versions: [...]}}],
                   pool: null | {current, created_at, updated_at, versions: [... boosters]}}]
    keep_apart   [{team_a, team_b, reason}]
    pods         [{draft, number, teams (names, in seat order), seated_after_round, created_at}]
                 (absent in older files, like the settings booster_draft_playoff, cross_pod_pairing
                 and a match's pod: none, off, null)
    rounds       [{number, kind, seed, explanation, manual_reason, length_minutes,
                   started_at, time_up_recorded_at, published_at, finished_at, created_at
                   (not time_check_at: the next clock action schedules the time-up check anew),
                   pauses: [{paused_at, resumed_at}],
                   matches: [{table, team_a, team_b, result fields, version, confirmed,
                              reported_by/at/side, disputed, seats,
                              extra_turns_since, time_called_at, active_team, turns_completed,
                              extensions: [{minutes, reason, granted_by, created_at}],
                              reports: [{source, side, team_a_wins, team_b_wins, draws, author,
                                         match_version, reason, created_at}]}]}]
                 (reports absent in older files: the stored result gets the rows that give it)
    penalties    [every Penalty column; round, match, player, team, simultaneous_with as keys]
    deck_checks  [{round, match, judge, started_at, finished_at, extension, findings: [...]}]
    audit        [{actor, action, object_type, object, object_id, before, after, reason, created_at}]

Keys: a user is its username, a team its name, a player their Wizards id, a round its number, a
match ``[round number, team_a name]`` (a team plays once a round), a penalty or deck check its
index in its list, a time extension its index in its match's ``extensions``, a finding its index
in its check. Ids inside stored JSON are translated too: match ``seats`` and a penalty's
``offer_ftmgs_to`` list Wizards ids, and a round's ``explanation`` names teams (``bye_team``, ``rematches``,
``unmet_keep_apart``) and writes the engine's "team 12" as ``team #n``, the n-th team of
``teams`` (in its ``messages``, a team value is ``"#n"``). Lists are in creation order, and the import inserts them in that order, so relative
id order (which the pairing engine uses to break some ties) survives. Timestamps are ISO 8601 in
UTC with the stored microseconds.

Left out on purpose: the export time and anything else that would differ between two exports;
card data (shared reference data: decklist versions keep their text, parsed cards and errors);
and printed documents (``DocumentJob``), which are regenerated from the event. The audit's
``before``/``after`` are history and stay exactly as written, source-database ids included.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import DataError, IntegrityError, transaction

from event_io.export import event_export
from event_io.load import Importer, load_event_rows
from event_io.reading import FORMAT, VERSION, EventFileError, Node
from event_io.records import (
    load_audit,
    load_deck_checks,
    load_penalties,
    load_registrations,
)
from tournaments.models import Tournament

__all__ = ["FORMAT", "VERSION", "EventFileError", "EventImport", "event_export", "event_import"]


@dataclass(frozen=True)
class EventImport:
    """The new event, and the accounts the import created (unusable passwords: reset to log in)."""

    tournament: Tournament
    users_created: list[str]


@transaction.atomic
def event_import(data: Any, *, rename: str | None = None) -> EventImport:
    """Create the event in ``data`` (a parsed document) as a new event, all or nothing.

    Accounts are matched by username and created when missing. An event with the same name and
    date is refused unless ``rename`` gives the new event another name. Writes no audit entry of
    its own: the trail is the source event's, and an extra entry would make the re-export differ.
    Raises :class:`EventFileError` naming the JSON path of the first problem found.
    """
    importer = Importer(Node(data, ""))
    tournament = load_document(importer, rename=rename)
    return EventImport(tournament=tournament, users_created=importer.users_created)


def load_document(importer: Importer, *, rename: str | None = None, audit: bool = True) -> Tournament:
    """Every row of the importer's document, in a savepoint: a problem leaves nothing behind."""
    try:
        with transaction.atomic():
            tournament = load_event_rows(importer, rename)
            penalties = load_penalties(importer)
            load_registrations(importer)
            load_deck_checks(importer, penalties)
            if audit:
                load_audit(importer)
    except (IntegrityError, DataError) as exc:
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise EventFileError("", f"the file contradicts a database rule: {detail}") from None
    return tournament
