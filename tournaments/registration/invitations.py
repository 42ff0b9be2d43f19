"""Writing invitations to named accounts, for the desk and for a player's team."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from tournaments.models import Player, Team, TeamInvitation
from tournaments.registration.checks import unused_join_code
from tournaments.services.audit import audit_log


def resolve_invitee(wizards_id: str):
    """The account a Wizards Account id was played under in any event, if exactly one."""
    wizards_id = wizards_id.strip().casefold()
    if not wizards_id:
        return None
    users = list(
        Player.objects.filter(wizards_id=wizards_id, user__isnull=False)
        .values_list("user", flat=True)
        .distinct()[:2]
    )
    if len(users) != 1:
        return None
    return get_user_model().objects.get(pk=users[0])


def invitations_create(
    *,
    team: Team,
    actor,
    invitees: list[tuple[Any, str, str]],
    players: list[Player | None] | None = None,
    named_by_wizards_account: frozenset[int] = frozenset(),
) -> list[TeamInvitation]:
    """Pending invitations for ``(account, name, wizards_id)``; callers hold the event lock.

    ``players`` (one per invitee, or None) names the registered player each account is asked to be
    linked to, for a team staff registered at the desk. A team without a join code gets one: the
    invitee accepts through it. ``named_by_wizards_account``: the ids of the accounts the inviter
    named by a Wizards Account, not by login, whose login the team is never shown.
    """
    if invitees and not team.join_code:
        team.join_code = unused_join_code()
        team.save(update_fields=["join_code"])
    created = []
    for (user, name, wizards_id), player in zip(invitees, players or [None] * len(invitees), strict=True):
        invitation = TeamInvitation.objects.create(
            tournament=team.tournament,
            team=team,
            player=player,
            invitee=user,
            invited_by=actor,
            name=" ".join(name.split()),
            wizards_id=wizards_id.strip().casefold(),
            named_by_login=user.pk not in named_by_wizards_account,
        )
        audit_log(
            tournament=team.tournament,
            actor=actor,
            action="invitation_send",
            obj=team,
            after={
                "invitee": user.username,
                "team": team.name,
                **({"player": player.name} if player is not None else {}),
            },
        )
        created.append(invitation)
    return created
