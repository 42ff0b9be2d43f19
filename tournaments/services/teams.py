"""Registering teams: names moderated, one team per person per event (MTR 8.1, 8.2).

Who plays the next round (check-in, drops, disqualification) is ``services.participation``; the
desk's CSV import, which registers each line through ``team_register``, is ``services.team_import``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.usernames import user_by_username
from common.errors import ConflictError, DomainError
from common.i18n import localize
from common.lookalike import lookalike_of
from tournaments.domain.event import MAX_AWARDED_BYES
from tournaments.domain.team_forming import new_join_code
from tournaments.domain.team_names import team_name_problem
from tournaments.domain.text import clean_reading, reading_problem
from tournaments.enums import LateEntryMissedRounds, ResultKind, RoundKind, TournamentStatus
from tournaments.models import Match, Player, PoolEntry, Round, Team, Tournament
from tournaments.rules import can_run_event
from tournaments.services.audit import audit_log
from tournaments.services.locks import lock_tournament


@dataclass(frozen=True)
class PlayerEntry:
    name: str
    wizards_id: str
    username: str | None = None
    name_reading: str = ""


_PLAYER_FIELD = re.compile(r"^players\[(\d+)\]\.(\w+)$")
_PART_LABELS = {
    "name": gettext_lazy("name"),
    "name_reading": gettext_lazy("reading"),
    "wizards_id": gettext_lazy("Wizards Account"),
    "username": gettext_lazy("login"),
}
_FIELD_LABELS = {
    "name": gettext_lazy("team name"),
    "players": gettext_lazy("players"),
    "wizards_id": gettext_lazy("Wizards Account"),
}
SEAT_LETTERS = "ABCDEFGH"


def field_label(field: str) -> str:
    """A service field path in the words of the form ("players[1].wizards_id" → "player B's
    Wizards Account"), in the active language, so no message shows an internal path."""
    found = _PLAYER_FIELD.match(field)
    if found:
        index, part = int(found.group(1)), found.group(2)
        seat = SEAT_LETTERS[index] if index < len(SEAT_LETTERS) else str(index + 1)
        return _("player %(seat)s's %(part)s") % {"seat": seat, "part": _PART_LABELS.get(part, part)}
    return str(_FIELD_LABELS.get(field, field))


def _normalise_wizards_id(raw: str) -> str:
    return raw.strip().casefold()


def length_errors(field: str = "", **values: str) -> list[dict]:
    """A refusal for each player detail (``name``, ``wizards_id``) longer than its column holds,
    so a pasted page of text is a 400 naming it, not a database error."""
    errors = []
    for part, value in values.items():
        limit = getattr(Player._meta.get_field(part), "max_length", None)
        if limit is not None and len(value) > limit:
            errors.append(
                {
                    "field": f"{field}.{part}" if field else part,
                    "message": _("at most %(limit)s characters, got %(length)s")
                    % {"limit": limit, "length": len(value)},
                }
            )
    return errors


def refuse_too_long(**values: str) -> None:
    """``length_errors`` as a 400, for a form of one player's details."""
    errors = length_errors(**values)
    if errors:
        raise DomainError(
            "; ".join(f"{field_label(e['field'])}: {e['message']}" for e in errors), errors=errors
        )


def _reading_errors(field: str, reading: str) -> list[dict]:
    problem = reading_problem(reading)
    return [{"field": f"{field}.name_reading", "message": localize(problem)}] if problem else []


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
    (``tournaments.services.invitations``): no account joins a team without its player's consent
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
    from tournaments.services.invitations import invitations_create, resolve_invitee

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
        errors.extend(_reading_errors(field, entry.name_reading))
        errors.extend(
            length_errors(field, name=" ".join(entry.name.split()), wizards_id=entry.wizards_id.strip())
        )
        wizards_id = _normalise_wizards_id(entry.wizards_id)
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
            _("Team not registered: name: %(name)s") % {"name": _name_taken(name)["message"]},
            errors=[_name_taken(name)],
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
                wizards_id=_normalise_wizards_id(entry.wizards_id),
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


def require_registration_open(tournament: Tournament) -> None:
    """Teams join (registered, or completed by an accepted invitation) until the organizer closes
    late entry or the playoff starts."""
    if tournament.status in (TournamentStatus.TOP_CUT, TournamentStatus.FINISHED):
        raise ConflictError(_("registration is closed: the Swiss rounds are over"))
    if not tournament.late_entry_open and tournament.rounds.filter(kind=RoundKind.SWISS).exists():
        raise ConflictError(_("late entry is closed: the organizer closed registration after round 1"))


def unused_join_code() -> str:
    """A fresh join code; the unique column is the last word if two teams draw one at once."""
    while True:
        code = new_join_code()
        if not Team.objects.filter(join_code=code).exists():
            return code


def _name_taken(name: str) -> dict:
    return {
        "field": "name",
        "message": _("a team named %(name)s is already registered in this event") % {"name": repr(name)},
    }


def name_clash(tournament: Tournament, name: str, team_id: int | None = None) -> dict | None:
    """The refusal of a team name another team of the event already has, or one a reader takes for
    it (case, fullwidth letters, look-alike letters: ``common.lookalike``, the rule usernames follow);
    ``None`` when the name is free. ``team_id``: the team being renamed, which may keep its name."""
    others = Team.objects.filter(tournament=tournament).exclude(pk=team_id).values_list("name", flat=True)
    existing = lookalike_of(name, list(others))
    if existing is None:
        return None
    if existing.casefold() == name.casefold():
        return _name_taken(name)
    return {
        "field": "name",
        "message": _("the team name %(name)s looks like the existing %(existing)s")
        % {"name": repr(name), "existing": repr(existing)},
    }


def record_missed_rounds(tournament: Tournament, team: Team, rounds: list[Round]) -> None:
    """A late entry's missed rounds: match losses with no opponent (docs/rules.md#late-entry), or
    byes if the event chose so; either way a played round for the team's own MW% and nobody's
    opponent."""
    kind = (
        ResultKind.BYE
        if tournament.late_entry_missed_rounds == LateEntryMissedRounds.BYE
        else ResultKind.MISSED_ROUND
    )
    Match.objects.bulk_create(
        Match.unopposed(
            round_obj=round_obj, team_id=team.pk, kind=kind, games_per_match=tournament.games_per_match
        )
        for round_obj in rounds
    )


@dataclass(frozen=True)
class PlayerEdit:
    """One player's corrected name, reading and Wizards Account, as ``team_update`` takes them."""

    player_id: int
    name: str
    wizards_id: str
    name_reading: str = ""


def _audit_player(player: Player) -> str:
    reading = f" [{player.name_reading}]" if player.name_reading else ""
    return f"{player.name}{reading} ({player.wizards_id})"


@transaction.atomic
def team_update(
    *, team: Team, actor, name: str, players: list[PlayerEdit], fixed_table: int | None, reason: str = ""
) -> Team:
    """Correct a team's name, its players' names (and readings) and Wizards Accounts, and its fixed table.

    Before round 1 is paired this is registration still going on; after, it changes what was
    printed and played, so a reason is required and the audit log keeps before and after.
    """
    team = Team.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=team.pk)
    tournament = team.tournament
    reason = reason.strip()
    errors: list[dict] = []
    if tournament.rounds.exists() and not reason:
        errors.append({"field": "reason", "message": _("round 1 is paired: say why the team changes")})
    name = " ".join(name.split())
    problem = team_name_problem(name)
    if problem:
        errors.append({"field": "name", "message": localize(problem)})
    elif (clash := name_clash(tournament, name, team_id=team.pk)) is not None:
        errors.append(clash)
    if fixed_table is not None and fixed_table < 1:
        errors.append({"field": "fixed_table", "message": _("a table number is 1 or more")})
    current = {player.pk: player for player in team.players.all()}
    seen: set[str] = set()
    for index, entry in enumerate(players):
        field = f"players[{index}]"
        if entry.player_id not in current:
            errors.append({"field": field, "message": _("not a player of this team")})
            continue
        if not entry.name.strip():
            errors.append({"field": f"{field}.name", "message": _("the player's name is empty")})
        errors.extend(_reading_errors(field, entry.name_reading))
        wizards_id = _normalise_wizards_id(entry.wizards_id)
        if not wizards_id:
            errors.append(
                {"field": f"{field}.wizards_id", "message": _("the Wizards Account id or email is empty")}
            )
        elif wizards_id in seen:
            errors.append({"field": f"{field}.wizards_id", "message": _("the same person is listed twice")})
        elif (
            Player.objects.filter(tournament=tournament, wizards_id=wizards_id)
            .exclude(pk=entry.player_id)
            .exists()
        ):
            errors.append(
                {
                    "field": f"{field}.wizards_id",
                    "message": _("%(wizards_id)s is already on a team in this event")
                    % {"wizards_id": entry.wizards_id},
                }
            )
        seen.add(wizards_id)
    if errors:
        raise DomainError(
            _("Team not changed: %(problems)s")
            % {"problems": "; ".join(f"{field_label(e['field'])}: {e['message']}" for e in errors)},
            errors=errors,
        )
    before = {
        "name": team.name,
        "fixed_table": team.fixed_table,
        "players": [_audit_player(p) for p in current.values()],
    }
    team.name, team.fixed_table = name, fixed_table
    team.save(update_fields=["name", "fixed_table"])
    for entry in players:
        player = current[entry.player_id]
        player.name = " ".join(entry.name.split())
        player.name_reading = clean_reading(entry.name_reading)
        player.wizards_id = _normalise_wizards_id(entry.wizards_id)
        player.save(update_fields=["name", "name_reading", "wizards_id"])
    after = {
        "name": team.name,
        "fixed_table": team.fixed_table,
        "players": [_audit_player(p) for p in current.values()],
    }
    audit_log(
        tournament=tournament,
        actor=actor,
        action="team_update",
        obj=team,
        before=before,
        after=after,
        reason=reason,
    )
    return team
