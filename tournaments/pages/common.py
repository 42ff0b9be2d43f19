"""What several pages share: the contexts of the pages a refusal renders again (the player's page,
the manage page), the result block of the player's page and the slip page, and small helpers.

Write views take a POST, call a single service and redirect with a message (post/redirect/get), so a
reload never repeats an action. When the service refuses (``DomainError``), the page is rendered
again with the service's message and a 4xx status instead of a redirect, so the refusal is visible
and testable: ``back_to_me`` for the player's page, ``refused`` for the manage page. The only logic
here is presentation: seat order, labels and table layout.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import segno
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from common.errors import DomainError
from common.i18n import localize
from common.links import public_url
from common.translatable import from_data
from tournaments.domain import games_to_win
from tournaments.domain.check_in import check_in_code
from tournaments.domain.report_view import ReaderMay, ReportState, ReportView, report_view
from tournaments.domain.result_state import Entry
from tournaments.domain.team_forming import (
    InvitationStatus,
)
from tournaments.enums import Format, RoundKind, StaffRole, TeamSide, TournamentStatus
from tournaments.forms import (
    MatchResultForm,
    PlayerReportForm,
    PrimaryPlayerForm,
    TeamRegisterForm,
    TeamsImportForm,
    report_choice,
    result_choice,
)
from tournaments.models import Match, Player, PoolEntry, Round, Team, Tournament
from tournaments.permissions import player_team_id, staff_role
from tournaments.read_models import (
    Side,
    final_standings,
    finished_final,
    pairings_by_table,
    record_shown,
    seated_side,
    standings_table,
)
from tournaments.rules import (
    can_check_decks,
    can_check_in,
    can_form_pool_teams,
    can_invite_to_team,
    can_manage_event,
    can_pair_by_hand,
    can_run_event,
)
from tournaments.selectors import (
    draft_team_ids,
    invitations_for,
    match_entries,
    matches_for_round,
    pod_rematch_warning,
    pods_for_draft,
    pool_for,
    teams_for,
    teams_without_decklists,
)
from tournaments.services.participation import drop_undoable
from tournaments.services.results import match_result_report
from tournaments.services.rounds import (
    unfinished_tables,
)
from tournaments.standings import standings_for


def posted_text(request, name: str) -> str:
    """A posted text field; a NUL character (no database text column holds one) is refused."""
    value = request.POST.get(name, "")
    if "\x00" in value:
        raise DomainError(
            _("%(field)s: contains a NUL character") % {"field": name},
            errors=[{"field": name, "message": "NUL"}],
        )
    return value


def to_me(tournament: Tournament):
    return redirect("tournament-me", tournament_id=tournament.id)


def back_to_me(request, tournament: Tournament, error: DomainError):
    """A refusal on the player's page: the page again with the service's words, and its status."""
    return tournament_me_page(request, tournament, status=error.status_code, error=error.message)


def is_htmx(request) -> bool:
    """Whether htmx sent the request (it wants the fragment, not the page)."""
    return request.headers.get("HX-Request") == "true"


def round_label(tournament: Tournament, current: Round | None) -> str:
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


def round_matches(round_obj: Round) -> list[Match]:
    """The round's matches with each team's players (three queries), byes last whatever the
    database does with the empty table number (SQLite sorts it first)."""
    matches = matches_for_round(round_obj).prefetch_related("team_a__players", "team_b__players")
    return sorted(matches, key=lambda match: match.table is None)


def side_of(match: Match, letter: str) -> Side | None:
    """One side of ``match`` seated as recorded, from its team's prefetched players (no points)."""
    team = match.team_a if letter == "A" else match.team_b
    players = {team.pk: list(team.players.all())} if team is not None else {}
    return seated_side(match, letter, players, {})


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
    return render_me(request, tournament, team_id, status=status, error=error)


def render_me(request, tournament: Tournament, team_id: int, *, status=200, error="", report_message=""):
    team = get_object_or_404(teams_for(tournament), pk=team_id)
    player = next(p for p in team.players.all() if p.user_id == request.user.id)
    record = record_shown(next((row for row in standings_for(tournament) if row.team_id == team_id), None))
    final = final_context(tournament)
    context = {
        "tournament": tournament,
        "team": team,
        "player": player,
        "record": record,
        "final": final,
        "my_place": next((row["rank"] for row in final["rows"] if row["team_id"] == team_id), None)
        if final
        else None,
        "match_info": None if final else my_match(tournament, team, player),
        "error": error,
        **team_context(request, tournament, team),
    }
    context["report"] = my_report(tournament, context["match_info"], team_id, report_message)
    return render(request, "tournaments/me.html", context, status=status)


def final_context(tournament: Tournament) -> dict | None:
    """After the final's result is in: the winner, the finalist and the final standings (playoff
    places, then Swiss order), the same rows as the final standings PDF."""
    final = finished_final(tournament)
    if final is None:
        return None
    table = standings_table(tournament, final_standings(tournament, final))
    rows = table["rows"]
    return {
        "round": final,
        **table,
        "winner": rows[0] if rows else None,
        "finalist": rows[1] if len(rows) > 1 else None,
    }


def my_report(tournament: Tournament, match_info: dict | None, team_id: int, message: str) -> dict | None:
    """The current match's result block (tournaments/_me_report.html); none for a bye."""
    if match_info is None or match_info["is_bye"]:
        return None
    return me_report_block(tournament, match_info["match"], team_id, message=message, failed=bool(message))


def my_match(tournament: Tournament, team: Team, player: Player) -> dict | None:
    """The team's match in the latest published round, seated as recorded; ``seat_form`` is set
    while the team may still choose its primary (no result yet, time not called)."""
    shown_round = tournament.rounds.public().newest()
    if shown_round is None:
        return None
    match = next(
        (m for m in round_matches(shown_round) if team.pk in (m.team_a_id, m.team_b_id)),
        None,
    )
    if match is None:
        return None
    mine, theirs = ("A", "B") if match.team_a_id == team.pk else ("B", "A")
    my_side, their_side = side_of(match, mine), side_of(match, theirs)
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


def join_context(request, tournament: Tournament) -> dict:
    """What a signed-in player without a team sees on ``/events/<id>/me/``: invitations to
    answer, a join code box, a form to create a team, the partner pool."""
    my_pool_entry = PoolEntry.objects.filter(tournament=tournament, user=request.user).first()
    in_pool = my_pool_entry is not None
    invitations = [
        i for i in invitations_for(request.user, tournament) if i.status == InvitationStatus.PENDING
    ]
    return {
        "invitations": invitations,
        # Staff seated a player under this account at the desk: on a team, only not linked yet.
        "seated": any(invitation.player_id for invitation in invitations),
        "in_pool": in_pool,
        # The "Invite" buttons beside pool members create a team under the name given to the pool.
        "my_pool_entry": my_pool_entry,
        "pool": list(pool_for(tournament)) if in_pool else [],
        "invite_slots": range(1, tournament.team_size),
    }


def team_context(request, tournament: Tournament, team: Team) -> dict:
    """The forming part of the player's own team: its status, code, link and invitations."""
    return {
        "is_captain": can_invite_to_team(request.user, team),
        "invite_url": public_url(reverse("team-join", args=[team.join_code])) if team.join_code else "",
        "open_seats": max(0, tournament.team_size - len(team.players.all())),
        "pending": list(getattr(team, "pending_invitations", [])),
        "may_check_in": tournament.check_in_required and can_check_in(request.user, team),
        "check_in_code": check_in_code(team.pk),
        "check_in_qr": _check_in_qr(team) if tournament.check_in_required and not team.checked_in_at else "",
    }


def _check_in_qr(team: Team) -> str:
    """The team's check-in code as an inline SVG QR code, for the desk's scanner (segno's markup,
    from the code's own letters only)."""
    code = check_in_code(team.pk)
    svg = segno.make(code, error="m", micro=False).svg_inline(
        scale=5, light="#fff", title=_("Check-in code %(code)s") % {"code": code}
    )
    return mark_safe(svg.replace("<svg ", '<svg role="img" ', 1))  # noqa: S308 - segno's own markup


#: How often the block asks whether the match changed, with JavaScript on.
POLL_SECONDS = 4


def outcome_text(match: Match, team_a_wins: int, team_b_wins: int, draws: int) -> str:
    """A game record in words, by team name, so both teams read the same sentence."""
    if team_a_wins > team_b_wins:
        return _("%(team)s won") % {"team": match.team_a.name}
    if team_b_wins > team_a_wins:
        return _("%(team)s won") % {"team": match.team_b.name}
    if draws >= 3:
        return _("Intentional draw (0-0-3)")
    return _("Draw (%(record)s)") % {"record": f"{team_a_wins}-{team_b_wins}-{draws}"}


def _report_text(match: Match, report: Entry | None) -> str:
    if report is None:
        return ""
    return outcome_text(match, report.a_wins, report.b_wins, report.draws)


def _default_draw_kind(match: Match, view: ReportView, side: TeamSide) -> str:
    """The draw the form preselects: the other team's if they reported one (so one tap confirms
    it), else ours; else an intentional draw while the round's clock runs with time left (a drawn
    game is replayed while time remains, MTR 9.1), a time draw otherwise."""
    for report in (view.theirs, view.ours):
        if report is not None and report.a_wins == report.b_wins:
            return report_choice(
                team_a_wins=report.a_wins, team_b_wins=report.b_wins, draws=report.draws, side=side
            )[1]
    round_obj = match.round
    clock_running = round_obj.started_at is not None and round_obj.time_up_recorded_at is None
    return "intentional" if clock_running and match.time_called_at is None else "time"


def report_block(
    tournament: Tournament,
    match: Match,
    side: TeamSide | None,
    *,
    post_url: str,
    poll_url: str,
    message: str = "",
    failed: bool = False,
    ask_side: bool = False,
) -> dict[str, Any]:
    """What ``_me_report.html`` shows for ``side`` of ``match``: the state in words, both teams'
    open reports, and the form (unless the result is settled or players do not report).

    ``side`` is ``None`` on a slip's page before its holder said which team they are on: the
    block then names both teams (``neutral``) instead of saying "you" and "they". ``ask_side``:
    the reader holds the slip without being a signed-in player of the match, so the block offers
    only what a slip may do (docs/decisions.md "Result slips, players' phones and staff")."""
    neutral = side is None
    if side is None:
        side = TeamSide(match.reported_side) if match.reported_side else TeamSide.A
    view = report_view(
        match_entries([match])[match.pk],
        side,
        games_per_match=tournament.games_per_match,
        players_report=tournament.player_reporting,
        slip=ask_side,
        side_chosen=not neutral,
        team_names={TeamSide.A: match.team_a.name, TeamSide.B: match.team_b.name},
    )
    mine = match.team_a if side == TeamSide.A else match.team_b
    theirs = match.team_b if side == TeamSide.A else match.team_a
    current = outcome_text(match, match.team_a_wins, match.team_b_wins, match.draws)
    confirm_value = ""
    if ReaderMay.CONFIRM in view.may and view.theirs is not None:
        confirm_value = report_choice(
            team_a_wins=view.theirs.a_wins, team_b_wins=view.theirs.b_wins, draws=view.theirs.draws, side=side
        )[0]
    return {
        "match": match,
        "side": side,
        "state": view.state.value,
        "our_team": mine,
        "their_team": theirs,
        "current": current,
        "ours": _report_text(match, view.ours),
        "theirs": _report_text(match, view.theirs),
        "can_report": bool(view.may),
        "player_reporting": tournament.player_reporting,
        "confirm_value": confirm_value,
        "draw_kind": _default_draw_kind(match, view, side),
        "allow_draw": match.round.kind != RoundKind.PLAYOFF,
        "draw_choices": PlayerReportForm.DRAW_CHOICES,
        "post_url": post_url,
        "poll_url": f"{poll_url}?v={match.version}",
        "poll_seconds": POLL_SECONDS,
        "message": message,
        "failed": failed,
        "ask_side": ask_side,
        "slip_note": localize(view.note) if view.note else "",
        "sign_in_url": f"{reverse('login')}?next={post_url}" if ask_side else "",
        "neutral": neutral,
        "sides": [(TeamSide.A, match.team_a), (TeamSide.B, match.team_b)],
    }


def me_report_block(tournament: Tournament, match: Match, team_id: int, **kwargs: Any) -> dict[str, Any]:
    """The report block of the player's own page for their team's match."""
    side = TeamSide.A if match.team_a_id == team_id else TeamSide.B
    url = reverse("tournament-me-report", args=[tournament.pk, match.pk])
    return report_block(tournament, match, side, post_url=url, poll_url=url, **kwargs)


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


def staff_views(matches: list[Match]) -> dict[int, ReportView]:
    """The staff's view of each match's report (``domain.report_view``; one query). The matches
    come with ``reported_by`` joined: the status line names who reported."""
    entries = match_entries(matches)
    return {
        match.pk: report_view(
            entries[match.pk],
            author_names={match.reported_by_id: match.reported_by.username} if match.reported_by_id else None,
        )
        for match in matches
    }


#: The Key box's letter for each result (static/js/results_grid.js maps them back).
RESULT_KEYS = {"a": "1", "b": "2", "draw": "D", "id": "I"}


def result_row(
    match: Match,
    view: ReportView,
    *,
    playoff: bool,
    message: str = "",
    failed: bool = False,
    chosen: str = "",
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
        "state": view.state.value,
        "status": localize(view.status),
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
