"""The audit log in sentences: "Round 1 paired by orga at 14:02", and before → after of the fields
that changed, with rounds by number and teams by name instead of database ids."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.i18n import localize
from common.translatable import from_data
from tournaments.hooks import audit_value_label
from tournaments.models import AuditEntry

#: What each action did, as a sentence start; ``%(round)s``, ``%(team)s``, ``%(table)s``,
#: ``%(who)s`` are filled from the entry's object and values (translated when shown).
_SENTENCES = {
    "tournament_create": gettext_lazy("Event created"),
    "tournament_update": gettext_lazy("Event settings changed"),
    "staff_add": gettext_lazy("%(who)s added to the staff"),
    "staff_role_change": gettext_lazy("%(who)s's staff role changed"),
    "staff_remove": gettext_lazy("%(who)s removed from the staff"),
    "team_register": gettext_lazy("Team %(team)s registered"),
    "team_drop": gettext_lazy("Team %(team)s dropped"),
    "team_drop_undo": gettext_lazy("Team %(team)s's drop undone"),
    "team_update": gettext_lazy("Team %(team)s corrected"),
    "team_disqualify": gettext_lazy("Team %(team)s disqualified"),
    "team_reinstate": gettext_lazy("Team %(team)s reinstated"),
    "team_reinstate_late_entry": gettext_lazy("Team %(team)s reinstated as a late entry"),
    "player_account_link": gettext_lazy("An account linked to a player of team %(team)s"),
    "invitation_send": gettext_lazy("A player invited to team %(team)s"),
    "invitation_accept": gettext_lazy("A player joined team %(team)s"),
    "invitation_decline": gettext_lazy("An invitation to team %(team)s declined"),
    "invitation_cancel": gettext_lazy("An invitation to team %(team)s cancelled"),
    "team_check_in": gettext_lazy("Team %(team)s checked in"),
    "team_check_in_undo": gettext_lazy("Team %(team)s's check-in taken back"),
    "pool_join": gettext_lazy("A player joined the partner pool"),
    "pool_leave": gettext_lazy("A player left the partner pool"),
    "pool_form_teams": gettext_lazy("Teams formed from the partner pool"),
    "pods_seat": gettext_lazy("Draft pods seated"),
    "round_pair": gettext_lazy("Round %(round)s paired"),
    "round_pair_manual": gettext_lazy("Round %(round)s paired by hand"),
    "round_publish": gettext_lazy("Round %(round)s published"),
    "round_delete": gettext_lazy("Round %(round)s deleted to be paired again"),
    "cut_build": gettext_lazy("Top cut built as round %(round)s"),
    "match_result_correct": gettext_lazy("Result of table %(table)s, round %(round)s corrected"),
    "match_result_decide": gettext_lazy("Disputed result of table %(table)s, round %(round)s decided"),
    "match_result_end_of_round": gettext_lazy(
        "Result of table %(table)s, round %(round)s entered at the end of the round"
    ),
    "match_result_disputed": gettext_lazy(
        "Teams reported different results at table %(table)s, round %(round)s"
    ),
    "match_penalty_result": gettext_lazy("Penalty result imposed at table %(table)s, round %(round)s"),
    "match_penalty_result_clear": gettext_lazy("Penalty result cleared at table %(table)s, round %(round)s"),
    "match_seats_set": gettext_lazy("Seats chosen at table %(table)s, round %(round)s"),
    "match.time_extension": gettext_lazy("Time extension at table %(table)s, round %(round)s"),
    "match.time_called": gettext_lazy("Time called at table %(table)s, round %(round)s"),
    "match.turn_completed": gettext_lazy("Extra turn done at table %(table)s, round %(round)s"),
    "round.clock_start": gettext_lazy("Round %(round)s's clock started"),
    "round.clock_pause": gettext_lazy("Round %(round)s's clock paused"),
    "round.clock_resume": gettext_lazy("Round %(round)s's clock resumed"),
    "round.time_up": gettext_lazy("Round %(round)s's time is up"),
    "round.extra_turns": gettext_lazy("Tables of round %(round)s went into extra turns"),
    "decklist_submit_for_player": gettext_lazy("A decklist entered by staff"),
    "decklist_change_after_deadline": gettext_lazy("A decklist changed after the deadline"),
    "pool_register_for_team": gettext_lazy("A team's pool entered by staff"),
    "pool_change_after_deadline": gettext_lazy("A team's pool changed after the deadline"),
    "penalty_issue": gettext_lazy("Penalty recorded"),
    "penalty_overturn": gettext_lazy("Penalty overturned on appeal"),
    "penalty_disqualification_confirm": gettext_lazy("Disqualification confirmed by the head judge"),
    "penalty_disqualification_change": gettext_lazy("Disqualification changed by the head judge"),
    "deck_check_start": gettext_lazy("Deck check started"),
    "deck_check_finish": gettext_lazy("Deck check finished"),
    "deck_check_finding": gettext_lazy("Deck check finding recorded"),
    "zone.create": gettext_lazy("Zone added"),
    "zone.delete": gettext_lazy("Zone removed"),
    "judge_call.raise": gettext_lazy("Judge called"),
    "judge_call.claim": gettext_lazy("Judge call claimed"),
    "judge_call.escalate": gettext_lazy("Judge call escalated"),
    "judge_call.resolve": gettext_lazy("Judge call resolved"),
    "note.add": gettext_lazy("Judge's note added"),
    "note.lock": gettext_lazy("Judge's note locked"),
    "investigation.open": gettext_lazy("Investigation opened"),
    "investigation.decide": gettext_lazy("Investigation decided"),
    "dq_report.file": gettext_lazy("Disqualification report filed"),
}
#: Values that are database ids or bookkeeping, never shown as a change.
_HIDDEN = {"id", "version", "reported_by", "team_a", "team_b", "seed", "tables", "bracket", "seeds", "player"}
_LABELS = {
    "team_a_wins": gettext_lazy("left team's games"),
    "team_b_wins": gettext_lazy("right team's games"),
    "draws": gettext_lazy("drawn games"),
    "confirmed": gettext_lazy("confirmed"),
    "result_kind": gettext_lazy("result"),
    "dropped_after_round": gettext_lazy("dropped after round"),
    "registered_after_round": gettext_lazy("registered after round"),
    "drop_reason": gettext_lazy("drop reason"),
    "checked_in_at": gettext_lazy("checked in at"),
    "infraction": gettext_lazy("infraction"),
    "penalty": gettext_lazy("penalty"),
    "proposed_penalty": gettext_lazy("proposed penalty"),
    "deviated": gettext_lazy("deviated"),
    "match_point_adjustment": gettext_lazy("match point adjustment"),
    "kind": gettext_lazy("kind"),
    "card": gettext_lazy("card"),
    "count": gettext_lazy("count"),
    "name": gettext_lazy("name"),
    "role": gettext_lazy("role"),
    "format": gettext_lazy("format"),
    "rel": gettext_lazy("REL"),
    "reason": gettext_lazy("reason"),
    "username": gettext_lazy("account"),
    "players": gettext_lazy("players"),
    "number": gettext_lazy("round"),
    "first_table": gettext_lazy("first table"),
    "last_table": gettext_lazy("last table"),
    "minutes": gettext_lazy("minutes"),
    "active_team": gettext_lazy("active team"),
    "time_called_at": gettext_lazy("time called at"),
    "published_at": gettext_lazy("published at"),
    "started_at": gettext_lazy("started at"),
}


@dataclass(frozen=True)
class AuditLine:
    entry: AuditEntry
    sentence: str
    changes: list[str]


def _is_message(value: Any) -> bool:
    """A message kept with its msgid and values (``common.translatable.as_data``)."""
    return isinstance(value, dict) and set(value) == {"msgid", "values"}


def _value(value: Any, key: str = "") -> str:
    if value is None or value == "":
        return _("none")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):
        return ", ".join(_value(item, key) for item in value) or _("none")
    if _is_message(value):
        return localize(from_data(value))
    return audit_value_label(key, value) or str(value)


def _changes(before: Any, after: Any) -> list[str]:
    before = before if isinstance(before, dict) else {}
    after = after if isinstance(after, dict) else {}
    lines = []
    for key in [*before, *(k for k in after if k not in before)]:
        if key in _HIDDEN:
            continue
        old, new = before.get(key), after.get(key)
        if old == new or any(isinstance(v, dict) and not _is_message(v) for v in (old, new)):
            continue
        label = _LABELS.get(key, key.replace("_", " "))
        if key not in before:
            lines.append(f"{label}: {_value(new, key)}")
        elif key not in after:
            lines.append(_("%(label)s was %(value)s") % {"label": label, "value": _value(old, key)})
        else:
            lines.append(f"{label}: {_value(old, key)} → {_value(new, key)}")
    return lines


def audit_lines(
    entries: list[AuditEntry],
    *,
    rounds: dict[int, int],
    matches: dict[int, tuple[int, int | None]],
    teams: dict[int, str],
    player_teams: dict[int, str] | None = None,
) -> list[AuditLine]:
    """``rounds``: round id → number; ``matches``: match id → (round number, table); ``teams``:
    team id → name; ``player_teams``: player id → their team's name (the reads the audit page
    makes once for the whole page). The time of day is the page's, next to the date."""
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
            team = (player_teams or {}).get(object_id or 0, "?")
        template = _SENTENCES.get(entry.action)
        if template is None:
            start = entry.action.replace(".", " ").replace("_", " ").capitalize()
        else:
            start = template % {
                "round": round_number if round_number is not None else "?",
                "team": f"“{team}”",
                "table": table if table is not None else "?",
                "who": values.get("username", _("someone")),
            }
        who = entry.actor.username if entry.actor_id else _("the system")
        sentence = _("%(what)s by %(who)s") % {"what": start, "who": who}
        lines.append(AuditLine(entry, sentence, _changes(entry.before, entry.after)))
    return lines
