"""The partner pool: players without a teammate, and the organizer forming teams from it.

Joining the pool is a player's consent to be put on a team by the organizer, so teams formed
from it need no invitation. Random forming is seeded (``tournaments.domain.team_forming``): the
page shows the teams a seed gives, and confirming with the same seed and the same pool saves
exactly those; if the pool changed in between, the confirmation is refused (409) rather than
saving teams nobody saw.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import ConflictError, DomainError
from common.i18n import localize
from common.lookalike import lookalike_of
from tournaments.domain.team_forming import PoolLeftover, form_pool_teams
from tournaments.domain.team_names import team_name_problem
from tournaments.domain.text import clean_reading, reading_problem
from tournaments.enums import RoundKind
from tournaments.models import Player, PoolEntry, Round, Team, Tournament
from tournaments.registration.checks import refuse_too_long, require_registration_open, unused_join_code
from tournaments.registration.completion import team_completed
from tournaments.services.audit import audit_log
from tournaments.services.locks import lock_tournament


@transaction.atomic
def pool_join(
    *, tournament: Tournament, actor, name: str = "", wizards_id: str = "", name_reading: str = ""
) -> PoolEntry:
    """Look for a partner; joining twice changes nothing. The name's reading is what the player
    typed, else their last event's under the same name."""
    problem = reading_problem(name_reading)
    if problem:
        message = localize(problem)
        raise DomainError(message, errors=[{"field": "name_reading", "message": message}])
    refuse_too_long(wizards_id=wizards_id.strip())

    tournament = lock_tournament(tournament)
    require_registration_open(tournament)
    if Player.objects.filter(tournament=tournament, user=actor).exists():
        raise ConflictError(
            _("you are already on a team in this event"),
            errors=[{"field": "pool", "message": _("on a team")}],
        )
    entry = PoolEntry.objects.filter(tournament=tournament, user=actor).first()
    if entry is not None:
        return entry
    last = Player.objects.filter(user=actor).order_by("-id").first()
    name = (" ".join(name.split()) or (last.name if last else "") or actor.get_full_name() or actor.username)[
        :100
    ]
    wizards_id = wizards_id.strip().casefold() or (last.wizards_id if last else "")
    reading = clean_reading(name_reading) or (last.name_reading if last and last.name == name else "")
    entry = PoolEntry.objects.create(
        tournament=tournament, user=actor, name=name, name_reading=reading, wizards_id=wizards_id
    )
    audit_log(tournament=tournament, actor=actor, action="pool_join", obj=entry, after={"name": entry.name})
    return entry


@transaction.atomic
def pool_leave(*, tournament: Tournament, actor) -> None:
    """Leave the pool; leaving it when not in it changes nothing (a repeated DELETE)."""
    deleted, _by_model = PoolEntry.objects.filter(tournament=tournament, user=actor).delete()
    if deleted:
        audit_log(tournament=tournament, actor=actor, action="pool_leave", object_type="poolentry")


@dataclass(frozen=True)
class PoolPlan:
    """Teams of pool entries, as the organizer sees them before saving."""

    teams: tuple[tuple[PoolEntry, ...], ...]
    waiting: tuple[PoolEntry, ...]
    seed: int


def pool_plan(
    tournament: Tournament, *, seed: int | None = None, leftover: str = PoolLeftover.WAIT
) -> PoolPlan:
    """The random forming a seed gives for the pool as it is now (no write)."""
    entries = {entry.pk: entry for entry in PoolEntry.objects.filter(tournament=tournament)}
    seed = secrets.randbelow(2**31) if seed is None else seed
    forming = form_pool_teams(
        list(entries), team_size=tournament.team_size, seed=seed, leftover=PoolLeftover(leftover)
    )
    return PoolPlan(
        teams=tuple(tuple(entries[pk] for pk in team) for team in forming.teams),
        waiting=tuple(entries[pk] for pk in forming.waiting),
        seed=seed,
    )


@transaction.atomic
def pool_form_teams(
    *,
    tournament: Tournament,
    actor,
    seed: int | None = None,
    leftover: str = PoolLeftover.WAIT,
    expected_entries: Sequence[int] | None = None,
) -> list[Team]:
    """Form teams from the whole pool at random with ``seed`` (one action, audited).

    ``expected_entries``: the pool entries the organizer saw in the preview; if the pool has
    changed since, nothing is saved (409).
    """
    tournament = lock_tournament(tournament)
    _require_open(tournament)
    current = set(PoolEntry.objects.filter(tournament=tournament).values_list("pk", flat=True))
    if expected_entries is not None and set(expected_entries) != current:
        raise ConflictError(_("the pool changed since the preview: look at the new teams and confirm again"))
    if len(current) < 1:
        raise ConflictError(_("the partner pool is empty"), errors=[{"field": "pool", "message": _("empty")}])
    plan = pool_plan(tournament, seed=seed, leftover=leftover)
    teams = [_team_from_entries(tournament, list(entries)) for entries in plan.teams]
    audit_log(
        tournament=tournament,
        actor=actor,
        action="pool_form_teams",
        object_type="tournament",
        object_id=tournament.pk,
        after={
            "seed": plan.seed,
            "teams": [team.name for team in teams],
            "waiting": [entry.name for entry in plan.waiting],
        },
    )
    return teams


@transaction.atomic
def pool_form_team_by_hand(*, tournament: Tournament, actor, entry_ids: Sequence[int]) -> Team:
    """One team of the pool players the organizer picked (up to the team size; fewer leaves an
    open seat a latecomer fills with the team's join code)."""
    tournament = lock_tournament(tournament)
    _require_open(tournament)
    entries = list(PoolEntry.objects.filter(tournament=tournament, pk__in=set(entry_ids)))
    if not entries or len(entries) != len(set(entry_ids)):
        raise DomainError(
            _("pick players who are in the pool"),
            errors=[{"field": "entries", "message": _("not in the pool")}],
        )
    if len(entries) > tournament.team_size:
        raise DomainError(
            _("a team has at most %(count)s players") % {"count": tournament.team_size},
            errors=[
                {"field": "entries", "message": _("at most %(count)s") % {"count": tournament.team_size}}
            ],
        )
    team = _team_from_entries(tournament, entries)
    audit_log(
        tournament=tournament,
        actor=actor,
        action="pool_form_teams",
        object_type="tournament",
        object_id=tournament.pk,
        after={"by_hand": True, "teams": [team.name], "players": [e.name for e in entries]},
    )
    return team


def _require_open(tournament: Tournament) -> None:
    require_registration_open(tournament)


def _team_name(tournament: Tournament, entries: list[PoolEntry]) -> str:
    """The players' first names ("Ana & Ben"); numbered if taken or a look-alike of a team's name
    (``common.lookalike``); "Pool team N" if refused."""
    base = " & ".join(entry.name.split()[0] for entry in entries if entry.name.split())[:90]
    if not base or team_name_problem(base):
        base = "Pool team"
    taken = list(Team.objects.filter(tournament=tournament).values_list("name", flat=True))
    name, number = base, 2
    while lookalike_of(name, taken) is not None:
        name, number = f"{base} {number}", number + 1
    return name


def _team_from_entries(tournament: Tournament, entries: list[PoolEntry]) -> Team:
    team = Team.objects.create(
        tournament=tournament,
        name=_team_name(tournament, entries),
        registered_after_round=Round.objects.filter(tournament=tournament, kind=RoundKind.SWISS).count(),
        join_code=unused_join_code(),
    )
    taken_ids = set(
        Player.objects.filter(tournament=tournament)
        .exclude(wizards_id="")
        .values_list("wizards_id", flat=True)
    )
    for position, entry in enumerate(entries):
        wizards_id = "" if entry.wizards_id in taken_ids else entry.wizards_id
        taken_ids.add(wizards_id)
        Player.objects.create(
            tournament=tournament,
            team=team,
            name=entry.name,
            name_reading=entry.name_reading,
            wizards_id=wizards_id,
            user=entry.user,
            position=position,
        )
    if len(entries) >= tournament.team_size:
        team_completed(tournament, team)
    PoolEntry.objects.filter(pk__in=[entry.pk for entry in entries]).delete()
    return team
