"""Registering a team: the facts the roster planner needs, its plan, and the desk's or the player's write."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.usernames import user_by_username
from tournaments.enums import RoundKind
from tournaments.models import Player, Team, Tournament
from tournaments.registration.checks import (
    localized,
    name_refusal,
    player_limits,
    refused,
    require_registration_open,
)
from tournaments.registration.desk import desk_team_register
from tournaments.registration.invitations import resolve_invitee
from tournaments.registration.planner import (
    PlayerEntry,
    Registration,
    normalise_wizards_id,
    plan_registration,
)
from tournaments.registration.player import player_team_register
from tournaments.rules import can_run_event
from tournaments.services.locks import lock_tournament


@transaction.atomic
def team_register(
    *, tournament: Tournament, actor, name: str, players: list[PlayerEntry], awarded_byes: int = 0
) -> Team:
    """A team for the event: at the desk by staff (``desk_team_register``), or by a player forming
    their own team (``player_team_register``); ``registration.planner`` says who sits down now, who
    is invited or linked, and what is refused. A team with an open seat is *forming* and not
    paired; its join code lets a teammate join.

    ``awarded_byes`` (0 to 3, Premier-style) makes rounds 1 to that number byes for the team; they
    are entered before round 1, so a late entry has none.

    A late entry (Swiss rounds already paired) gets one scored match per missed round at once, a
    loss or a bye as ``tournament.late_entry_missed_rounds`` says, so every standings read counts
    them without special cases (``team_completed``). Late entry stays open until the organizer
    closes it (``late_entry_open``, docs/rules.md#late-entry); registration always closes when the
    playoff starts.

    Takes the event lock first (``services.locks``), so a registration and the pairing of a round
    never overlap: the team is either in the pairing or registered after it, with its missed
    rounds. Team names are unique in the event ignoring case, also in the database
    (``team_name_unique_in_event``), and a name that looks like another team's is refused
    (``name_clash``); the loser of two registrations of one name at once gets the
    same 400 on ``name`` as a registration of a known name.
    """
    tournament = lock_tournament(tournament)
    require_registration_open(tournament)
    at_desk = can_run_event(actor, tournament)
    name = " ".join(name.split())
    accounts = [_account(entry, at_desk) for entry in players]
    plan = plan_registration(_registration(tournament, actor, at_desk, name, players, accounts, awarded_byes))
    if plan.refusals:
        raise refused(_("Team not registered: %(problems)s"), localized(plan.refusals))
    write = desk_team_register if at_desk else player_team_register
    return write(
        tournament=tournament,
        actor=actor,
        name=name,
        players=players,
        awarded_byes=awarded_byes,
        plan=plan,
        accounts={account.pk: account for account in accounts if account is not None},
    )


def _account(entry: PlayerEntry, at_desk: bool):
    """The account an entry names: by its login; for a teammate a player names without one, the
    one account its Wizards Account was played under (``resolve_invitee``)."""
    if entry.username:
        return user_by_username(entry.username)
    return None if at_desk else resolve_invitee(entry.wizards_id)


def _registration(
    tournament: Tournament,
    actor,
    at_desk: bool,
    name: str,
    players: list[PlayerEntry],
    accounts: list[Any],
    awarded_byes: int,
) -> Registration:
    """The registration as the planner reads it, with what the event already holds."""
    in_event = Player.objects.filter(tournament=tournament)
    wizards_ids = {normalise_wizards_id(entry.wizards_id) for entry in players} - {""}
    account_ids = [account.pk for account in accounts if account is not None]
    return Registration(
        team_size=tournament.team_size,
        players=players,
        accounts=[None if account is None else account.pk for account in accounts],
        actor=actor.pk,
        at_desk=at_desk,
        awarded_byes=awarded_byes,
        swiss_paired=bool(awarded_byes) and tournament.rounds.filter(kind=RoundKind.SWISS).exists(),
        name_refusal=name_refusal(tournament, name),
        taken_wizards_ids=frozenset(
            in_event.filter(wizards_id__in=wizards_ids).values_list("wizards_id", flat=True)
        ),
        taken_accounts=frozenset(in_event.filter(user_id__in=account_ids).values_list("user_id", flat=True)),
        limits=player_limits(),
    )
