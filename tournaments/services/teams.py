"""Registering teams: names moderated, one team per person per event (MTR 8.1, 8.2)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from common.errors import DomainError
from tournaments.domain.team_names import team_name_problem
from tournaments.models import Player, Team, Tournament
from tournaments.services.audit import audit_log


@dataclass(frozen=True)
class PlayerEntry:
    name: str
    wizards_id: str
    username: str | None = None


def _normalise_wizards_id(raw: str) -> str:
    return raw.strip().casefold()


@transaction.atomic
def team_register(*, tournament: Tournament, actor, name: str, players: list[PlayerEntry]) -> Team:
    """A team with exactly ``tournament.team_size`` members; late entries are recorded with the round."""
    errors: list[dict] = []
    name = " ".join(name.split())
    problem = team_name_problem(name)
    if problem:
        errors.append({"field": "name", "message": problem})
    elif Team.objects.filter(tournament=tournament, name__iexact=name).exists():
        errors.append(
            {"field": "name", "message": f"a team named {name!r} is already registered in this event"}
        )
    if len(players) != tournament.team_size:
        errors.append(
            {
                "field": "players",
                "message": f"this event's teams have {tournament.team_size} players, got {len(players)}",
            }
        )
    users = {}
    seen_ids: set[str] = set()
    for index, entry in enumerate(players):
        field = f"players[{index}]"
        if not entry.name.strip():
            errors.append({"field": f"{field}.name", "message": "the player's name is empty"})
        wizards_id = _normalise_wizards_id(entry.wizards_id)
        if not wizards_id:
            errors.append(
                {"field": f"{field}.wizards_id", "message": "the Wizards Account id or email is empty"}
            )
        elif wizards_id in seen_ids:
            errors.append({"field": f"{field}.wizards_id", "message": "the same person is listed twice"})
        elif Player.objects.filter(tournament=tournament, wizards_id=wizards_id).exists():
            errors.append(
                {
                    "field": f"{field}.wizards_id",
                    "message": f"{entry.wizards_id} is already on a team in this event",
                }
            )
        seen_ids.add(wizards_id)
        if entry.username:
            user = get_user_model().objects.filter(username=entry.username).first()
            if user is None:
                errors.append(
                    {"field": f"{field}.username", "message": f"no account named {entry.username!r}"}
                )
            elif (
                Player.objects.filter(tournament=tournament, user=user).exists() or user.pk in users.values()
            ):
                errors.append(
                    {
                        "field": f"{field}.username",
                        "message": f"{entry.username} is already on a team in this event",
                    }
                )
            else:
                users[index] = user.pk
    if errors:
        raise DomainError(
            "Team not registered: " + "; ".join(f"{e['field']}: {e['message']}" for e in errors),
            errors=errors,
        )
    rounds_paired = tournament.rounds.filter(kind="swiss").count()
    team = Team.objects.create(tournament=tournament, name=name, registered_after_round=rounds_paired)
    try:
        Player.objects.bulk_create(
            Player(
                tournament=tournament,
                team=team,
                name=" ".join(entry.name.split()),
                wizards_id=_normalise_wizards_id(entry.wizards_id),
                user_id=users.get(index),
                position=index,
            )
            for index, entry in enumerate(players)
        )
    except IntegrityError:
        raise DomainError(
            "a player was registered on another team at the same moment; try again", status_code=409
        ) from None
    audit_log(
        tournament=tournament,
        actor=actor,
        action="team_register",
        obj=team,
        after={"name": team.name, "players": [p.name for p in players], "late_after_round": rounds_paired},
    )
    return team
