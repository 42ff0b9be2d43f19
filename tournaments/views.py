"""HTML pages: thin adapters that read through selectors, write through one service call each.

Write views take a POST, call a single service and redirect with a message (post/redirect/get), so a
reload never repeats an action. When the service refuses (``DomainError``), the page is rendered
again with the service's message and a 4xx status instead of a redirect, so the refusal is visible
and testable. The only logic here is presentation: seat order, search filtering and table layout.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from common.errors import DomainError
from tournaments.audit_text import audit_lines
from tournaments.domain import games_to_win
from tournaments.enums import Format, ResultKind, RoundKind, StaffRole, TournamentStatus
from tournaments.forms import (
    MatchResultForm,
    PodsSeatForm,
    PrimaryPlayerForm,
    ReasonForm,
    StaffAddForm,
    TeamRegisterForm,
    TeamsImportForm,
    TournamentCreateForm,
    TournamentSettingsForm,
    add_domain_errors,
    result_choice,
)
from tournaments.models import Match, Player, Round, Staff, Team, Tournament
from tournaments.page_cache import public_page
from tournaments.permissions import (
    ALL_STAFF,
    ORGANIZER,
    SCOREKEEPING,
    player_team_id,
    staff_role,
)
from tournaments.read_models import (
    Side,
    final_standings,
    finished_final,
    match_outcome,
    pairings_by_table,
    seated_side,
    standings_rows,
)
from tournaments.report_blocks import me_report_block
from tournaments.rules import (
    RULES,
    can_check_decks,
    can_create_events,
    can_manage_event,
    can_run_event,
    is_event_staff,
)
from tournaments.selectors import (
    matches_for_round,
    pods_for_draft,
    round_detail,
    rounds_for,
    staff_for,
    standings_for,
    teams_for,
    tournaments_listed,
    tournaments_staffed_by,
)
from tournaments.services.cut import cut_build
from tournaments.services.events import staff_add, staff_remove, tournament_create, tournament_update
from tournaments.services.invitations import account_link_invite
from tournaments.services.pods import pods_seat
from tournaments.services.results import match_result_report
from tournaments.services.rounds import (
    UNCHECKED_CHOICES,
    round_delete,
    round_pair,
    round_publish,
    unfinished_tables,
)
from tournaments.services.seating import match_seats_set
from tournaments.services.teams import (
    PlayerEdit,
    drop_undoable,
    field_label,
    team_drop,
    team_drop_undo,
    team_register,
    team_update,
    teams_import,
)
from tournaments.views_teams import join_context, manage_context, team_context

AUDIT_PAGE_SIZE = 500
#: How the Swiss engine names teams in its explanation lines ("Team 12 (3 points) paired down to team 7").
TEAM_REFERENCE = re.compile(r"\b([Tt]eam) (\d+)\b")


def home(request):
    return render(request, "tournaments/home.html", {"tournaments": tournaments_listed()})


@login_required
def dashboard(request):
    staffed = tournaments_staffed_by(request.user).prefetch_related("staff")
    roles = {
        tournament.id: next(
            s.get_role_display() for s in tournament.staff.all() if s.user_id == request.user.id
        )
        for tournament in staffed
    }
    return render(
        request,
        "tournaments/dashboard.html",
        {"tournaments": [(t, roles[t.id]) for t in staffed], "may_create": can_create_events(request.user)},
    )


@login_required
def tournament_new(request):
    """Accounts the site lets create events (``can_create_events``) create one and become its
    organizer (the service adds the staff row)."""
    if not can_create_events(request.user):
        raise PermissionDenied(
            _(
                "Creating events is for the organizers this site knows: your account may play in events "
                "and be added to an event's staff, but not create one. Ask the site's administrator."
            )
        )
    form = TournamentCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournament_create(actor=request.user, **form.cleaned_data)
        except DomainError as error:
            add_domain_errors(form, error)
        else:
            messages.success(
                request, _("Event “%(name)s” created. Register the teams next.") % {"name": tournament.name}
            )
            return redirect("tournament-manage", tournament_id=tournament.id)
    status = 400 if form.is_bound else 200
    return render(request, "tournaments/create.html", {"form": form}, status=status)


# ---- presentation helpers -------------------------------------------------------------------


def _side(match: Match, letter: str) -> Side | None:
    """One side of ``match`` seated as recorded, from its team's prefetched players (no points)."""
    team = match.team_a if letter == "A" else match.team_b
    players = {team.pk: list(team.players.all())} if team is not None else {}
    return seated_side(match, letter, players, {})


def _standings_context(tournament: Tournament, round_number: int) -> dict:
    rows = standings_rows(standings_for(tournament, through_round=round_number))
    return {
        "round_number": round_number,
        "rows": rows,
        "any_penalty": any(row["penalty_points"] for row in rows),
    }


def _final_context(tournament: Tournament) -> dict | None:
    """After the final's result is in: the winner, the finalist and the final standings (playoff
    places, then Swiss order), the same rows as the final standings PDF."""
    final = finished_final(tournament)
    if final is None:
        return None
    rows = standings_rows(final_standings(tournament, final))
    return {
        "round": final,
        "rows": rows,
        "any_penalty": any(row["penalty_points"] for row in rows),
        "winner": rows[0] if rows else None,
        "finalist": rows[1] if len(rows) > 1 else None,
    }


def _latest_round(tournament: Tournament, *, published_only: bool) -> Round | None:
    rounds = tournament.rounds.order_by("-number")
    if published_only:
        rounds = rounds.public()
    return rounds.first()


def _round_matches(round_obj: Round) -> list[Match]:
    """The round's matches with each team's players (three queries), byes last whatever the
    database does with the empty table number (SQLite sorts it first)."""
    matches = matches_for_round(round_obj).prefetch_related("team_a__players", "team_b__players")
    return sorted(matches, key=lambda match: match.table is None)


# ---- public and player pages ----------------------------------------------------------------


@public_page
def round_page(request, tournament_id: int, number: int):
    """One round's pairings and results, for everyone once it is published (staff: at once)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    staff = is_event_staff(request.user, tournament)
    round_obj = round_detail(tournament, number, include_unpublished=staff)
    if round_obj is None:
        raise Http404(
            _("Round %(number)s of this event is not published (or does not exist).") % {"number": number}
        )
    rows = pairings_by_table(round_obj)
    context = {
        "tournament": tournament,
        "round": round_obj,
        "round_label": _round_label(tournament, round_obj),
        "rows": [(row, match_outcome(row.match)) for row in rows],
        "past_rounds": rounds_for(tournament, include_unpublished=staff),
        "standings": _standings_context(tournament, number)
        if round_obj.kind == RoundKind.SWISS and round_obj.is_finished
        else None,
    }
    return render(request, "tournaments/round.html", context)


@public_page
def team_page(request, tournament_id: int, team_id: int):
    """A team's players, record and every published match: opponents and results."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    team = get_object_or_404(teams_for(tournament), pk=team_id)
    staff = is_event_staff(request.user, tournament)
    matches = (
        Match.objects.filter(round__tournament=tournament)
        .filter(Q(team_a=team) | Q(team_b=team))
        .select_related("round", "team_a", "team_b")
        .order_by("round__number")
    )
    if not staff:
        matches = matches.filter(round__published_at__isnull=False)
    rows = []
    for match in matches:
        outcome = match_outcome(match)
        opponent = match.team_b if match.team_a_id == team.pk else match.team_a
        if opponent is None:
            verdict = _("Bye") if outcome.winner_id else _("Loss")
        elif not (match.has_result and match.confirmed):
            verdict = ""
        elif outcome.winner_id is None:
            verdict = _("Draw")
        else:
            verdict = _("Win") if outcome.winner_id == team.pk else _("Loss")
        rows.append({"match": match, "opponent": opponent, "outcome": outcome, "verdict": verdict})
    record = next((row for row in standings_for(tournament) if row.team_id == team.pk), None)
    context = {"tournament": tournament, "team": team, "rows": rows, "record": record, "is_staff": staff}
    return render(request, "tournaments/team.html", context)


@login_required
def tournament_me(request, tournament_id: int):
    """The logged-in player's team, current table and seat; for a player not on a team yet,
    their invitations, a join code box, a form to create a team and the partner pool."""
    return tournament_me_page(request, get_object_or_404(Tournament, pk=tournament_id))


def tournament_me_page(request, tournament: Tournament, *, status=200, error=""):
    team_id = player_team_id(request.user, tournament)
    if team_id is None:
        context = {
            "tournament": tournament,
            "player": None,
            "error": error,
            **join_context(request, tournament),
        }
        return render(request, "tournaments/me.html", context, status=status)
    return _render_me(request, tournament, team_id, status=status, error=error)


def _render_me(request, tournament: Tournament, team_id: int, *, status=200, error="", report_message=""):
    team = get_object_or_404(teams_for(tournament), pk=team_id)
    player = next(p for p in team.players.all() if p.user_id == request.user.id)
    record = next(
        (row for row in standings_for(tournament) if row.team_id == team_id),
        None,
    )
    final = _final_context(tournament)
    context = {
        "tournament": tournament,
        "team": team,
        "player": player,
        "record": record,
        "final": final,
        "my_place": next((row["rank"] for row in final["rows"] if row["team_id"] == team_id), None)
        if final
        else None,
        "match_info": None if final else _my_match(tournament, team, player),
        "error": error,
        **team_context(request, tournament, team),
    }
    context["report"] = _my_report(tournament, context["match_info"], team_id, report_message)
    return render(request, "tournaments/me.html", context, status=status)


def _my_report(tournament: Tournament, match_info: dict | None, team_id: int, message: str) -> dict | None:
    """The current match's result block (tournaments/_me_report.html); none for a bye."""
    if match_info is None or match_info["is_bye"]:
        return None
    return me_report_block(tournament, match_info["match"], team_id, message=message, failed=bool(message))


def _my_match(tournament: Tournament, team: Team, player: Player) -> dict | None:
    """The team's match in the latest published round, seated as recorded; ``seat_form`` is set
    while the team may still choose its primary (no result yet, time not called)."""
    shown_round = _latest_round(tournament, published_only=True)
    if shown_round is None:
        return None
    match = next(
        (m for m in _round_matches(shown_round) if team.pk in (m.team_a_id, m.team_b_id)),
        None,
    )
    if match is None:
        return None
    mine, theirs = ("A", "B") if match.team_a_id == team.pk else ("B", "A")
    my_side, their_side = _side(match, mine), _side(match, theirs)
    seated = [seat.player for seat in my_side.seats]
    primary = seated[0]
    may_choose = len(seated) > 1 and not match.has_result and match.time_called_at is None
    return {
        "match": match,
        "round_number": shown_round.number,
        "table": match.table,
        "is_bye": match.is_bye,
        "opponents": their_side,
        "i_am_primary": primary.pk == player.pk,
        "primary_name": primary.name,
        "seat_form": PrimaryPlayerForm(players=seated) if may_choose else None,
        "swap_to": seated[1] if may_choose and len(seated) == 2 else None,
    }


@login_required
@require_POST
def match_seats_view(request, tournament_id: int, match_id: int):
    """A player chooses their team's primary for the current match (MTR 9.4(1)); the teammates
    keep their current order behind them."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    team_id = player_team_id(request.user, tournament)
    if team_id is None:
        raise PermissionDenied(_("You are not registered on a team in this event."))
    match = get_object_or_404(
        Match.objects.public()
        .select_related("team_a", "team_b")
        .prefetch_related("team_a__players", "team_b__players"),
        pk=match_id,
        round__tournament=tournament,
    )
    if team_id not in (match.team_a_id, match.team_b_id):
        raise PermissionDenied(_("This is not your team's match."))
    side = _side(match, "A" if match.team_a_id == team_id else "B")
    seated = [seat.player for seat in side.seats]
    form = PrimaryPlayerForm(request.POST, players=seated)
    if not form.is_valid():
        return _render_me(request, tournament, team_id, status=400, error=_("Choose who sits on the right."))
    primary_id = int(form.cleaned_data["primary"])
    order = [primary_id, *(p.pk for p in seated if p.pk != primary_id)]
    try:
        match_seats_set(match=match, actor=request.user, team_id=team_id, player_ids=order)
    except DomainError as error:
        return _render_me(request, tournament, team_id, status=error.status_code, error=error.message)
    primary = next(p for p in seated if p.pk == primary_id)
    messages.success(
        request, _("Recorded: %(name)s is primary and sits on the right.") % {"name": primary.name}
    )
    return redirect("tournament-me", tournament_id=tournament.id)


# ---- staff pages ----------------------------------------------------------------------------


# The staff roles each page rule lets in, so a refused page can say who it is for.
_PAGE_RULE_ROLES = {"is_event_staff": ALL_STAFF, "can_run_event": SCOREKEEPING, "can_manage_event": ORGANIZER}


def _staff_event(request, tournament_id: int, rule: str = "is_event_staff") -> Tournament:
    """The event, if the named rule (``tournaments.rules``) lets the user do this page's work."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not RULES[rule](request.user, tournament):
        roles = _PAGE_RULE_ROLES[rule]
        allowed = ", ".join(StaffRole(role).label.lower() for role in StaffRole.values if role in roles)
        mine = staff_role(request.user, tournament)
        raise PermissionDenied(
            f"This page of “{tournament.name}” is for its {allowed}"
            + (
                f"; you are its {StaffRole(mine).label.lower()}."
                if mine
                else "; your account is not on its staff."
            )
        )
    return tournament


def _result_status(match: Match) -> str:
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
    """The pairing's written explanation, with the engine's "team 12" replaced by the team's name."""

    def name(found: re.Match) -> str:
        team_id = int(found.group(2))
        return f"{found.group(1)} {team_names[team_id]}" if team_id in team_names else found.group(0)

    return [TEAM_REFERENCE.sub(name, str(line)) for line in explanation.get("lines", [])]


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
    published = current.published_at is not None
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


def _round_label(tournament: Tournament, current: Round | None) -> str:
    """ "Round 3 of 5" in the Swiss part, "Round 6: playoff" in the top cut."""
    if current is None:
        return _("Rounds")
    if current.kind == RoundKind.PLAYOFF:
        return _("Round %(number)s: playoff") % {"number": current.number}
    if tournament.swiss_rounds:
        return _("Round %(number)s of %(total)s") % {
            "number": current.number,
            "total": tournament.swiss_rounds,
        }
    return _("Round %(number)s") % {"number": current.number}


def _result_state(match: Match) -> str:
    """Where a table's result stands: ``pending``, ``waiting`` (a team's report waits for the
    other team), ``disputed`` or ``confirmed``."""
    if match.confirmed:
        return "confirmed"
    if match.disputed:
        return "disputed"
    return "waiting" if match.has_result else "pending"


def _table_states(played: list[Match]) -> dict:
    """How many tables are confirmed and waiting, and which are disputed, for the staff's summary."""
    states = [_result_state(m) for m in played]
    return {
        "confirmed": states.count("confirmed"),
        "waiting": states.count("waiting"),
        "disputed": [m.table for m, state in zip(played, states, strict=True) if state == "disputed"],
    }


def _result_row(match: Match, *, message: str = "", failed: bool = False) -> dict:
    """One table of the results form: the match, who reported it, the choice it shows and what the
    last save said."""
    return {
        "match": match,
        "state": _result_state(match),
        "status": _result_status(match),
        "choice": result_choice(
            team_a_wins=match.team_a_wins,
            team_b_wins=match.team_b_wins,
            draws=match.draws,
            has_result=match.has_result,
        ),
        "choices": MatchResultForm.RESULT_CHOICES,
        "message": message,
        "failed": failed,
    }


def _render_manage(
    request,
    tournament: Tournament,
    *,
    status=200,
    error="",
    team_form=None,
    row_message: tuple[int, str] | None = None,
    import_form=None,
    import_errors=(),
    unchecked_teams=(),
):
    current_round = _latest_round(tournament, published_only=False)
    matches = _round_matches(current_round) if current_round else []
    pending_only = request.GET.get("pending") == "1"
    teams = list(teams_for(tournament))
    latest_number = current_round.number if current_round else 0
    undoable = {team.pk for team in teams if drop_undoable(team, latest_number)}
    grid = None
    if current_round and current_round.is_public:
        played = [m for m in matches if not m.is_bye]
        failed_id, failed_message = row_message or (None, "")
        grid = {
            "rows": [
                _result_row(m, message=failed_message, failed=True) if m.pk == failed_id else _result_row(m)
                for m in played
            ],
            "byes": [m for m in matches if m.is_bye],
            "total": len(played),
            "reported": sum(1 for m in played if m.has_result),
            "states": _table_states(played),
        }
    context = {
        "tournament": tournament,
        "role_label": _role_label(request.user, tournament),
        "can_write": can_run_event(request.user, tournament),
        "can_deck_check": can_check_decks(request.user, tournament),
        "is_organizer": can_manage_event(request.user, tournament),
        "teams": teams,
        "undoable_drops": undoable,
        "team_form": team_form or TeamRegisterForm(team_size=tournament.team_size),
        "import_form": import_form or TeamsImportForm(),
        "import_errors": import_errors,
        "current_round": current_round,
        "round_label": _round_label(tournament, current_round),
        "actions": _round_actions(tournament, current_round, matches),
        "round_has_results": any(m.has_result for m in matches if not m.is_bye),
        # The pre-publish check shows the points the pairing used (rules summary 6.1).
        "pairing_rows": pairings_by_table(current_round) if current_round else [],
        "explanation": _explanation_lines(current_round.explanation, {t.id: t.name for t in teams})
        if current_round
        else [],
        "grid": grid,
        "pending_only": pending_only,
        "error": error,
        "pods": _pod_rows(tournament, {t.id: t for t in teams}),
        "unchecked_teams": unchecked_teams,
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
    return StaffRole(role).label.lower() if role else "support staff"


@login_required
def tournament_manage(request, tournament_id: int):
    return _render_manage(request, _staff_event(request, tournament_id))


@login_required
def tournament_settings(request, tournament_id: int):
    """The organizer changes the event's settings; the structure is shown fixed once round 1 is paired."""
    tournament = _staff_event(request, tournament_id, "can_manage_event")
    form = _settings_form(tournament, request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                tournament_update(tournament=tournament, actor=request.user, **form.changes())
            except DomainError as error:
                add_domain_errors(form, error)
                status = error.status_code
            else:
                messages.success(request, _("Event settings saved."))
                return redirect("tournament-manage", tournament_id=tournament.id)
    return _render_settings(request, tournament, form=form, status=status)


def _settings_form(tournament: Tournament, data=None) -> TournamentSettingsForm:
    structure_fixed = tournament.rounds.exists()
    return TournamentSettingsForm(
        data,
        tournament=tournament,
        structure_fixed=structure_fixed,
        team_size_fixed=structure_fixed or tournament.teams.exists(),
    )


def _render_settings(request, tournament: Tournament, *, form=None, staff_form=None, status=200):
    context = {
        "tournament": tournament,
        "form": form or _settings_form(tournament),
        "structure_fixed": tournament.rounds.exists(),
        "staff": staff_for(tournament),
        "staff_form": staff_form or StaffAddForm(),
        "role_choices": StaffAddForm.ROLE_CHOICES,
    }
    return render(request, "tournaments/settings.html", context, status=status)


@login_required
@require_POST
def staff_add_view(request, tournament_id: int):
    """The organizer adds a judge, scorekeeper or head judge by username or e-mail, or changes a role."""
    tournament = _staff_event(request, tournament_id, "can_manage_event")
    form = StaffAddForm(request.POST)
    if form.is_valid():
        try:
            staff = staff_add(tournament=tournament, actor=request.user, **form.cleaned_data)
        except DomainError as error:
            add_domain_errors(form, error)
            return _render_settings(request, tournament, staff_form=form, status=error.status_code)
        messages.success(
            request,
            _("%(name)s is now %(role)s.")
            % {"name": staff.user.username, "role": str(staff.get_role_display()).lower()},
        )
        return redirect(f"{reverse('tournament-settings', args=[tournament.id])}#staff")
    return _render_settings(request, tournament, staff_form=form, status=400)


@login_required
@require_POST
def staff_remove_view(request, tournament_id: int, staff_id: int):
    tournament = _staff_event(request, tournament_id, "can_manage_event")
    staff = get_object_or_404(Staff.objects.select_related("user"), pk=staff_id, tournament=tournament)
    try:
        staff_remove(staff=staff, actor=request.user)
    except DomainError as error:
        messages.error(request, error.message)
        return _render_settings(request, tournament, status=error.status_code)
    messages.success(request, _("%(name)s is no longer on the staff.") % {"name": staff.user.username})
    return redirect(f"{reverse('tournament-settings', args=[tournament.id])}#staff")


@login_required
def tournament_audit(request, tournament_id: int):
    tournament = _staff_event(request, tournament_id)
    entries = list(
        tournament.audit_entries.select_related("actor").order_by("-created_at", "-id")[:AUDIT_PAGE_SIZE]
    )
    lines = audit_lines(
        entries,
        rounds=dict(tournament.rounds.values_list("id", "number")),
        matches={
            match_id: (number, table)
            for match_id, number, table in Match.objects.filter(round__tournament=tournament).values_list(
                "id", "round__number", "table"
            )
        },
        teams=dict(tournament.teams.values_list("id", "name")),
    )
    return render(
        request, "tournaments/audit.html", {"tournament": tournament, "entries": entries, "lines": lines}
    )


def _refused(request, tournament: Tournament, error: DomainError):
    return _render_manage(request, tournament, status=error.status_code, error=error.message)


@login_required
@require_POST
def team_add(request, tournament_id: int):
    tournament = _staff_event(request, tournament_id, "can_run_event")
    form = TeamRegisterForm(request.POST, team_size=tournament.team_size)
    if form.is_valid():
        try:
            team = team_register(
                tournament=tournament,
                actor=request.user,
                name=form.cleaned_data["name"],
                players=form.player_entries(),
                awarded_byes=form.cleaned_data["awarded_byes"] or 0,
            )
        except DomainError as error:
            add_domain_errors(form, error, form.domain_field_map())
            return _render_manage(
                request, tournament, status=error.status_code, error=error.message, team_form=form
            )
        messages.success(request, _("Team “%(name)s” registered.") % {"name": team.name})
        return redirect("tournament-manage", tournament_id=tournament.id)
    return _render_manage(
        request, tournament, status=400, error=_("The team was not registered: see the form."), team_form=form
    )


@login_required
@require_POST
def teams_import_view(request, tournament_id: int):
    """Register many teams from pasted CSV lines; all or nothing, problems listed by line."""
    tournament = _staff_event(request, tournament_id, "can_run_event")
    form = TeamsImportForm(request.POST)
    if not form.is_valid():
        return _render_manage(
            request, tournament, status=400, error=_("Paste at least one team."), import_form=form
        )
    try:
        teams = teams_import(tournament=tournament, actor=request.user, text=form.cleaned_data["csv"])
    except DomainError as error:
        return _render_manage(
            request,
            tournament,
            status=error.status_code,
            error=_("%(problem)s: nothing was saved. Fix the lines below and import again.")
            % {"problem": error.message.split(":")[0]},
            import_form=form,
            import_errors=error.errors,
        )
    messages.success(
        request,
        ngettext("%(count)s team registered.", "%(count)s teams registered.", len(teams))
        % {"count": len(teams)},
    )
    return redirect("tournament-manage", tournament_id=tournament.id)


@login_required
def team_edit(request, tournament_id: int, team_id: int):
    """Correct a team (name, players, fixed table): freely before round 1, with a reason after."""
    tournament = _staff_event(request, tournament_id, "can_run_event")
    team = get_object_or_404(teams_for(tournament), pk=team_id)
    players = list(team.players.all())
    status, errors, values = 200, [], None
    if request.method == "POST":
        data = request.POST
        fixed = data.get("fixed_table", "").strip()
        values = {
            "name": data.get("name", ""),
            "fixed_table": fixed,
            "reason": data.get("reason", ""),
            "players": [
                (
                    p,
                    data.get(f"player_{p.id}_name", ""),
                    data.get(f"player_{p.id}_name_reading", ""),
                    data.get(f"player_{p.id}_wizards_id", ""),
                )
                for p in players
            ],
        }
        if fixed and not fixed.isdigit():
            status, errors = 400, ["fixed table: a table number is 1 or more"]
        else:
            try:
                team_update(
                    team=team,
                    actor=request.user,
                    name=values["name"],
                    players=[PlayerEdit(p.id, n, w, r) for p, n, r, w in values["players"]],
                    fixed_table=int(fixed) if fixed else None,
                    reason=values["reason"],
                )
            except DomainError as error:
                status = error.status_code
                errors = [f"{field_label(e['field'])}: {e['message']}" for e in error.errors] or [
                    error.message
                ]
            else:
                messages.success(
                    request, _("Team “%(name)s” saved.") % {"name": " ".join(values["name"].split())}
                )
                return redirect(f"{reverse('tournament-manage', args=[tournament.id])}#teams")
    values = values or {
        "name": team.name,
        "fixed_table": team.fixed_table or "",
        "reason": "",
        "players": [(p, p.name, p.name_reading, p.wizards_id) for p in players],
    }
    context = {
        "tournament": tournament,
        "team": team,
        "values": values,
        "errors": errors,
        "needs_reason": tournament.rounds.exists(),
    }
    return render(request, "tournaments/team_edit.html", context, status=status)


@login_required
@require_POST
def player_link_view(request, tournament_id: int, team_id: int):
    """Ask an account to be linked to one of the team's registered players, from the team's row:
    linked when its player accepts (DECISIONS.md "Team formation")."""
    tournament = _staff_event(request, tournament_id, "can_run_event")
    team = get_object_or_404(Team, pk=team_id, tournament=tournament)
    player = get_object_or_404(Player, pk=request.POST.get("player") or 0, team=team)
    try:
        invitation = account_link_invite(
            player=player, actor=request.user, username=request.POST.get("username", "")
        )
    except DomainError as error:
        return _refused(request, tournament, error)
    messages.success(
        request,
        _(
            "%(account)s is asked to confirm that they are %(name)s; the account is linked when they "
            "accept on their event page."
        )
        % {"name": player.name, "account": invitation.invitee.username},
    )
    return redirect(f"{reverse('tournament-manage', args=[tournament.id])}#teams")


@login_required
@require_POST
def team_drop_view(request, tournament_id: int, team_id: int):
    tournament = _staff_event(request, tournament_id, "can_run_event")
    team = get_object_or_404(Team, pk=team_id, tournament=tournament)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        return _render_manage(request, tournament, status=400, error=_("Give a reason to drop a team."))
    if request.POST.get("confirm") != "yes":
        latest = _latest_round(tournament, published_only=False)
        context = {
            "tournament": tournament,
            "team": team,
            "reason": form.cleaned_data["reason"],
            "latest": latest,
        }
        return render(request, "tournaments/drop_confirm.html", context)
    try:
        team_drop(team=team, actor=request.user, reason=form.cleaned_data["reason"])
    except DomainError as error:
        return _refused(request, tournament, error)
    messages.success(
        request,
        _("Team “%(name)s” dropped. Until the next round is paired you can undo it from its row.")
        % {"name": team.name},
    )
    return redirect(f"{reverse('tournament-manage', args=[tournament.id])}#teams")


@login_required
@require_POST
def team_drop_undo_view(request, tournament_id: int, team_id: int):
    tournament = _staff_event(request, tournament_id, "can_run_event")
    team = get_object_or_404(Team, pk=team_id, tournament=tournament)
    try:
        team_drop_undo(team=team, actor=request.user, reason=request.POST.get("reason", ""))
    except DomainError as error:
        return _refused(request, tournament, error)
    messages.success(
        request,
        _("Team “%(name)s” is back in the event: it is paired from the next round.") % {"name": team.name},
    )
    return redirect(f"{reverse('tournament-manage', args=[tournament.id])}#teams")


@login_required
@require_POST
def round_pair_view(request, tournament_id: int):
    """Pair the next round; for round 1 of an event requiring check-in, a team not checked in
    makes the page ask the organizer to drop those teams or pair them anyway (nothing silent)."""
    tournament = _staff_event(request, tournament_id, "can_run_event")
    unchecked = request.POST.get("unchecked") or None
    if unchecked not in (None, *UNCHECKED_CHOICES):
        unchecked = None
    try:
        paired = round_pair(tournament=tournament, actor=request.user, unchecked=unchecked)
    except DomainError as error:
        unchecked_teams = error.extra.get("unchecked_teams", ())
        return _render_manage(
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
    tournament = _staff_event(request, tournament_id, "can_run_event")
    target = get_object_or_404(Round, pk=round_id, tournament=tournament)
    try:
        published = round_publish(round_row=target, actor=request.user)
    except DomainError as error:
        return _refused(request, tournament, error)
    messages.success(
        request, _("Round %(number)s published: players can see their tables.") % {"number": published.number}
    )
    return redirect("tournament-manage", tournament_id=tournament.id)


@login_required
@require_POST
def round_delete_view(request, tournament_id: int, round_id: int):
    tournament = _staff_event(request, tournament_id, "can_run_event")
    target = get_object_or_404(Round, pk=round_id, tournament=tournament)
    number = target.number
    try:
        round_delete(round_row=target, actor=request.user)
    except DomainError as error:
        return _refused(request, tournament, error)
    messages.success(request, _("Round %(number)s deleted. Pair it again when ready.") % {"number": number})
    return redirect("tournament-manage", tournament_id=tournament.id)


@login_required
@require_POST
def pods_seat_view(request, tournament_id: int):
    """Seat the teams in random pods for the next draft (a form; works without JavaScript)."""
    tournament = _staff_event(request, tournament_id, "can_run_event")
    form = PodsSeatForm(request.POST)
    if not form.is_valid():
        return _render_manage(
            request, tournament, status=400, error=_("Give the number of the draft to seat.")
        )
    try:
        pods = pods_seat(tournament=tournament, actor=request.user, draft=form.cleaned_data["draft"])
    except DomainError as error:
        return _refused(request, tournament, error)
    messages.success(
        request,
        _("Draft %(draft)s: teams seated in %(pods)s pods.")
        % {"draft": form.cleaned_data["draft"], "pods": len(pods)},
    )
    return redirect("tournament-manage", tournament_id=tournament.id)


@login_required
@require_POST
def cut_build_view(request, tournament_id: int):
    tournament = _staff_event(request, tournament_id, "can_run_event")
    try:
        playoff = cut_build(tournament=tournament, actor=request.user)
    except DomainError as error:
        return _refused(request, tournament, error)
    messages.success(
        request,
        _("Top cut built: round %(number)s is paired. Check it, then publish it.")
        % {"number": playoff.number},
    )
    return redirect("tournament-manage", tournament_id=tournament.id)


def _is_htmx(request) -> bool:
    return request.headers.get("HX-Request") == "true"


@login_required
@require_POST
def match_result_view(request, tournament_id: int, match_id: int):
    """A scorekeeper enters one table's result from the manage page (a plain form; with JS the
    keyboard grid submits the same form and swaps in the row this view answers with)."""
    tournament = _staff_event(request, tournament_id, "can_run_event")
    match = get_object_or_404(
        Match.objects.select_related("round", "team_a", "team_b", "reported_by"),
        pk=match_id,
        round__tournament=tournament,
        round__published_at__isnull=False,
    )
    match, status, message = staff_result_entry(
        request, tournament, match, _("Choose the result: left team wins, right team wins or a draw.")
    )
    saved = _("Saved %(a)s-%(b)s-%(draws)s") % {
        "a": match.team_a_wins,
        "b": match.team_b_wins,
        "draws": match.draws,
    }
    if _is_htmx(request):
        context = {
            "tournament": tournament,
            "row": _result_row(match, message=message or saved, failed=bool(message)),
            "can_write": True,
            "can_deck_check": can_check_decks(request.user, tournament),
            "counter": _results_counter(match.round),
        }
        return render(request, "tournaments/_result_row.html", context, status=status)
    if message:
        return _render_manage(
            request,
            tournament,
            status=status,
            error=_("Table %(table)s: %(message)s") % {"table": match.table, "message": message},
            row_message=(match.pk, message),
        )
    messages.success(
        request, _("Table %(table)s: %(message)s") % {"table": match.table, "message": saved} + "."
    )
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
        return match, error.status_code, _result_refusal(error)
    return match, 200, ""


def _result_refusal(error: DomainError) -> str:
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
