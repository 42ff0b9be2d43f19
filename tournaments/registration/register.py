"""Registering a team: at the desk by staff, or by a player forming their own team."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.usernames import user_by_username
from common.errors import DomainError
from common.i18n import localize
from tournaments.domain.event import MAX_AWARDED_BYES
from tournaments.domain.team_names import team_name_problem
from tournaments.domain.text import clean_reading
from tournaments.enums import RoundKind
from tournaments.models import Player, PoolEntry, Round, Team, Tournament
from tournaments.registration.checks import (
    field_label,
    length_errors,
    name_clash,
    name_taken,
    normalise_wizards_id,
    reading_errors,
    require_registration_open,
    unused_join_code,
)
from tournaments.registration.completion import record_missed_rounds
from tournaments.registration.invitations import invitations_create, resolve_invitee
from tournaments.registration.planner import PlayerEntry
from tournaments.rules import can_run_event
from tournaments.services.audit import audit_log
from tournaments.services.locks import lock_tournament


@transaction.atomic
def team_register(
    *, tournament: Tournament, actor, name: str, players: list[PlayerEntry], awarded_byes: int = 0
) -> Team:
    """A team for the event: at the desk by staff, or by a player forming their own team.

    Scorekeeping staff register a whole team (exactly ``tournament.team_size`` players) at the
    desk: every player takes their seat at once, and an account staff name for a player is asked to
    be linked to that player, linked only when its player accepts (an invitation with ``player``).
    A player registers a team they are on: their own entry becomes
    the team's first player (they are its captain) and every other account they name, by login
    or by the Wizards Account it played under, gets an invitation to accept or decline
    (``tournaments.registration.player``): no account joins a team without its player's consent
    (docs/decisions.md "Team formation"). A team with an open seat is *forming* and not paired; its
    join code lets a teammate join.

    ``awarded_byes`` (0 to 3, Premier-style) makes rounds 1 to that number byes for the team; they
    are entered before round 1, so a late entry has none.

    A late entry (Swiss rounds already paired) gets one scored match per missed round at once, a
    loss or a bye as ``tournament.late_entry_missed_rounds`` says, so every standings read counts
    them without special cases. Late entry stays open until the organizer closes it
    (``late_entry_open``, docs/rules.md#late-entry); registration always closes when the playoff starts.

    Takes the event lock first (``services.locks``), so a registration and the pairing of a round
    never overlap: the team is either in the pairing or registered after it, with its missed
    rounds. Team names are unique in the event ignoring case, also in the database
    (``team_name_unique_in_event``), and a name that looks like another team's is refused
    (``name_clash``); the loser of two registrations of one name at once gets the
    same 400 on ``name`` as a registration of a known name.
    """

    tournament = lock_tournament(tournament)
    require_registration_open(tournament)
    by_staff = can_run_event(actor, tournament)
    errors: list[dict] = []
    name = " ".join(name.split())
    problem = team_name_problem(name)
    if problem:
        errors.append({"field": "name", "message": localize(problem)})
    elif (clash := name_clash(tournament, name)) is not None:
        errors.append(clash)
    if not 0 <= awarded_byes <= MAX_AWARDED_BYES:
        errors.append(
            {
                "field": "awarded_byes",
                "message": _("0 to %(MAX_AWARDED_BYES)s rounds, got %(awarded_byes)s")
                % {"MAX_AWARDED_BYES": MAX_AWARDED_BYES, "awarded_byes": awarded_byes},
            }
        )
    elif awarded_byes and tournament.rounds.filter(kind=RoundKind.SWISS).exists():
        errors.append({"field": "awarded_byes", "message": _("awarded byes are entered before round 1")})
    if by_staff and len(players) != tournament.team_size:
        errors.append(
            {
                "field": "players",
                "message": _("this event's teams have %(team_size)s players, got %(players)s")
                % {"team_size": tournament.team_size, "players": len(players)},
            }
        )
    elif not by_staff and not 1 <= len(players) <= tournament.team_size:
        errors.append(
            {
                "field": "players",
                "message": _("list yourself and up to %(team_size)s teammate(s), got %(players)s")
                % {"team_size": tournament.team_size - 1, "players": len(players)},
            }
        )
    users: dict[int, int] = {}
    invited: dict[int, Any] = {}
    links: dict[int, Any] = {}
    by_wizards_account: set[int] = set()
    seen_ids: set[str] = set()
    for index, entry in enumerate(players):
        field = f"players[{index}]"
        user = None
        if entry.username:
            user = user_by_username(entry.username)
            if user is None:
                errors.append(
                    {
                        "field": f"{field}.username",
                        "message": _("no account named %(username)s") % {"username": repr(entry.username)},
                    }
                )
                continue
        joins_now = by_staff or (user is not None and user.pk == actor.pk)
        if not joins_now and user is None:
            user = resolve_invitee(entry.wizards_id)
            if user is None:
                errors.append(
                    {
                        "field": f"{field}.username",
                        "message": _(
                            "name your teammate's account (their login) to invite them, "
                            "or give them the team's join code"
                        ),
                    }
                )
                continue
            by_wizards_account.add(user.pk)
        if not entry.name.strip() and joins_now:
            errors.append({"field": f"{field}.name", "message": _("the player's name is empty")})
        errors.extend(reading_errors(field, entry.name_reading))
        errors.extend(
            length_errors(field, name=" ".join(entry.name.split()), wizards_id=entry.wizards_id.strip())
        )
        wizards_id = normalise_wizards_id(entry.wizards_id)
        if not wizards_id and joins_now:
            errors.append(
                {"field": f"{field}.wizards_id", "message": _("the Wizards Account id or email is empty")}
            )
        elif wizards_id and wizards_id in seen_ids:
            errors.append({"field": f"{field}.wizards_id", "message": _("the same person is listed twice")})
        elif wizards_id and Player.objects.filter(tournament=tournament, wizards_id=wizards_id).exists():
            errors.append(
                {
                    "field": f"{field}.wizards_id",
                    "message": _("%(wizards_id)s is already on a team in this event")
                    % {"wizards_id": entry.wizards_id},
                }
            )
        seen_ids.add(wizards_id)
        if user is not None:
            if Player.objects.filter(tournament=tournament, user=user).exists() or user.pk in {
                *users.values(),
                *(u.pk for u in invited.values()),
                *(u.pk for u in links.values()),
            }:
                # Named as typed: an account found through its Wizards Account keeps its login.
                typed, part = (
                    (entry.wizards_id.strip(), "wizards_id")
                    if user.pk in by_wizards_account
                    else (entry.username, "username")
                )
                errors.append(
                    {
                        "field": f"{field}.{part}",
                        "message": _("%(username)s is already on a team in this event") % {"username": typed},
                    }
                )
            elif user.pk == actor.pk:
                users[index] = user.pk
            elif joins_now:
                links[index] = user
            else:
                invited[index] = user
    if not by_staff and actor.pk not in users.values() and not errors:
        errors.append(
            {"field": "players", "message": _("list yourself (your login) on the team you register")}
        )
    if errors:
        raise DomainError(
            _("Team not registered: %(problems)s")
            % {"problems": "; ".join(f"{field_label(e['field'])}: {e['message']}" for e in errors)},
            errors=errors,
        )
    missed_rounds = list(Round.objects.filter(tournament=tournament, kind=RoundKind.SWISS).order_by("number"))
    rounds_paired = len(missed_rounds)
    try:
        with transaction.atomic():
            team = Team.objects.create(
                tournament=tournament,
                name=name,
                registered_after_round=rounds_paired,
                awarded_byes=awarded_byes,
                captain=None if by_staff else actor,
                join_code=unused_join_code() if not by_staff or links else None,
            )
    except IntegrityError:
        raise DomainError(
            _("Team not registered: name: %(name)s") % {"name": name_taken(name)["message"]},
            errors=[name_taken(name)],
        ) from None
    joining = [(index, entry) for index, entry in enumerate(players) if index not in invited]
    if len(joining) == tournament.team_size:
        record_missed_rounds(tournament, team, missed_rounds)
    try:
        Player.objects.bulk_create(
            Player(
                tournament=tournament,
                team=team,
                name=" ".join(entry.name.split()),
                name_reading=clean_reading(entry.name_reading),
                wizards_id=normalise_wizards_id(entry.wizards_id),
                user_id=users.get(index),
                position=position,
            )
            for position, (index, entry) in enumerate(joining)
        )
    except IntegrityError:
        raise DomainError(
            _("a player was registered on another team at the same moment; try again"), status_code=409
        ) from None
    # A player who is on a team is no longer looking for a partner.
    PoolEntry.objects.filter(tournament=tournament, user_id__in=users.values()).delete()
    audit_log(
        tournament=tournament,
        actor=actor,
        action="team_register",
        obj=team,
        after={
            "name": team.name,
            "players": [entry.name for _index, entry in joining],
            "late_after_round": rounds_paired,
            "awarded_byes": awarded_byes,
        },
    )
    invitations_create(
        team=team,
        actor=actor,
        invitees=[(user, players[index].name, players[index].wizards_id) for index, user in invited.items()],
        named_by_wizards_account=frozenset(by_wizards_account),
    )
    if links:
        seats = {player.position: player for player in team.players.all()}
        positions = {index: position for position, (index, _entry) in enumerate(joining)}
        invitations_create(
            team=team,
            actor=actor,
            invitees=[
                (user, players[index].name, players[index].wizards_id) for index, user in links.items()
            ],
            players=[seats[positions[index]] for index in links],
        )
    return team
