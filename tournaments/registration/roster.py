"""Writing a planned roster: the team, the players who sit down now, and its completion."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from common.errors import DomainError
from tournaments.domain.text import clean_reading
from tournaments.enums import RoundKind
from tournaments.models import Player, PoolEntry, Round, Team, Tournament
from tournaments.registration.checks import name_taken
from tournaments.registration.completion import team_completed
from tournaments.registration.planner import PlayerEntry, RosterPlan, normalise_wizards_id
from tournaments.services.audit import audit_log


def team_create(
    *,
    tournament: Tournament,
    actor,
    name: str,
    players: list[PlayerEntry],
    awarded_byes: int,
    plan: RosterPlan,
    captain,
    join_code: str | None,
) -> Team:
    """The team and its seated players (``plan.seated``, in seat order), audited; a team complete
    at once goes through ``team_completed``. Callers hold the event lock and checked the plan."""
    rounds_paired = Round.objects.filter(tournament=tournament, kind=RoundKind.SWISS).count()
    try:
        with transaction.atomic():
            team = Team.objects.create(
                tournament=tournament,
                name=name,
                registered_after_round=rounds_paired,
                awarded_byes=awarded_byes,
                captain=captain,
                join_code=join_code,
            )
    except IntegrityError:
        taken = name_taken(name)
        raise DomainError(
            _("Team not registered: name: %(name)s") % {"name": taken["message"]}, errors=[taken]
        ) from None
    if plan.complete:
        team_completed(tournament, team)
    try:
        Player.objects.bulk_create(
            Player(
                tournament=tournament,
                team=team,
                name=" ".join(players[index].name.split()),
                name_reading=clean_reading(players[index].name_reading),
                wizards_id=normalise_wizards_id(players[index].wizards_id),
                user_id=plan.own_seats.get(index),
                position=position,
            )
            for position, index in enumerate(plan.seated)
        )
    except IntegrityError:
        raise DomainError(
            _("a player was registered on another team at the same moment; try again"), status_code=409
        ) from None
    # A player who is on a team is no longer looking for a partner.
    PoolEntry.objects.filter(tournament=tournament, user_id__in=plan.own_seats.values()).delete()
    audit_log(
        tournament=tournament,
        actor=actor,
        action="team_register",
        obj=team,
        after={
            "name": team.name,
            "players": [players[index].name for index in plan.seated],
            "late_after_round": rounds_paired,
            "awarded_byes": awarded_byes,
        },
    )
    return team
