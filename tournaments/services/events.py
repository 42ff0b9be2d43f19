"""Creating events, changing their settings and managing their staff."""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from accounts.usernames import user_by_username
from common.errors import ConflictError, DomainError
from tournaments.domain.event import default_tiebreakers
from tournaments.domain.settings import (
    CHECKED,
    DEFAULT_ROUND_MINUTES,
    FIXED_ONCE_PAIRED,
    NULLABLE,
    SETTINGS,
    settings_problems,
)
from tournaments.enums import (
    Format,
    Rel,
    RoundKind,
    StaffRole,
)
from tournaments.models import Staff, Tournament
from tournaments.rules import can_manage_event
from tournaments.services.audit import audit_log
from tournaments.services.locks import lock_tournament


def _invalid_settings(problems: list[dict[str, str]]) -> DomainError:
    summary = "; ".join(f"{p['field']}: {p['message']}" for p in problems)
    return DomainError(_("Invalid event settings: %(problems)s") % {"problems": summary}, errors=problems)


@transaction.atomic
def tournament_create(*, actor, **values) -> Tournament:
    """A new event; the creator becomes its organizer; unset settings take the docs/decisions.md defaults
    (Modern, Regular REL, teams of 2, one game per match in team events and three otherwise,
    50-minute rounds, tiebreakers by team size; the rest are the model's defaults)."""
    values = {key: value for key, value in values.items() if value is not None}
    values.setdefault("format", Format.MODERN)
    values.setdefault("rel", Rel.REGULAR)
    values.setdefault("team_size", 2)
    values.setdefault("games_per_match", 1 if values["team_size"] > 1 else 3)
    values.setdefault("round_minutes", DEFAULT_ROUND_MINUTES)
    problems = settings_problems(values, _)
    if problems:
        raise _invalid_settings(problems)
    if not values.get("tiebreakers"):
        values["tiebreakers"] = _default_tiebreakers(values["team_size"])
    values.setdefault("seed", secrets.randbits(48))
    tournament = Tournament.objects.create(created_by=actor, **values)
    Staff.objects.create(tournament=tournament, user=actor, role=StaffRole.ORGANIZER)
    audit_log(
        tournament=tournament,
        actor=actor,
        action="tournament_create",
        obj=tournament,
        after={"name": tournament.name, "format": tournament.format, "rel": tournament.rel},
    )
    return tournament


#: Settings the organizer may change with ``tournament_update``: all of them.
UPDATABLE_SETTINGS = frozenset(SETTINGS)


def _audit_value(value):
    return value.isoformat() if hasattr(value, "isoformat") else value


@transaction.atomic
def tournament_update(*, tournament: Tournament, actor, **changes) -> Tournament:
    """Change the event's settings (organizer only, 403 otherwise).

    Checked like ``tournament_create`` against the settings as they would be after the change
    (400 naming each field). Format, team size, games per match, Swiss rounds, top cut and
    tiebreakers are fixed once round 1 is paired (409), the cut to day 2 once it is made (or
    moved behind a paired round); the team size also once a team is
    registered, since every team has exactly that many players. Changing the team size without
    giving tiebreakers moves event-default tiebreakers to the new size's default. One audit entry
    keeps the changed fields before and after; a change that changes nothing writes none.
    """
    tournament = lock_tournament(tournament)
    if not can_manage_event(actor, tournament):
        raise DomainError(_("only the organizer may change the event's settings"), status_code=403)
    unknown = sorted(set(changes) - UPDATABLE_SETTINGS)
    if unknown:
        raise DomainError(
            _("unknown or read-only setting(s) %(names)s") % {"names": unknown},
            errors=[{"field": name, "message": _("cannot be changed here")} for name in unknown],
        )
    changes = {key: value for key, value in changes.items() if value is not None or key in NULLABLE}
    if "tiebreakers" in changes and not changes["tiebreakers"]:
        changes["tiebreakers"] = _default_tiebreakers(changes.get("team_size", tournament.team_size))
    if "team_size" in changes and "tiebreakers" not in changes:
        if tournament.tiebreakers == _default_tiebreakers(tournament.team_size):
            changes["tiebreakers"] = _default_tiebreakers(changes["team_size"])
    changed = {key: value for key, value in changes.items() if getattr(tournament, key) != value}
    if not changed:
        return tournament
    fixed = sorted(set(changed) & FIXED_ONCE_PAIRED)
    if fixed and tournament.rounds.exists():
        raise ConflictError(
            _("%(names)s cannot change: fixed once round 1 is paired (MTR 10.2)")
            % {"names": ", ".join(fixed)},
            errors=[{"field": name, "message": _("fixed once round 1 is paired")} for name in fixed],
        )
    if "day_two" in changed:
        _require_cut_ahead(tournament, changed["day_two"])
    if "team_size" in changed and tournament.teams.exists():
        raise ConflictError(
            _("the team size cannot change once teams are registered"),
            errors=[{"field": "team_size", "message": _("teams are already registered")}],
        )
    if "name" in changed and not str(changed["name"]).strip():
        raise DomainError(_("the name is empty"), errors=[{"field": "name", "message": _("required")}])
    merged = {field: changed.get(field, getattr(tournament, field)) for field in CHECKED}
    problems = settings_problems(merged, _)
    if problems:
        raise _invalid_settings(problems)
    before = {key: _audit_value(getattr(tournament, key)) for key in changed}
    for key, value in changed.items():
        setattr(tournament, key, value)
    tournament.save(update_fields=sorted(changed))
    audit_log(
        tournament=tournament,
        actor=actor,
        action="tournament_update",
        obj=tournament,
        before=before,
        after={key: _audit_value(value) for key, value in changed.items()},
    )
    return tournament


def _require_cut_ahead(tournament: Tournament, day_two: dict | None) -> None:
    """The cut to day 2 may be set or moved until it is made (its first day-2 round paired), and
    never to a round already paired: the teams paired after it would not have been cut (409)."""
    paired = tournament.rounds.filter(kind=RoundKind.SWISS).aggregate(last=Max("number"))["last"] or 0
    made = tournament.cut_to_day_two
    if made is not None and made.applies_to(paired):
        raise ConflictError(
            _("the cut to day 2 was made when round %(number)s was paired")
            % {"number": made.after_round + 1},
            errors=[{"field": "day_two", "message": _("the cut is made")}],
        )
    if day_two and isinstance(day_two.get("after_round"), int) and day_two["after_round"] < paired:
        raise ConflictError(
            _("round %(number)s is already paired: the cut must come after it") % {"number": paired},
            errors=[
                {"field": "day_two", "message": _("round %(number)s is already paired") % {"number": paired}}
            ],
        )


def _default_tiebreakers(team_size: int) -> list[str]:
    return [str(name) for name in default_tiebreakers(team_size)]


def account_by_name(username: str):
    """The account a staff form names, by username or by e-mail (case-insensitive, if unique)."""
    users = get_user_model().objects
    name = username.strip()
    user = user_by_username(name)
    if user is None and "@" in name:
        found = list(users.filter(email__iexact=name)[:2])
        user = found[0] if len(found) == 1 else None
    if user is None:
        raise DomainError(
            _("no account with the username or e-mail %(name)s: ask them to sign up first")
            % {"name": repr(name)},
            errors=[
                {
                    "field": "username",
                    "message": _("no account with this username or e-mail: ask them to sign up first"),
                }
            ],
            status_code=400,
        )
    return user


@transaction.atomic
def staff_add(*, tournament: Tournament, actor, username: str, role: str) -> Staff:
    """Give an account (username or e-mail) a staff role, or change the role it has; audited."""
    if role not in StaffRole.values or role == StaffRole.ORGANIZER:
        raise DomainError(
            _("role must be one of head_judge, judge, scorekeeper; got %(role)s") % {"role": repr(role)},
            errors=[{"field": "role", "message": _("invalid role")}],
        )
    user = account_by_name(username)
    staff, created = Staff.objects.get_or_create(tournament=tournament, user=user, defaults={"role": role})
    if not created:
        if staff.role == StaffRole.ORGANIZER:
            raise DomainError(
                _("the organizer's role cannot be changed"),
                errors=[{"field": "username", "message": _("is the organizer")}],
                status_code=409,
            )
        before = staff.role
        staff.role = role
        staff.save(update_fields=["role"])
        audit_log(
            tournament=tournament,
            actor=actor,
            action="staff_role_change",
            obj=staff,
            before={"username": user.username, "role": before},
            after={"username": user.username, "role": role},
        )
    else:
        audit_log(
            tournament=tournament,
            actor=actor,
            action="staff_add",
            obj=staff,
            after={"username": user.username, "role": role},
        )
    return staff


@transaction.atomic
def staff_remove(*, staff: Staff, actor) -> None:
    """Take a staff member off the event (never the organizer); audited."""
    if staff.role == StaffRole.ORGANIZER:
        raise DomainError(
            _("the organizer cannot be removed from the staff"),
            errors=[{"field": "username", "message": _("is the organizer")}],
            status_code=409,
        )
    before = {"username": staff.user.username, "role": staff.role}
    tournament, staff_id = staff.tournament, staff.pk
    staff.delete()
    audit_log(
        tournament=tournament,
        actor=actor,
        action="staff_remove",
        object_type="staff",
        object_id=staff_id,
        before=before,
    )
