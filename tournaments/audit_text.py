"""The audit log in sentences: "Round 1 paired by orga at 14:02", and before → after of the fields
that changed, with rounds by number and teams by name instead of database ids."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from tournaments.models import AuditEntry

#: What each action did, as a sentence start; ``{round}``, ``{team}``, ``{table}``, ``{who}`` are
#: filled from the entry's object and values.
_SENTENCES = {
    "tournament_create": "Event created",
    "tournament_update": "Event settings changed",
    "staff_add": "{who} added to the staff",
    "staff_role_change": "{who}'s staff role changed",
    "staff_remove": "{who} removed from the staff",
    "team_register": "Team {team} registered",
    "team_drop": "Team {team} dropped",
    "team_drop_undo": "Team {team}'s drop undone",
    "team_update": "Team {team} corrected",
    "team_disqualify": "Team {team} disqualified",
    "team_reinstate": "Team {team} reinstated",
    "player_account_link": "An account linked to a player of team {team}",
    "invitation_send": "A player invited to team {team}",
    "invitation_accept": "A player joined team {team}",
    "invitation_decline": "An invitation to team {team} declined",
    "invitation_cancel": "An invitation to team {team} cancelled",
    "team_check_in": "Team {team} checked in",
    "team_check_in_undo": "Team {team}'s check-in taken back",
    "pool_join": "A player joined the partner pool",
    "pool_leave": "A player left the partner pool",
    "pool_form_teams": "Teams formed from the partner pool",
    "round_pair": "Round {round} paired",
    "round_pair_manual": "Round {round} paired by hand",
    "round_publish": "Round {round} published",
    "round_delete": "Round {round} deleted to be paired again",
    "cut_build": "Top cut built as round {round}",
    "match_result_correct": "Result of table {table}, round {round} corrected",
    "match_result_decide": "Disputed result of table {table}, round {round} decided",
    "match_result_disputed": "Teams reported different results at table {table}, round {round}",
    "match_penalty_result": "Penalty result imposed at table {table}, round {round}",
    "match_penalty_result_clear": "Penalty result cleared at table {table}, round {round}",
    "match_seats_set": "Seats chosen at table {table}, round {round}",
    "match.time_extension": "Time extension at table {table}, round {round}",
    "match.time_called": "Time called at table {table}, round {round}",
    "match.turn_completed": "Extra turn done at table {table}, round {round}",
    "round.clock_start": "Round {round}'s clock started",
    "round.clock_pause": "Round {round}'s clock paused",
    "round.clock_resume": "Round {round}'s clock resumed",
    "round.time_up": "Round {round}'s time is up",
    "round.extra_turns": "Tables of round {round} went into extra turns",
    "decklist_submit_for_player": "A decklist entered by staff",
    "decklist_change_after_deadline": "A decklist changed after the deadline",
    "pool_register_for_team": "A team's pool entered by staff",
    "pool_change_after_deadline": "A team's pool changed after the deadline",
    "penalty_issue": "Penalty recorded",
    "penalty_overturn": "Penalty overturned on appeal",
    "deck_check_start": "Deck check started",
    "deck_check_finish": "Deck check finished",
    "deck_check_finding": "Deck check finding recorded",
}
#: Values that are database ids or bookkeeping, never shown as a change.
_HIDDEN = {"id", "version", "reported_by", "team_a", "team_b", "seed", "tables", "bracket", "seeds", "player"}
_LABELS = {
    "team_a_wins": "left team's games",
    "team_b_wins": "right team's games",
    "draws": "drawn games",
    "confirmed": "confirmed",
    "result_kind": "result",
    "dropped_after_round": "dropped after round",
    "drop_reason": "drop reason",
}


@dataclass(frozen=True)
class AuditLine:
    entry: AuditEntry
    sentence: str
    changes: list[str]


def _value(value: Any) -> str:
    if value is None or value == "":
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_value(item) for item in value) or "none"
    return str(value)


def _changes(before: Any, after: Any) -> list[str]:
    before = before if isinstance(before, dict) else {}
    after = after if isinstance(after, dict) else {}
    lines = []
    for key in [*before, *(k for k in after if k not in before)]:
        if key in _HIDDEN:
            continue
        old, new = before.get(key), after.get(key)
        if old == new or isinstance(old, dict) or isinstance(new, dict):
            continue
        label = _LABELS.get(key, key.replace("_", " "))
        if key not in before:
            lines.append(f"{label}: {_value(new)}")
        elif key not in after:
            lines.append(f"{label} was {_value(old)}")
        else:
            lines.append(f"{label}: {_value(old)} → {_value(new)}")
    return lines


def audit_lines(
    entries: list[AuditEntry],
    *,
    rounds: dict[int, int],
    matches: dict[int, tuple[int, int | None]],
    teams: dict[int, str],
) -> list[AuditLine]:
    """``rounds``: round id → number; ``matches``: match id → (round number, table); ``teams``:
    team id → name (the reads the audit page makes once for the whole page)."""
    lines = []
    for entry in entries:
        values = (
            {**(entry.before or {}), **(entry.after or {})}
            if isinstance(entry.after or {}, dict) and isinstance(entry.before or {}, dict)
            else {}
        )
        object_id = (
            int(entry.object_id)
            if str(entry.object_id).isascii() and str(entry.object_id).isdigit()
            else None
        )
        round_number: Any = values.get("number") or values.get("round")
        table: Any = None
        if entry.object_type == "round" and round_number is None and object_id is not None:
            round_number = rounds.get(object_id, "?")
        if entry.object_type == "match" and object_id is not None and object_id in matches:
            round_number, table = matches[object_id]
        team = (
            teams.get(object_id, values.get("name", "?"))
            if entry.object_type == "team"
            else values.get("name", "?")
        )
        if entry.object_type == "player":
            team = "?"
        template = _SENTENCES.get(entry.action)
        if template is None:
            start = entry.action.replace(".", " ").replace("_", " ").capitalize()
        else:
            start = template.format(
                round=round_number if round_number is not None else "?",
                team=f"“{team}”",
                table=table if table is not None else "?",
                who=values.get("username", "someone"),
            )
        who = entry.actor.username if entry.actor_id else "the system"
        when = timezone.localtime(entry.created_at).strftime("%H:%M")
        lines.append(AuditLine(entry, f"{start} by {who} at {when}", _changes(entry.before, entry.after)))
    return lines
