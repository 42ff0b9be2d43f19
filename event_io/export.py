"""An event as a version 1 ``twohg-event`` document (see the package docstring for the format).

Rows are written in creation (id) order and referred to by keys that survive a move between
databases: users by username, teams by name, players by Wizards id, rounds by number, matches by
``[round, team_a]``, penalties and deck checks by their index in the file. A fixed number of
queries, whatever the event's size.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib.auth import get_user_model

from decklists.models import DeckCheck, DeckCheckFinding, Decklist, DecklistVersion, TeamPool, TeamPoolVersion
from event_io.reading import (
    FORMAT,
    KEYED_TYPES,
    RAW_OBJECT_ID_ACTIONS,
    TEAM_IN_LINE,
    VERSION,
    day,
    player_key,
    timestamp,
)
from penalties.models import Penalty
from tournaments.domain.settings import SETTINGS
from tournaments.models import (
    AuditEntry,
    Disqualification,
    DraftPod,
    KeepApart,
    Match,
    Player,
    Round,
    RoundPause,
    Staff,
    Team,
    TimeExtension,
    Tournament,
)

#: Written as ISO strings by ``_tournament``; every other setting is copied as it is.
_TIMED_SETTINGS = ("date", "decklist_deadline")
TOURNAMENT_SETTINGS = (*(name for name in SETTINGS if name not in _TIMED_SETTINGS), "status", "seed")
"""Tournament columns copied as they are; dates, times and the creator are converted."""

PENALTY_FIELDS = (
    "infraction",
    "description",
    "day",
    "base_penalty",
    "proposed_penalty",
    "penalty",
    "upgraded",
    "explanation",
    "explanation_message",
    "steps",
    "notes",
    "notes_message",
    "team_effect",
    "match_point_adjustment",
    "extra_turns",
    "drops_team",
    "applies_to_next_match",
    "context",
    "deviated",
    "deviation_reason",
    "overturned",
    "overturn_reason",
    "review",
    "review_reason",
)
"""Penalty columns copied as they are (the core's decision, kept so the record reads the same)."""


NOT_EXPORTED: dict[str, dict[str, str]] = {
    "tournaments.Round": {
        "time_check_at": "the clock's next action schedules the time-up check anew after an import",
    },
    "tournaments.Team": {
        "join_code": "a code to join a team before the event; a moved event is registered already",
        "captain": "who may invite to a forming team; a moved event is registered already",
    },
}
"""Model columns deliberately not in the document, with why. Database ids and the link to the row
a row is nested under are never written; tests/event_io/test_export_fields.py fails on any other
column that is neither exported nor listed here."""


class _Keys:
    """Database id → file key, per kind of row (the audit's ``object_type``), filled while the rows
    are written out."""

    def __init__(self) -> None:
        self.by_type: dict[str, dict[int, Any]] = {kind: {} for kind in KEYED_TYPES}
        self.user_ids: set[int] = set()
        self.usernames: dict[int, str] = {}

    def user(self, user_id: int | None) -> str | None:
        if user_id is None:
            return None
        self.user_ids.add(user_id)
        return self.usernames.get(user_id)

    def of(self, kind: str, pk: Any) -> Any:
        """The key of row ``pk`` of ``kind``; ``None`` for a row that is not in this event (any more)."""
        try:
            return self.by_type[kind].get(int(pk))
        except (TypeError, ValueError):
            return None


def event_export(tournament: Tournament) -> dict[str, Any]:
    """The whole event as plain JSON values; exporting an imported event gives the same document.

    Nothing that changes between two exports is included (no export time, no database ids), so
    ``export → import → export`` can be compared with ``==``.
    """
    keys = _Keys()
    keys.usernames = dict(get_user_model().objects.values_list("pk", "username"))
    keys.by_type["tournament"][tournament.pk] = None
    teams = list(Team.objects.filter(tournament=tournament).order_by("pk"))
    team_index = {team.pk: index for index, team in enumerate(teams, start=1)}
    for team in teams:
        keys.by_type["team"][team.pk] = team.name
    document: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    document["tournament"] = _tournament(tournament, keys)
    staff_rows = list(Staff.objects.filter(tournament=tournament).order_by("pk"))
    for staff in staff_rows:
        keys.by_type["staff"][staff.pk] = keys.user(staff.user_id)
    document["staff"] = [{"user": keys.user(staff.user_id), "role": staff.role} for staff in staff_rows]
    document["teams"] = _teams(tournament, teams, keys)
    document["keep_apart"] = [
        {
            "team_a": keys.of("team", pair.team_a_id),
            "team_b": keys.of("team", pair.team_b_id),
            "reason": pair.reason,
        }
        for pair in KeepApart.objects.filter(tournament=tournament).order_by("pk")
    ]
    document["pods"] = [
        {
            "draft": pod.draft,
            "number": pod.number,
            "teams": [keys.of("team", team_id) for team_id in pod.team_ids],
            "seated_after_round": pod.seated_after_round,
            "created_at": timestamp(pod.created_at),
        }
        for pod in DraftPod.objects.filter(tournament=tournament).order_by("draft", "number")
    ]
    document["rounds"] = _rounds(tournament, keys, team_index)
    document["penalties"] = _penalties(tournament, keys)
    document["deck_checks"] = _deck_checks(tournament, keys)
    document["audit"] = _audit(tournament, keys)
    document["users"] = [
        {"username": user.username, "email": user.email}
        for user in get_user_model().objects.filter(pk__in=keys.user_ids).order_by("username")
    ]
    return document


def _tournament(tournament: Tournament, keys: _Keys) -> dict[str, Any]:
    values = {field: getattr(tournament, field) for field in TOURNAMENT_SETTINGS}
    values["tiebreakers"] = list(tournament.tiebreakers)
    return {
        **values,
        "date": day(tournament.date),
        "decklist_deadline": timestamp(tournament.decklist_deadline),
        "created_by": keys.user(tournament.created_by_id),
        "created_at": timestamp(tournament.created_at),
    }


def _versions(rows, keys: _Keys, extra: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    return [
        {
            "number": version.number,
            "text": version.text,
            "cards": version.cards,
            "errors": version.errors,
            "valid": version.valid,
            **{field: getattr(version, field) for field in extra},
            "submitted_by": keys.user(version.submitted_by_id),
            "reason": version.reason,
            "card_data_revision": version.card_data_revision,
            "created_at": timestamp(version.created_at),
        }
        for version in rows
    ]


def _registration(row, versions: list, keys: _Keys, extra: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """A decklist or a pool: its versions and which one counts (by version number)."""
    if row is None:
        return None
    current = next((version.number for version in versions if version.pk == row.current_id), None)
    return {
        "current": current,
        "created_at": timestamp(row.created_at),
        "updated_at": timestamp(row.updated_at),
        "versions": _versions(versions, keys, extra),
    }


def _disqualification(record: Disqualification | None) -> dict[str, Any] | None:
    if record is None:
        return None
    return {
        "dropped_after_round_before": record.dropped_after_round_before,
        "drop_reason_before": record.drop_reason_before,
    }


def _teams(tournament: Tournament, teams: list[Team], keys: _Keys) -> list[dict[str, Any]]:
    players = defaultdict(list)
    for player in Player.objects.filter(tournament=tournament).order_by("position", "pk"):
        players[player.team_id].append(player)
        keys.by_type["player"][player.pk] = player_key(player.wizards_id, keys.user(player.user_id))
    decklists = {row.player_id: row for row in Decklist.objects.filter(tournament=tournament)}
    for row in decklists.values():
        keys.by_type["decklist"][row.pk] = keys.of("player", row.player_id)
    decklist_versions = defaultdict(list)
    for version in DecklistVersion.objects.filter(decklist__tournament=tournament).order_by("number", "pk"):
        decklist_versions[version.decklist_id].append(version)
    disqualifications = {
        row.team_id: row for row in Disqualification.objects.filter(team__tournament=tournament)
    }
    pools = {row.team_id: row for row in TeamPool.objects.filter(tournament=tournament)}
    for row in pools.values():
        keys.by_type["teampool"][row.pk] = keys.of("team", row.team_id)
    pool_versions = defaultdict(list)
    for version in TeamPoolVersion.objects.filter(pool__tournament=tournament).order_by("number", "pk"):
        pool_versions[version.pool_id].append(version)

    def player_entry(player: Player) -> dict[str, Any]:
        decklist = decklists.get(player.pk)
        return {
            "name": player.name,
            "name_reading": player.name_reading,
            "wizards_id": player.wizards_id,
            "legacy_dci": player.legacy_dci,
            "user": keys.user(player.user_id),
            "position": player.position,
            "decklist": _registration(decklist, decklist_versions[getattr(decklist, "pk", None)], keys),
        }

    return [
        {
            "name": team.name,
            "registered_after_round": team.registered_after_round,
            "dropped_after_round": team.dropped_after_round,
            "drop_reason": team.drop_reason,
            "disqualified": team.disqualified,
            "disqualification": _disqualification(disqualifications.get(team.pk)),
            "fixed_table": team.fixed_table,
            "awarded_byes": team.awarded_byes,
            "checked_in_at": timestamp(team.checked_in_at),
            "created_at": timestamp(team.created_at),
            "players": [player_entry(player) for player in players[team.pk]],
            "pool": _registration(
                pools.get(team.pk),
                pool_versions[getattr(pools.get(team.pk), "pk", None)],
                keys,
                ("boosters",),
            ),
        }
        for team in teams
    ]


def _explanation(explanation: Any, keys: _Keys, team_index: dict[int, int]) -> Any:
    """The pairing explanation with team ids replaced: names in the fields, ``team #n`` in the text."""
    if not isinstance(explanation, dict):
        return explanation
    result = dict(explanation)
    if "lines" in result:

        def reference(found) -> str:
            index = team_index.get(int(found.group(2)))
            return found.group(0) if index is None else f"{found.group(1)} #{index}"

        result["lines"] = [TEAM_IN_LINE.sub(reference, str(line)) for line in result["lines"]]
    if "messages" in result:
        result["messages"] = [_message_teams(message, team_index) for message in result["messages"]]
    if result.get("bye_team") is not None:
        result["bye_team"] = keys.of("team", result["bye_team"])
    for field in ("rematches", "unmet_keep_apart"):
        if field in result:
            result[field] = [[keys.of("team", team_id) for team_id in pair] for pair in result[field]]
    return result


def _message_teams(message: Any, team_index: dict[int, int]) -> Any:
    """An explanation message (``as_data``) with its team ids (values named ``team…``) as ``#n``."""
    if not isinstance(message, dict):
        return message
    values = {
        key: f"#{team_index[value]}"
        if key.startswith("team") and isinstance(value, int) and value in team_index
        else _message_teams(value, team_index)
        for key, value in message["values"].items()
    }
    return {"msgid": message["msgid"], "values": values}


def _rounds(tournament: Tournament, keys: _Keys, team_index: dict[int, int]) -> list[dict[str, Any]]:
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    pauses = defaultdict(list)
    for pause in RoundPause.objects.filter(round__tournament=tournament).order_by("paused_at", "pk"):
        pauses[pause.round_id].append(
            {"paused_at": timestamp(pause.paused_at), "resumed_at": timestamp(pause.resumed_at)}
        )
    matches = defaultdict(list)
    numbers = {row.pk: row.number for row in rounds}
    for row in rounds:
        keys.by_type["round"][row.pk] = row.number
    for match in (
        Match.objects.filter(round__tournament=tournament).order_by("pk").prefetch_related("reports")
    ):
        matches[match.round_id].append(match)
        keys.by_type["match"][match.pk] = [numbers[match.round_id], keys.of("team", match.team_a_id)]
    extensions = defaultdict(list)
    for extension in TimeExtension.objects.filter(match__round__tournament=tournament).order_by("pk"):
        keys.by_type["timeextension"][extension.pk] = [
            *keys.of("match", extension.match_id),
            len(extensions[extension.match_id]),
        ]
        extensions[extension.match_id].append(
            {
                "minutes": extension.minutes,
                "reason": extension.reason,
                "granted_by": keys.user(extension.granted_by_id),
                "created_at": timestamp(extension.created_at),
            }
        )
    return [
        {
            "number": row.number,
            "kind": row.kind,
            "seed": row.seed,
            "explanation": _explanation(row.explanation, keys, team_index),
            "manual_reason": row.manual_reason,
            "length_minutes": row.length_minutes,
            "started_at": timestamp(row.started_at),
            "time_up_recorded_at": timestamp(row.time_up_recorded_at),
            "published_at": timestamp(row.published_at),
            "finished_at": timestamp(row.finished_at),
            "created_at": timestamp(row.created_at),
            "pauses": pauses[row.pk],
            "matches": [_match(match, keys, extensions[match.pk]) for match in matches[row.pk]],
        }
        for row in rounds
    ]


def _match(match: Match, keys: _Keys, extensions: list[dict[str, Any]]) -> dict[str, Any]:
    seats = match.seats
    if isinstance(seats, dict):
        seats = {side: [keys.of("player", pk) for pk in ids] for side, ids in seats.items()}
    return {
        "table": match.table,
        "team_a": keys.of("team", match.team_a_id),
        "team_b": keys.of("team", match.team_b_id),
        "bracket_slot": match.bracket_slot,
        "pod": match.pod,
        "result_kind": match.result_kind,
        "team_a_wins": match.team_a_wins,
        "team_b_wins": match.team_b_wins,
        "draws": match.draws,
        "reported_by": keys.user(match.reported_by_id),
        "reported_at": timestamp(match.reported_at),
        "confirmed": match.confirmed,
        "reported_side": match.reported_side,
        "disputed": match.disputed,
        "reports": [
            {
                "source": report.source,
                "side": report.side,
                "team_a_wins": report.team_a_wins,
                "team_b_wins": report.team_b_wins,
                "draws": report.draws,
                "author": keys.user(report.author_id),
                "match_version": report.match_version,
                "reason": report.reason,
                "created_at": timestamp(report.created_at),
            }
            for report in match.reports.all()
        ],
        "version": match.version,
        "seats": seats,
        "extra_turns_since": timestamp(match.extra_turns_since),
        "time_called_at": timestamp(match.time_called_at),
        "active_team": match.active_team,
        "turns_completed": match.turns_completed,
        "extensions": extensions,
    }


def _penalties(tournament: Tournament, keys: _Keys) -> list[dict[str, Any]]:
    rows = list(Penalty.objects.filter(tournament=tournament).order_by("pk"))
    for index, row in enumerate(rows):
        keys.by_type["penalty"][row.pk] = index
    return [
        {
            "round": keys.of("round", row.round_id),
            "match": keys.of("match", row.match_id),
            "player": keys.of("player", row.player_id),
            "team": keys.of("team", row.team_id),
            "simultaneous_with": keys.of("penalty", row.simultaneous_with_id),
            **{field: getattr(row, field) for field in PENALTY_FIELDS},
            "judge": keys.user(row.judge_id),
            "created_at": timestamp(row.created_at),
            "offer_ftmgs_to": [keys.of("player", pk) for pk in row.offer_ftmgs_to],
            "overturned_by": keys.user(row.overturned_by_id),
            "overturned_at": timestamp(row.overturned_at),
            "reviewed_by": keys.user(row.reviewed_by_id),
            "reviewed_at": timestamp(row.reviewed_at),
            "replaced_by": keys.of("penalty", row.replaced_by_id),
        }
        for row in rows
    ]


def _deck_checks(tournament: Tournament, keys: _Keys) -> list[dict[str, Any]]:
    checks = list(DeckCheck.objects.filter(tournament=tournament).order_by("pk"))
    findings = defaultdict(list)
    for finding in DeckCheckFinding.objects.filter(deck_check__tournament=tournament).order_by("pk"):
        findings[finding.deck_check_id].append(finding)
    result = []
    for index, check in enumerate(checks):
        keys.by_type["deckcheck"][check.pk] = index
        extension = keys.of("timeextension", check.extension_id)
        entries = []
        for position, finding in enumerate(findings[check.pk]):
            keys.by_type["deckcheckfinding"][finding.pk] = [index, position]
            entries.append(
                {
                    "player": keys.of("player", finding.player_id),
                    "kind": finding.kind,
                    "card": finding.card,
                    "count": finding.count,
                    "note": finding.note,
                    "penalty": keys.of("penalty", finding.penalty_id),
                    "recorded_by": keys.user(finding.recorded_by_id),
                    "created_at": timestamp(finding.created_at),
                }
            )
        result.append(
            {
                "round": keys.of("round", check.round_id),
                "match": keys.of("match", check.match_id),
                "judge": keys.user(check.judge_id),
                "started_at": timestamp(check.started_at),
                "finished_at": timestamp(check.finished_at),
                "extension": None if extension is None else extension[-1],
                "findings": entries,
            }
        )
    return result


def _audit(tournament: Tournament, keys: _Keys) -> list[dict[str, Any]]:
    """Audit entries, oldest first. ``object`` is the key of the row the entry is about (``null``
    for the event itself or for a row since deleted); ``object_id`` carries a value that is not a
    row key as written. ``before``/``after``/``reason`` are the record as written at the time, ids
    of the source database included: they are history, not references the import follows."""
    result = []
    for entry in AuditEntry.objects.filter(tournament=tournament).order_by("pk"):
        raw = entry.action in RAW_OBJECT_ID_ACTIONS or entry.object_type not in KEYED_TYPES
        result.append(
            {
                "actor": keys.user(entry.actor_id),
                "action": entry.action,
                "object_type": entry.object_type,
                "object": None if raw else keys.of(entry.object_type, entry.object_id),
                "object_id": entry.object_id if raw else None,
                "before": entry.before,
                "after": entry.after,
                "reason": entry.reason,
                "created_at": timestamp(entry.created_at),
            }
        )
    return result
