"""Recording who sits where at a match: the primary player sits on the right (MTR 9.4(1)).

A team may choose its primary and secondary again before each match, so the order is stored per
match (``Match.seats``), and pages, printed slips and penalties read it from there through
``tournaments.domain.seating``. The choice is the first pregame step, before play/draw is decided
(MTR 9.4), so it is refused once the match is under way in a way the toolkit can see: a result
reported (a bye or a missed round included), or time called at the table.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import ConflictError, DomainError
from tournaments.enums import TeamSide
from tournaments.models import Match, Player
from tournaments.permissions import player_team_id
from tournaments.rules import is_event_staff
from tournaments.services.audit import audit_log


@transaction.atomic
def match_seats_set(*, match: Match, actor, team_id: int, player_ids: list[int]) -> Match:
    """Record ``team_id``'s seat order for this match: all its players, each once, primary first.

    Allowed to any staff role of the event and to a player of that team (403 otherwise, also for a
    player setting the other team's seats). 400 if the team is not in the match or the list is not
    exactly the team's players; 409 once the match has a result or time was called. The audit
    entry keeps the order before (the recorded one, else registration order) and after.
    """
    match = Match.objects.select_for_update(of=("self",)).select_related("round__tournament").get(pk=match.pk)
    tournament = match.round.tournament
    if team_id not in (match.team_a_id, match.team_b_id) or team_id is None:
        raise DomainError(
            _("that team does not play in this match"),
            errors=[
                {
                    "field": "team",
                    "message": _("team %(team_id)s is not in this match") % {"team_id": team_id},
                }
            ],
        )
    if not is_event_staff(actor, tournament) and player_team_id(actor, tournament) != team_id:
        raise DomainError(_("only staff or a player of that team may choose its seats"), status_code=403)
    if match.has_result:
        raise ConflictError(_("the match has a result: its seats can no longer change"))
    if match.time_called_at is not None:
        raise ConflictError(_("time was called at this table: its seats can no longer change"))
    members = list(Player.objects.filter(team_id=team_id).order_by("position").values_list("pk", flat=True))
    if len(player_ids) != len(set(player_ids)) or set(player_ids) != set(members):
        raise DomainError(
            _("list every player of the team once, primary first"),
            errors=[
                {
                    "field": "players",
                    "message": _("expected each of the team's players %(members)s once, got %(player_ids)s")
                    % {"members": members, "player_ids": player_ids},
                }
            ],
        )
    side = TeamSide.A if team_id == match.team_a_id else TeamSide.B
    seats = dict(match.seats or {})
    before = list(seats.get(side) or members)
    seats[side] = list(player_ids)
    match.seats = seats
    match.save(update_fields=["seats"])
    audit_log(
        tournament=tournament,
        actor=actor,
        action="match_seats_set",
        obj=match,
        before={"side": side, "players": before},
        after={"side": side, "players": list(player_ids)},
    )
    return match
