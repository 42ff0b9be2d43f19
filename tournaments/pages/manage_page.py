"""The staff's manage page (``tournaments/manage.html``) as several audiences render it: the
manage, team desk, pool and manual pairing pages, which render it again with the service's words
when a service refuses (``refused``). Its parts: the round buttons the event's state allows, the
pairing's explanation with teams by name, the results form, the draft's pods, the pool.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.shortcuts import render
from django.utils.translation import gettext as _

from common.errors import DomainError
from common.i18n import localize
from common.translatable import from_data
from tournaments.domain.report_view import ReportState, ReportView
from tournaments.enums import Format, RoundKind, StaffRole, TournamentStatus
from tournaments.forms import TeamRegisterForm, TeamsImportForm
from tournaments.models import Match, Round, Tournament
from tournaments.pages.common import round_label, round_matches
from tournaments.pages.staff_results import result_row, staff_views
from tournaments.permissions import staff_role
from tournaments.read_models import pairings_by_table
from tournaments.rules import (
    can_check_decks,
    can_form_pool_teams,
    can_manage_event,
    can_pair_by_hand,
    can_run_event,
)
from tournaments.selectors import (
    draft_team_ids,
    pod_rematch_warning,
    pods_for_draft,
    pool_for,
    teams_for,
    teams_without_decklists,
)
from tournaments.services.participation import drop_undoable
from tournaments.services.rounds import unfinished_tables

#: How the Swiss engine names teams in its explanation lines ("Team 12 (3 points) paired down to team 7").
TEAM_REFERENCE = re.compile(r"\b([Tt]eam) (\d+)\b")


def _explanation_lines(explanation: dict, team_names: dict[int, str]) -> list[str]:
    """The pairing's written explanation in the reader's language, teams by name.

    A round paired since the explanation was kept as messages (``services.rounds.explanation_lines``)
    is translated, its team ids (the values named ``team…``) replaced by the teams' names; an older
    round shows its English lines, the engine's "team 12" replaced by the name."""
    if "messages" in explanation:
        return [localize(from_data(_with_team_names(line, team_names))) for line in explanation["messages"]]

    def name(found: re.Match) -> str:
        team_id = int(found.group(2))
        return f"{found.group(1)} {team_names[team_id]}" if team_id in team_names else found.group(0)

    return [TEAM_REFERENCE.sub(name, str(line)) for line in explanation.get("lines", [])]


def _with_team_names(message: Any, team_names: dict[int, str]) -> Any:
    """A stored message (``as_data``) with each team id among its values replaced by the name."""
    if not isinstance(message, dict):
        return message
    values = {
        key: team_names.get(value, value)
        if key.startswith("team") and isinstance(value, int)
        else _with_team_names(value, team_names)
        for key, value in message["values"].items()
    }
    return {"msgid": message["msgid"], "values": values}


@dataclass(frozen=True)
class RoundActions:
    """The round buttons the event's state allows right now: a button is offered only if its
    service would accept it, so no press is answered with a refusal."""

    pair: str = ""  # the button's label, "" when pairing is not possible now
    publish: bool = False
    delete: bool = False
    cut: bool = False


def _round_actions(tournament: Tournament, current: Round | None, matches: list[Match]) -> RoundActions:
    if tournament.status == TournamentStatus.FINISHED:
        return RoundActions()
    if current is None:
        cut = tournament.swiss_rounds == 0 and bool(tournament.top_cut)
        return RoundActions(pair="" if cut else _("Pair round 1"), cut=cut)
    has_results = any(m.has_result for m in matches if not m.is_bye)
    published = current.is_public
    complete = published and not unfinished_tables(current)
    publish, delete = not published, not has_results
    if current.kind == RoundKind.PLAYOFF:
        more = complete and len(matches) > 1
        return RoundActions(
            pair=_("Pair playoff round %(number)s") % {"number": current.number + 1} if more else "",
            publish=publish,
            delete=delete,
        )
    swiss_left = tournament.swiss_rounds is None or current.number < tournament.swiss_rounds
    return RoundActions(
        pair=_("Pair round %(number)s") % {"number": current.number + 1} if complete and swiss_left else "",
        publish=publish,
        delete=delete,
        cut=complete and not swiss_left and bool(tournament.top_cut),
    )


def manual_pairing_number(tournament: Tournament, current: Round | None, matches: list[Match]) -> int | None:
    """The Swiss round the organizer may pair by hand now (when the engine's "pair" would be
    offered for one), else None."""
    if not _round_actions(tournament, current, matches).pair:
        return None
    if current is not None and current.kind != RoundKind.SWISS:
        return None
    return current.number + 1 if current is not None else 1


def _table_states(played: list[Match], views: dict[int, ReportView]) -> dict:
    """How many tables are settled (confirmed, or decided by a penalty) and waiting, and which are
    disputed, for the staff's summary."""
    states = [views[m.pk].state for m in played]
    return {
        "confirmed": sum(1 for m in played if views[m.pk].settled),
        "waiting": states.count(ReportState.WAITING),
        "disputed": [
            m.table for m, state in zip(played, states, strict=True) if state == ReportState.DISPUTED
        ],
    }


def render_manage(
    request,
    tournament: Tournament,
    *,
    status=200,
    error="",
    team_form=None,
    row_message: tuple[int, str, str] | None = None,
    import_form=None,
    import_errors=(),
    unchecked_teams=(),
):
    current_round = tournament.rounds.newest()
    matches = round_matches(current_round) if current_round else []
    pending_only = request.GET.get("pending") == "1"
    teams = list(teams_for(tournament))
    latest_number = current_round.number if current_round else 0
    undoable = {team.pk for team in teams if drop_undoable(team, latest_number)}
    reinstatable = {
        team.pk for team in teams if latest_number and team.dropped_after_round == 0 and not team.disqualified
    }
    grid = None
    if current_round and current_round.is_public:
        played = [m for m in matches if not m.is_bye]
        views = staff_views(played)
        failed_id, failed_message, chosen = row_message or (None, "", "")
        playoff = current_round.kind == RoundKind.PLAYOFF
        grid = {
            "rows": [
                result_row(
                    m, views[m.pk], playoff=playoff, message=failed_message, failed=True, chosen=chosen
                )
                if m.pk == failed_id
                else result_row(m, views[m.pk], playoff=playoff)
                for m in played
            ],
            "byes": [m for m in matches if m.is_bye],
            "total": len(played),
            "reported": sum(1 for m in played if m.has_result),
            "states": _table_states(played, views),
        }
    actions = _round_actions(tournament, current_round, matches)
    context = {
        "tournament": tournament,
        "role_label": _role_label(request.user, tournament),
        "can_write": can_run_event(request.user, tournament),
        "can_deck_check": can_check_decks(request.user, tournament),
        "is_organizer": can_manage_event(request.user, tournament),
        "teams": teams,
        "undoable_drops": undoable,
        "reinstatable": reinstatable,
        "team_form": team_form or TeamRegisterForm(team_size=tournament.team_size),
        "import_form": import_form or TeamsImportForm(),
        "import_errors": import_errors,
        "current_round": current_round,
        "round_label": round_label(tournament, current_round),
        "actions": actions,
        "round_has_results": any(m.has_result for m in matches if not m.is_bye),
        # The pre-publish check shows the points the pairing used (docs/rules.md#pairings-sheets).
        "pairing_rows": pairings_by_table(current_round) if current_round else [],
        "explanation": _explanation_lines(current_round.explanation, {t.id: t.name for t in teams})
        if current_round
        else [],
        "grid": grid,
        "pending_only": pending_only,
        "error": error,
        "pods": _pod_rows(tournament, {t.id: t for t in teams}),
        "unchecked_teams": unchecked_teams,
        "teams_without_decklists": teams_without_decklists(tournament) if actions.pair else [],
        "manual_round": manual_pairing_number(tournament, current_round, matches)
        if can_pair_by_hand(request.user, tournament)
        else None,
        **manage_context(request, tournament),
    }
    return render(request, "tournaments/manage.html", context, status=status)


def _pod_rows(tournament: Tournament, teams: dict) -> dict | None:
    """The latest draft's pods with team names in seat order, for a Booster Draft event."""
    if tournament.format != Format.DRAFT:
        return None
    pods = pods_for_draft(tournament)
    return {
        "draft": pods[0].draft if pods else None,
        "next_draft": (pods[0].draft + 1) if pods else 1,
        "warning": pod_rematch_warning(tournament, len(draft_team_ids(tournament))),
        "pods": [
            {
                "number": pod.number,
                "teams": [teams[t].name if t in teams else f"team {t}" for t in pod.team_ids],
            }
            for pod in pods
        ],
    }


def _role_label(user, tournament: Tournament) -> str:
    """Superusers pass every role check without a staff row: they are support staff here."""
    role = staff_role(user, tournament)
    return str(StaffRole(role).label).lower() if role else _("support staff")


def manage_context(request, tournament: Tournament) -> dict:
    """The manage page's part: the pool, and whether staff may tick check-ins."""
    return {
        "pool_entries": list(pool_for(tournament)),
        "may_form_pool": can_form_pool_teams(request.user, tournament),
        "may_tick_check_in": tournament.check_in_required and can_run_event(request.user, tournament),
    }


def refused(request, tournament: Tournament, error: DomainError):
    return render_manage(request, tournament, status=error.status_code, error=error.message)
