"""Zones: ranges of tables with the judges who work them at the end of a round."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from common.errors import DomainError
from common.i18n import localize
from floor.domain.zones import TableRange, ZoneError, check_zone
from floor.models import Zone
from tournaments.models import Tournament
from tournaments.permissions import JUDGES
from tournaments.services.audit import audit_log
from tournaments.services.locks import lock_tournament


@transaction.atomic
def zone_create(
    *, tournament: Tournament, actor, name: str, first_table: int, last_table: int, judges: Sequence[str] = ()
) -> Zone:
    """Add a zone of tables ``first_table``..``last_table``; it may not overlap another zone, and
    every judge named must judge this event (by username). The event row is locked so two
    organizers adding overlapping zones at once cannot both succeed."""
    lock_tournament(tournament)
    existing = [
        TableRange(z.name, z.first_table, z.last_table) for z in Zone.objects.filter(tournament=tournament)
    ]
    try:
        check_zone(TableRange(name.strip(), first_table, last_table), existing)
    except ZoneError as exc:
        message = localize(exc.message)
        raise DomainError(message, errors=[{"field": exc.field, "message": message}]) from exc
    users = _judges(tournament, judges)
    zone = Zone.objects.create(
        tournament=tournament, name=name.strip(), first_table=first_table, last_table=last_table
    )
    zone.judges.set(users)
    audit_log(
        tournament=tournament,
        actor=actor,
        action="zone.create",
        obj=zone,
        after={
            "name": zone.name,
            "first_table": first_table,
            "last_table": last_table,
            "judges": [u.get_username() for u in users],
        },
    )
    return zone


def _judges(tournament: Tournament, usernames: Sequence[str]) -> list:
    """The named users, each a judge of this event (organizer, head judge or judge), by username."""
    users = []
    for index, username in enumerate(dict.fromkeys(u.strip() for u in usernames if u.strip())):
        staff = (
            tournament.staff.filter(user__username__iexact=username, role__in=JUDGES)
            .select_related("user")
            .first()
        )
        if staff is None:
            message = f"{username!r} is not a judge of this event"
            raise DomainError(message, errors=[{"field": f"judges[{index}]", "message": message}])
        users.append(staff.user)
    return users


@transaction.atomic
def zone_delete(*, zone: Zone, actor) -> None:
    audit_log(
        tournament=zone.tournament,
        actor=actor,
        action="zone.delete",
        obj=zone,
        before={"name": zone.name, "first_table": zone.first_table, "last_table": zone.last_table},
    )
    zone.delete()
