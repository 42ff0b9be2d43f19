"""Creating events, changing their settings and managing their staff."""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.db import transaction

from common.errors import ConflictError, DomainError
from tournaments.enums import (
    INDIVIDUAL_EVENT_TIEBREAKERS,
    REL,
    TEAM_EVENT_TIEBREAKERS,
    TIEBREAKER_NAMES,
    Format,
    StaffRole,
)
from tournaments.models import Staff, Tournament
from tournaments.permissions import ORGANIZER, has_role
from tournaments.services.audit import audit_log

MIN_ROUND_MINUTES = 40
DEFAULT_ROUND_MINUTES = 50
MAX_TEAM_SIZE = 4


def _settings_problems(values: dict) -> list[dict]:
    problems = []
    team_size = values.get("team_size", 2)
    if not 1 <= team_size <= MAX_TEAM_SIZE:
        problems.append({"field": "team_size", "message": f"must be 1 to {MAX_TEAM_SIZE}, got {team_size}"})
    games = values.get("games_per_match")
    if games is not None and games not in (1, 3, 5):
        problems.append({"field": "games_per_match", "message": f"must be 1, 3 or 5, got {games}"})
    if games is not None and team_size > 1 and games != 1:
        problems.append({"field": "games_per_match", "message": "a team match is one game (MTR 9.1)"})
    minutes = values.get("round_minutes", 50)
    if minutes < MIN_ROUND_MINUTES:
        problems.append(
            {"field": "round_minutes", "message": f"at least {MIN_ROUND_MINUTES} minutes (MTR App. B)"}
        )
    tiebreakers = values.get("tiebreakers")
    if tiebreakers:
        unknown = [name for name in tiebreakers if name not in TIEBREAKER_NAMES]
        if unknown:
            problems.append(
                {
                    "field": "tiebreakers",
                    "message": f"unknown tiebreaker(s) {unknown}; use {sorted(TIEBREAKER_NAMES)}",
                }
            )
        if tiebreakers[0] != "match_points":
            problems.append(
                {"field": "tiebreakers", "message": "the first tiebreaker is always match_points"}
            )
        if len(set(tiebreakers)) != len(tiebreakers):
            problems.append({"field": "tiebreakers", "message": "a tiebreaker is listed twice"})
    if values.get("cross_pod_pairing") and values.get("rel", REL.REGULAR) != REL.REGULAR:
        problems.append(
            {"field": "cross_pod_pairing", "message": "only at Regular REL (MTR 7.6: pods at Competitive)"}
        )
    if values.get("booster_draft_playoff") and values.get("format", Format.MODERN) not in Format.limited():
        problems.append(
            {"field": "booster_draft_playoff", "message": "a Booster Draft playoff is for Limited events"}
        )
    for field in ("swiss_rounds", "top_cut"):
        value = values.get(field)
        if value is not None and field == "top_cut" and value not in (0, 2, 4, 8):
            problems.append({"field": field, "message": f"must be 0, 2, 4 or 8, got {value}"})
    return problems


@transaction.atomic
def tournament_create(*, actor, **values) -> Tournament:
    """A new event; the creator becomes its organizer; unset settings take the DECISIONS.md defaults
    (Modern, Regular REL, teams of 2, one game per match in team events and three otherwise,
    50-minute rounds, tiebreakers by team size; the rest are the model's defaults)."""
    values = {key: value for key, value in values.items() if value is not None}
    values.setdefault("format", Format.MODERN)
    values.setdefault("rel", REL.REGULAR)
    values.setdefault("team_size", 2)
    values.setdefault("games_per_match", 1 if values["team_size"] > 1 else 3)
    values.setdefault("round_minutes", DEFAULT_ROUND_MINUTES)
    problems = _settings_problems(values)
    if problems:
        raise DomainError(
            "Invalid event settings: " + "; ".join(f"{p['field']}: {p['message']}" for p in problems),
            errors=problems,
        )
    if not values.get("tiebreakers"):
        values["tiebreakers"] = list(
            TEAM_EVENT_TIEBREAKERS if values["team_size"] > 1 else INDIVIDUAL_EVENT_TIEBREAKERS
        )
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


#: Settings the organizer may change with ``tournament_update``.
UPDATABLE_SETTINGS = frozenset(
    {
        "name",
        "date",
        "venue",
        "format",
        "rel",
        "team_size",
        "games_per_match",
        "round_minutes",
        "swiss_rounds",
        "top_cut",
        "tiebreakers",
        "percentage_floor",
        "penalty_policy",
        "udc_mode",
        "late_entry_missed_rounds",
        "late_entry_open",
        "playoff_play_draw",
        "booster_draft_playoff",
        "cross_pod_pairing",
        "decklist_deadline",
        "decklists_published",
    }
)
#: Fixed once round 1 is paired (MTR 10.2: the number of Swiss rounds and the cut are announced
#: before round 1; the format, team size, match length and tiebreakers shape every pairing).
FIXED_ONCE_PAIRED = frozenset(
    {
        "format",
        "team_size",
        "games_per_match",
        "swiss_rounds",
        "top_cut",
        "tiebreakers",
        "booster_draft_playoff",
        "cross_pod_pairing",
    }
)
_NULLABLE = frozenset({"date", "swiss_rounds", "top_cut", "decklist_deadline"})


def _audit_value(value):
    return value.isoformat() if hasattr(value, "isoformat") else value


@transaction.atomic
def tournament_update(*, tournament: Tournament, actor, **changes) -> Tournament:
    """Change the event's settings (organizer only, 403 otherwise).

    Checked like ``tournament_create`` against the settings as they would be after the change
    (400 naming each field). Format, team size, games per match, Swiss rounds, top cut and
    tiebreakers are fixed once round 1 is paired (409); the team size also once a team is
    registered, since every team has exactly that many players. Changing the team size without
    giving tiebreakers moves event-default tiebreakers to the new size's default. One audit entry
    keeps the changed fields before and after; a change that changes nothing writes none.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not has_role(actor, tournament, ORGANIZER):
        raise DomainError("only the organizer may change the event's settings", status_code=403)
    unknown = sorted(set(changes) - UPDATABLE_SETTINGS)
    if unknown:
        raise DomainError(
            f"unknown or read-only setting(s) {unknown}",
            errors=[{"field": name, "message": "cannot be changed here"} for name in unknown],
        )
    changes = {key: value for key, value in changes.items() if value is not None or key in _NULLABLE}
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
            f"{', '.join(fixed)} cannot change: fixed once round 1 is paired (MTR 10.2)",
            errors=[{"field": name, "message": "fixed once round 1 is paired"} for name in fixed],
        )
    if "team_size" in changed and tournament.teams.exists():
        raise ConflictError(
            "the team size cannot change once teams are registered",
            errors=[{"field": "team_size", "message": "teams are already registered"}],
        )
    if "name" in changed and not str(changed["name"]).strip():
        raise DomainError("the name is empty", errors=[{"field": "name", "message": "required"}])
    merged = {
        field: changed.get(field, getattr(tournament, field))
        for field in (
            "team_size",
            "games_per_match",
            "round_minutes",
            "tiebreakers",
            "swiss_rounds",
            "top_cut",
            "format",
            "rel",
            "booster_draft_playoff",
            "cross_pod_pairing",
        )
    }
    problems = _settings_problems(merged)
    if problems:
        raise DomainError(
            "Invalid event settings: " + "; ".join(f"{p['field']}: {p['message']}" for p in problems),
            errors=problems,
        )
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


def _default_tiebreakers(team_size: int) -> list[str]:
    return list(TEAM_EVENT_TIEBREAKERS if team_size > 1 else INDIVIDUAL_EVENT_TIEBREAKERS)


def account_by_name(username: str):
    """The account a staff form names, by username or by e-mail (case-insensitive, if unique)."""
    users = get_user_model().objects
    name = username.strip()
    user = users.filter(username=name).first()
    if user is None and "@" in name:
        found = list(users.filter(email__iexact=name)[:2])
        user = found[0] if len(found) == 1 else None
    if user is None:
        raise DomainError(
            f"no account with the username or e-mail {name!r}: ask them to sign up first",
            errors=[
                {
                    "field": "username",
                    "message": "no account with this username or e-mail: ask them to sign up first",
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
            f"role must be one of head_judge, judge, scorekeeper; got {role!r}",
            errors=[{"field": "role", "message": "invalid role"}],
        )
    user = account_by_name(username)
    staff, created = Staff.objects.get_or_create(tournament=tournament, user=user, defaults={"role": role})
    if not created:
        if staff.role == StaffRole.ORGANIZER:
            raise DomainError(
                "the organizer's role cannot be changed",
                errors=[{"field": "username", "message": "is the organizer"}],
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
            "the organizer cannot be removed from the staff",
            errors=[{"field": "username", "message": "is the organizer"}],
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
