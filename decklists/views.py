"""Decklist pages: a player's paste boxes with live feedback, the judges' overview, deck checks.

The paste boxes talk to the API (preview while typing, submit on save) so pages and clients
see the same errors; the deck check page posts forms to the deck check services. Every
refusal is a message on the page, never a half-applied change.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from common.errors import DomainError
from common.numbers import parse_column_int
from decklists import selectors, services
from decklists.api.views import team_payload
from decklists.domain.deck_checks import SHUFFLE_MINUTES
from decklists.models import DeckCheck, DeckCheckFinding, FindingKind, TeamPoolVersion
from tournaments.models import Match, Player, Team, Tournament
from tournaments.permissions import player_team_id
from tournaments.rules import can_change_locked_decklist, can_check_decks, is_event_staff


def _conflicts(payload: dict) -> dict[int, set[str]]:
    """Player id → card names the team verdict flags for that player, to highlight in the lists."""
    flagged: dict[int, set[str]] = {}
    for error in payload["errors"]:
        if error["card"]:
            for player_id in error["players"]:
                flagged.setdefault(player_id, set()).add(error["card"])
    return flagged


def _shown(errors: list[dict]) -> list[dict]:
    """Line errors with the sentence the page shows: line number, that line's text, the problem."""
    return [{**error, "shown": selectors.line_error_text(error)} for error in errors]


def _team_context(tournament: Tournament, team: Team) -> dict:
    payload = team_payload(tournament, team)
    flagged = _conflicts(payload)
    for row in payload["decklists"]:
        marked = flagged.get(row["player"], set())
        row["cards"] = [{**card, "conflict": card["name"] in marked} for card in row["cards"]]
        row["errors"] = _shown(row["errors"])
    if payload["pool"] is not None:
        payload["pool"]["errors"] = _shown(payload["pool"]["errors"])
    return {"team": team, "payload": payload}


def _verdict(valid: bool, errors: list) -> str:
    """ "legal" or "3 problems": what a saved list or pool came to, for the page's message."""
    if valid:
        return _("legal")
    return ngettext("%(count)s problem", "%(count)s problems", len(errors)) % {"count": len(errors)}


def _posted_text(request, field: str) -> str:
    """A pasted list as a form posts it, with the browser's CRLF line ends made plain newlines: the
    stored text is the same whether the page's script or the plain form sent it."""
    return request.POST.get(field, "").replace("\r\n", "\n")


def _team_save(request, tournament: Tournament, team: Team, own: Player | None) -> None:
    """The paste boxes' plain form (JavaScript off): save the player's list or the team's pool
    through the same services as the API, and say on the reloaded page what the check found;
    the line errors show under the team's lists."""
    try:
        if request.POST.get("save") == "pool":
            boosters = parse_column_int(request.POST.get("boosters") or None, TeamPoolVersion, "boosters")
            pool = services.decklist_pool_register(
                team=team, actor=request.user, text=_posted_text(request, "pool"), boosters=boosters
            )
            messages.success(
                request,
                _("Saved your team's pool (version %(number)s, %(verdict)s).")
                % {"number": pool.number, "verdict": _verdict(pool.valid, pool.errors)},
            )
            return
        if own is None:
            raise DomainError(_("You may submit only your own decklist."), status_code=403)
        version = services.decklist_submit(
            tournament=tournament, actor=request.user, player=own, text=_posted_text(request, "text")
        )
    except DomainError as error:
        messages.error(request, _("Not saved: %(message)s") % {"message": error.message})
        return
    messages.success(
        request,
        _("Saved your list (version %(number)s, %(verdict)s).")
        % {"number": version.number, "verdict": _verdict(version.valid, version.errors)},
    )


@login_required
def team_decklists(request, tournament_id: int):
    """A player's page: one paste box per player of the team, and the team's lists side by side.

    The boxes are a plain form (posted here, then the page again) that JavaScript takes over
    for live feedback. In a Limited event the team's pool paste box comes first (the decks are
    built from it), and the lists show the pool and the shared sideboard it leaves.
    """
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    team_id = player_team_id(request.user, tournament)
    if team_id is None:
        if is_event_staff(request.user, tournament):
            return HttpResponseRedirect(reverse("decklists-judge", args=[tournament.pk]))
        raise PermissionDenied(_("Only the event's players and staff see decklists."))
    team = get_object_or_404(Team, pk=team_id)
    own = (
        Player.objects.filter(tournament=tournament, user=request.user)
        .select_related("decklist__current")
        .first()
    )
    if request.method == "POST":
        _team_save(request, tournament, team, own)
        return HttpResponseRedirect(reverse("decklists-team", args=[tournament.pk]))
    current = getattr(getattr(own, "decklist", None), "current", None)
    team_context = _team_context(tournament, team)
    context = {
        "tournament": tournament,
        "locked": selectors.decklists_locked(tournament),
        "own_player": own,
        "own_text": current.text if current else "",
        **team_context,
    }
    if tournament.is_limited:
        pool = team_context["payload"]["pool"]
        context["pool_text"] = selectors.team_pool_text(team=team) if pool else ""
        context["pool_boosters"] = pool["boosters"] if pool else selectors.default_boosters(tournament)
    return render(request, "decklists/team.html", context)


@login_required
def judge_decklists(request, tournament_id: int):
    """Staff overview: every team's validity; ``?team=`` opens that team's lists side by side."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not is_event_staff(request.user, tournament):
        raise PermissionDenied(_("Only the event's staff see all decklists."))
    index = selectors.card_index()
    rows = []
    for lists in selectors.decklists_for_event(tournament=tournament):
        verdict = selectors.team_decklist_verdict(tournament=tournament, lists=lists, index=index)
        errors = selectors.team_error_rows(verdict, lists)
        rows.append(
            {"team": lists.team, "errors": errors, "submitted": sum(d is not None for d in lists.decklists)}
        )
    locked = selectors.decklists_locked(tournament)
    context = {"tournament": tournament, "rows": rows, "locked": locked}
    team_id = parse_column_int(request.GET.get("team"), Team, "id", param="team")
    if team_id is not None:
        team = get_object_or_404(Team, pk=team_id, tournament=tournament)
        context.update(_team_context(tournament, team))
        context["entry_forms"] = _entry_forms(request, tournament, team, locked)
    return render(request, "decklists/judge.html", context)


def _entry_forms(request, tournament: Tournament, team: Team, locked: bool) -> list[dict]:
    """One paste box per player of the team, for staff entering paper lists or lists of players
    without an account; after the deadline only judges get them, with a reason field (MTR 2.7)."""
    if locked and not can_change_locked_decklist(request.user, tournament):
        return []
    players = Player.objects.filter(team=team).select_related("decklist__current").order_by("position")
    return [
        {
            "player": player,
            "text": getattr(getattr(getattr(player, "decklist", None), "current", None), "text", ""),
        }
        for player in players
    ]


@login_required
@require_POST
def decklist_enter(request, tournament_id: int, player_id: int):
    """Staff enter or paste a player's list (paper lists, players without an account); after the
    deadline a judge changes it with a reason, which the audit log keeps."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not is_event_staff(request.user, tournament):
        raise PermissionDenied(_("Only the event's staff enter lists for players."))
    player = get_object_or_404(Player, pk=player_id, tournament=tournament)
    back = f"{reverse('decklists-judge', args=[tournament.pk])}?team={player.team_id}#player-{player.pk}"
    try:
        version = services.decklist_submit(
            tournament=tournament,
            actor=request.user,
            player=player,
            text=request.POST.get("text", ""),
            reason=request.POST.get("reason", ""),
        )
    except DomainError as error:
        messages.error(
            request,
            _("The list of %(name)s was not saved: %(message)s")
            % {"name": player.name, "message": error.message},
        )
        return HttpResponseRedirect(back)
    verdict = _verdict(version.valid, version.errors)
    messages.success(
        request,
        _("Saved the list of %(name)s (version %(number)s, %(verdict)s).")
        % {"name": player.name, "number": version.number, "verdict": verdict},
    )
    return HttpResponseRedirect(back)


@login_required
def deck_check(request, tournament_id: int, match_id: int):
    """One table's deck check: the four registered lists, findings, penalty and extension actions."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not can_check_decks(request.user, tournament):
        raise PermissionDenied(_("Only the event's judges run deck checks."))
    match = get_object_or_404(
        Match.objects.select_related("round", "team_a", "team_b"), pk=match_id, round__tournament=tournament
    )
    check = DeckCheck.objects.filter(match=match).select_related("extension").first()
    if request.method == "POST":
        try:
            check = _deck_check_action(request, match, check)
        except DomainError as exc:
            messages.error(request, exc.message)
        return HttpResponseRedirect(reverse("deck-check", args=[tournament.pk, match.pk]))
    teams = [t for t in (match.team_a, match.team_b) if t is not None]
    context = {
        "tournament": tournament,
        "match": match,
        "check": check,
        "minutes": services.deck_check_minutes(check) if check else None,
        "teams": [_team_context(tournament, team) for team in teams],
        "players": Player.objects.filter(team__in=teams).order_by("team_id", "position"),
        "findings": DeckCheckFinding.objects.filter(deck_check=check).select_related("player", "penalty")
        if check
        else [],
        "kinds": FindingKind.choices,
        "shuffle_minutes": SHUFFLE_MINUTES,
    }
    return render(request, "decklists/deck_check.html", context)


def _deck_check_action(request, match: Match, check: DeckCheck | None) -> DeckCheck | None:
    action = request.POST.get("action")
    if action == "start":
        return services.deck_check_start(match=match, actor=request.user)
    if check is None:
        raise DomainError(_("Start the deck check first."))
    if action == "finish":
        check = services.deck_check_finish(deck_check=check, actor=request.user)
        if check.extension is not None:
            messages.success(
                request,
                _(
                    "Table %(table)s extended by %(minutes)s + %(shuffle)s minutes "
                    "(the check's length, rounded up, and 3 to shuffle: MTR 2.6)."
                )
                % {"table": match.table, "minutes": check.extension.minutes, "shuffle": SHUFFLE_MINUTES},
            )
        else:
            messages.warning(
                request,
                _("No time extension for table %(table)s: see the audit log.") % {"table": match.table},
            )
        return check
    if action == "finding":
        player_id = parse_column_int(request.POST.get("player"), Player, "id", param="player")
        player = get_object_or_404(Player, pk=player_id or 0, tournament=match.round.tournament)
        count = parse_column_int(request.POST.get("count", "1"), DeckCheckFinding, "count")
        services.deck_check_finding_record(
            deck_check=check,
            actor=request.user,
            player=player,
            kind=request.POST.get("kind", ""),
            card=request.POST.get("card", ""),
            count=count or 0,
            note=request.POST.get("note", ""),
        )
        messages.success(request, _("Finding recorded."))
    elif action == "penalty":
        finding_id = parse_column_int(request.POST.get("finding"), DeckCheckFinding, "id", param="finding")
        finding = get_object_or_404(DeckCheckFinding, pk=finding_id or 0, deck_check=check)
        penalty = services.deck_check_finding_to_penalty(
            finding=finding, actor=request.user, infraction=request.POST.get("infraction", "")
        )
        messages.success(
            request,
            _("Penalty recorded: %(infraction)s %(get_penalty_display)s.")
            % {"infraction": penalty.infraction, "get_penalty_display": penalty.get_penalty_display()},
        )
    else:
        raise DomainError(_("Unknown action."))
    return check
