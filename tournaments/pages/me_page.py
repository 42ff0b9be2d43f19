"""The player's page (``/events/<id>/me/``) as several audiences render it: the player's own
pages, and the team-forming and reporting pages, which render it again with the service's words
when a service refuses (``back_to_me``). Its parts: the team's match, the forming part of the team
(status, code, invitations, check-in QR code), the join box for a player without a team, and the
final standings once the final is in.
"""

from __future__ import annotations

import segno
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from common.errors import DomainError
from common.links import public_url
from tournaments.domain.check_in import check_in_code
from tournaments.domain.team_forming import InvitationStatus
from tournaments.forms import PrimaryPlayerForm
from tournaments.models import Player, PoolEntry, Team, Tournament
from tournaments.pages.common import round_matches, side_of
from tournaments.pages.result_block import me_report_block
from tournaments.permissions import player_team_id
from tournaments.read_models import final_standings, finished_final, record_shown, standings_table
from tournaments.rules import can_check_in, can_invite_to_team
from tournaments.selectors import invitations_for, pool_for, teams_for
from tournaments.standings import standings_for


def to_me(tournament: Tournament):
    return redirect("tournament-me", tournament_id=tournament.id)


def back_to_me(request, tournament: Tournament, error: DomainError):
    """A refusal on the player's page: the page again with the service's words, and its status."""
    return tournament_me_page(request, tournament, status=error.status_code, error=error.message)


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
