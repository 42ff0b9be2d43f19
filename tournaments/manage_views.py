"""The staff's pages: the manage page (teams, rounds, results) and the round and result writes it
posts to. Same rules as ``views``: one service call per POST, then a redirect; a refusal renders
the page again with the service's words and its 4xx status.

The team desk's writes are in ``manage_team_views``, the event's settings, staff and audit log in
``manage_event_views``; all three check the reader with ``page_access.staff_event``, and a refused
desk write renders the manage page again through ``render_manage``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from common.errors import DomainError
from common.i18n import localize
from common.translatable import from_data
from tournaments.domain import games_to_win
from tournaments.enums import Format, ResultKind, RoundKind, StaffRole, TournamentStatus
from tournaments.forms import (
    MatchResultForm,
    PodsSeatForm,
    TeamRegisterForm,
    TeamsImportForm,
    result_choice,
)
from tournaments.models import Match, Round, Tournament
from tournaments.page_access import staff_event
from tournaments.permissions import staff_role
from tournaments.read_models import (
    pairings_by_table,
)
from tournaments.rules import (
    can_check_decks,
    can_manage_event,
    can_run_event,
)
from tournaments.selectors import (
    draft_team_ids,
    pod_rematch_warning,
    pods_for_draft,
    teams_for,
    teams_without_decklists,
)
from tournaments.services.cut import cut_build
from tournaments.services.participation import drop_undoable
from tournaments.services.pods import pods_seat
from tournaments.services.results import match_result_report
from tournaments.services.rounds import (
    UNCHECKED_CHOICES,
    round_delete,
    round_pair,
    round_publish,
    unfinished_tables,
)
from tournaments.views import round_label, round_matches
from tournaments.views_teams import manage_context

#: How the Swiss engine names teams in its explanation lines ("Team 12 (3 points) paired down to team 7").
TEAM_REFERENCE = re.compile(r"\b([Tt]eam) (\d+)\b")


def result_status(match: Match) -> str:
    """Who reported the row's result and whether it counts yet (only confirmed results count)."""
    if not match.has_result:
        return _("Not yet reported")
    if match.disputed:
        return _("Disputed: the teams reported different results")
    side = match.reported_side
    if match.reported_by:
        who = match.reported_by.username
        if side:
            who = _("%(name)s (a team %(side)s player)") % {"name": who, "side": side}
    else:
        who = _("the result slip's holder (for team %(side)s)") % {"side": side} if side else _("staff")
    if match.confirmed:
        return _("Reported by %(who)s, confirmed") % {"who": who}
    return _("Reported by %(who)s, waiting for confirmation") % {"who": who}


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


def result_state(match: Match) -> str:
    """Where a table's result stands: ``pending``, ``waiting`` (a team's report waits for the
    other team), ``disputed`` or ``confirmed``."""
    if match.confirmed:
        return "confirmed"
    if match.disputed:
        return "disputed"
    return "waiting" if match.has_result else "pending"


def _table_states(played: list[Match]) -> dict:
    """How many tables are confirmed and waiting, and which are disputed, for the staff's summary."""
    states = [result_state(m) for m in played]
    return {
        "confirmed": states.count("confirmed"),
        "waiting": states.count("waiting"),
        "disputed": [m.table for m, state in zip(played, states, strict=True) if state == "disputed"],
    }


#: The Key box's letter for each result (static/js/results_grid.js maps them back).
RESULT_KEYS = {"a": "1", "b": "2", "draw": "D", "id": "I"}


def _result_row(
    match: Match, *, playoff: bool, message: str = "", failed: bool = False, chosen: str = ""
) -> dict:
    """One table of the results form: the match, who reported it, the choice it shows and what the
    last save said. ``chosen``: the result the scorekeeper picked in a save refused for want of a
    reason, which the row keeps while it asks for the reason (saving again saves that choice). A
    playoff row offers no draw (MTR 2.4: a playoff match needs a winner)."""
    choice = chosen or result_choice(
        team_a_wins=match.team_a_wins,
        team_b_wins=match.team_b_wins,
        draws=match.draws,
        has_result=match.has_result,
    )
    return {
        "match": match,
        "state": result_state(match),
        "status": result_status(match),
        "choice": choice,
        "key": RESULT_KEYS.get(chosen, ""),
        "allow_draw": not playoff,
        "message": message,
        "failed": failed,
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
        failed_id, failed_message, chosen = row_message or (None, "", "")
        playoff = current_round.kind == RoundKind.PLAYOFF
        grid = {
            "rows": [
                _result_row(m, playoff=playoff, message=failed_message, failed=True, chosen=chosen)
                if m.pk == failed_id
                else _result_row(m, playoff=playoff)
                for m in played
            ],
            "byes": [m for m in matches if m.is_bye],
            "total": len(played),
            "reported": sum(1 for m in played if m.has_result),
            "states": _table_states(played),
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


@login_required
def tournament_manage(request, tournament_id: int):
    return render_manage(request, staff_event(request, tournament_id))


def refused(request, tournament: Tournament, error: DomainError):
    return render_manage(request, tournament, status=error.status_code, error=error.message)


@login_required
@require_POST
def round_pair_view(request, tournament_id: int):
    """Pair the next round; for round 1 of an event requiring check-in, a team not checked in
    makes the page ask the organizer to drop those teams or pair them anyway (nothing silent)."""
    tournament = staff_event(request, tournament_id, "can_run_event")
    unchecked = request.POST.get("unchecked") or None
    if unchecked not in (None, *UNCHECKED_CHOICES):
        unchecked = None
    try:
        paired = round_pair(tournament=tournament, actor=request.user, unchecked=unchecked)
    except DomainError as error:
        unchecked_teams = error.extra.get("unchecked_teams", ())
        return render_manage(
            request,
            tournament,
            status=error.status_code,
            error=_("Round 1 is not paired yet: some teams have not checked in. Choose below.")
            if unchecked_teams
            else error.message,
            unchecked_teams=unchecked_teams,
        )
    messages.success(
        request, _("Round %(number)s paired. Check it, then publish it.") % {"number": paired.number}
    )
    return redirect("tournament-manage", tournament_id=tournament.id)


@login_required
@require_POST
def round_publish_view(request, tournament_id: int, round_id: int):
    tournament = staff_event(request, tournament_id, "can_run_event")
    target = get_object_or_404(Round, pk=round_id, tournament=tournament)
    try:
        published = round_publish(round_row=target, actor=request.user)
    except DomainError as error:
        return refused(request, tournament, error)
    messages.success(
        request, _("Round %(number)s published: players can see their tables.") % {"number": published.number}
    )
    return redirect("tournament-manage", tournament_id=tournament.id)


@login_required
@require_POST
def round_delete_view(request, tournament_id: int, round_id: int):
    tournament = staff_event(request, tournament_id, "can_run_event")
    target = get_object_or_404(Round, pk=round_id, tournament=tournament)
    number = target.number
    try:
        round_delete(round_row=target, actor=request.user)
    except DomainError as error:
        return refused(request, tournament, error)
    messages.success(request, _("Round %(number)s deleted. Pair it again when ready.") % {"number": number})
    return redirect("tournament-manage", tournament_id=tournament.id)


@login_required
@require_POST
def pods_seat_view(request, tournament_id: int):
    """Seat the teams in random pods for the next draft (a form; works without JavaScript)."""
    tournament = staff_event(request, tournament_id, "can_run_event")
    form = PodsSeatForm(request.POST)
    if not form.is_valid():
        return render_manage(
            request, tournament, status=400, error=_("Give the number of the draft to seat.")
        )
    try:
        pods = pods_seat(
            tournament=tournament,
            actor=request.user,
            draft=form.cleaned_data["draft"],
            single_pod=form.cleaned_data["single_pod"],
        )
    except DomainError as error:
        return refused(request, tournament, error)
    messages.success(
        request,
        _("Draft %(draft)s: teams seated in %(pods)s pods.")
        % {"draft": form.cleaned_data["draft"], "pods": len(pods)},
    )
    return redirect("tournament-manage", tournament_id=tournament.id)


@login_required
@require_POST
def cut_build_view(request, tournament_id: int):
    tournament = staff_event(request, tournament_id, "can_run_event")
    try:
        playoff = cut_build(tournament=tournament, actor=request.user)
    except DomainError as error:
        return refused(request, tournament, error)
    messages.success(
        request,
        _("Top cut built: round %(number)s is paired. Check it, then publish it.")
        % {"number": playoff.number},
    )
    return redirect("tournament-manage", tournament_id=tournament.id)


def is_htmx(request) -> bool:
    """Whether htmx sent the request (it wants the fragment, not the page)."""
    return request.headers.get("HX-Request") == "true"


@login_required
@require_POST
def match_result_view(request, tournament_id: int, match_id: int):
    """A scorekeeper enters one table's result from the manage page (a plain form; with JS the
    keyboard grid submits the same form and swaps in the row this view answers with)."""
    tournament = staff_event(request, tournament_id, "can_run_event")
    match = get_object_or_404(
        Match.objects.public().select_related("round", "team_a", "team_b", "reported_by"),
        pk=match_id,
        round__tournament=tournament,
    )
    match, status, message = staff_result_entry(
        request, tournament, match, _("Choose the result: left team wins, right team wins or a draw.")
    )
    chosen = request.POST.get("result", "") if status == 400 else ""
    chosen = chosen if chosen in dict(MatchResultForm.RESULT_CHOICES) else ""
    playoff = match.round.kind == RoundKind.PLAYOFF
    saved = _("Saved %(a)s-%(b)s-%(draws)s") % {
        "a": match.team_a_wins,
        "b": match.team_b_wins,
        "draws": match.draws,
    }
    if is_htmx(request):
        context = {
            "tournament": tournament,
            "row": _result_row(
                match, playoff=playoff, message=message or saved, failed=bool(message), chosen=chosen
            ),
            "can_write": True,
            "can_deck_check": can_check_decks(request.user, tournament),
            "counter": _results_counter(match.round),
        }
        return render(request, "tournaments/_result_row.html", context, status=status)
    if message:
        return render_manage(
            request,
            tournament,
            status=status,
            error=_("Table %(table)s: %(message)s") % {"table": match.table, "message": message},
            row_message=(match.pk, message, chosen),
        )
    messages.success(request, _("Table %(table)s: %(message)s.") % {"table": match.table, "message": saved})
    return redirect(f"{reverse('tournament-manage', args=[tournament.id])}#results-heading")


def staff_result_entry(request, tournament: Tournament, match: Match, invalid: str) -> tuple[Match, int, str]:
    """A result staff entered through a ``MatchResultForm`` (the manage page's row, a paper slip):
    the match as it now stands, the status to answer and what went wrong (``invalid`` for a form
    without a result)."""
    form = MatchResultForm(request.POST)
    if not form.is_valid():
        return match, 400, invalid
    try:
        match = match_result_report(
            match=match,
            actor=request.user,
            version=form.cleaned_data["version"],
            reason=form.cleaned_data["reason"],
            **form.games(games_to_win(tournament.games_per_match)),
        )
    except DomainError as error:
        match.refresh_from_db()
        return match, error.status_code, result_refusal(error)
    return match, 200, ""


def result_refusal(error: DomainError) -> str:
    """The refusal in the scorekeeper's words (no internal field names)."""
    if any(item.get("field") == "reason" for item in error.errors):
        return _("This result is confirmed: give a reason to change it (kept in the audit log).")
    if error.status_code == 409 and "match" in error.extra:
        current = error.extra["match"]
        return _(
            "Someone else changed this result: it is now %(a)s-%(b)s-%(draws)s. Check it, then save again."
        ) % {"a": current["team_a_wins"], "b": current["team_b_wins"], "draws": current["draws"]}
    return error.message


def _results_counter(round_obj: Round) -> dict:
    played = Match.objects.filter(round=round_obj, team_b__isnull=False)
    return {"total": played.count(), "reported": played.exclude(result_kind=ResultKind.PENDING).count()}
