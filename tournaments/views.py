"""The event's own pages for everyone: home, the organizer's dashboard and new event, a round's and a
team's pages, and the player's page (``/events/<id>/me/``). The staff's pages are in
``manage_views`` (the team desk in ``manage_team_views``, settings, staff and audit log in
``manage_event_views``), the public ones in ``public_views``.

Write views take a POST, call a single service and redirect with a message (post/redirect/get), so a
reload never repeats an action. When the service refuses (``DomainError``), the page is rendered
again with the service's message and a 4xx status instead of a redirect, so the refusal is visible
and testable. The only logic here is presentation: seat order, search filtering and table layout.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from common.errors import DomainError
from tournaments.enums import RoundKind
from tournaments.forms import (
    PrimaryPlayerForm,
    TournamentCreateForm,
    add_domain_errors,
)
from tournaments.models import Match, Player, Round, Team, Tournament
from tournaments.page_cache import public_page
from tournaments.permissions import (
    player_team_id,
)
from tournaments.read_models import (
    Side,
    final_standings,
    finished_final,
    match_outcome,
    pairings_by_table,
    record_shown,
    seated_side,
    standings_table,
)
from tournaments.report_blocks import me_report_block
from tournaments.rules import (
    can_create_events,
    is_event_staff,
)
from tournaments.selectors import (
    matches_for_round,
    round_detail,
    rounds_for,
    standings_for,
    teams_for,
    tournaments_listed,
    tournaments_staffed_by,
)
from tournaments.services.events import tournament_create
from tournaments.services.seating import match_seats_set
from tournaments.views_teams import join_context, team_context


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


def _side(match: Match, letter: str) -> Side | None:
    """One side of ``match`` seated as recorded, from its team's prefetched players (no points)."""
    team = match.team_a if letter == "A" else match.team_b
    players = {team.pk: list(team.players.all())} if team is not None else {}
    return seated_side(match, letter, players, {})


def _standings_context(tournament: Tournament, round_number: int) -> dict:
    return {
        "round_number": round_number,
        **standings_table(tournament, standings_for(tournament, through_round=round_number)),
    }


def _final_context(tournament: Tournament) -> dict | None:
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


def round_matches(round_obj: Round) -> list[Match]:
    """The round's matches with each team's players (three queries), byes last whatever the
    database does with the empty table number (SQLite sorts it first)."""
    matches = matches_for_round(round_obj).prefetch_related("team_a__players", "team_b__players")
    return sorted(matches, key=lambda match: match.table is None)


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
        "round_label": round_label(tournament, round_obj),
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
        matches = matches.public()
    rows = []
    for match in matches:
        outcome = match_outcome(match, for_team=team.pk)
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
    return render_me(request, tournament, team_id, status=status, error=error)


def render_me(request, tournament: Tournament, team_id: int, *, status=200, error="", report_message=""):
    team = get_object_or_404(teams_for(tournament), pk=team_id)
    player = next(p for p in team.players.all() if p.user_id == request.user.id)
    record = record_shown(next((row for row in standings_for(tournament) if row.team_id == team_id), None))
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
        return render_me(request, tournament, team_id, status=400, error=_("Choose who sits on the right."))
    primary_id = int(form.cleaned_data["primary"])
    order = [primary_id, *(p.pk for p in seated if p.pk != primary_id)]
    try:
        match_seats_set(match=match, actor=request.user, team_id=team_id, player_ids=order)
    except DomainError as error:
        return render_me(request, tournament, team_id, status=error.status_code, error=error.message)
    primary = next(p for p in seated if p.pk == primary_id)
    messages.success(
        request, _("Recorded: %(name)s is primary and sits on the right.") % {"name": primary.name}
    )
    return redirect("tournament-me", tournament_id=tournament.id)


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
