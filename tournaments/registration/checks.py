"""The refusals registration and corrections share: field labels, lengths, readings, team names, whether registration is open."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.errors import ConflictError, DomainError
from common.i18n import localize
from common.lookalike import lookalike_of
from tournaments.domain.team_forming import new_join_code
from tournaments.domain.team_names import team_name_problem
from tournaments.enums import RoundKind, TournamentStatus
from tournaments.models import Player, Team, Tournament
from tournaments.registration.planner import Refusal, reading_refusals, too_long

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


def player_limits() -> dict[str, int]:
    """The characters a player's name and Wizards Account columns hold."""
    limits = {
        part: getattr(Player._meta.get_field(part), "max_length", None) for part in ("name", "wizards_id")
    }
    return {part: limit for part, limit in limits.items() if limit is not None}


def localized(refusals: list[Refusal] | tuple[Refusal, ...]) -> list[dict]:
    """The planner's refusals in the active language."""
    return [{"field": r["field"], "message": localize(r["message"])} for r in refusals]


def refused(summary: str, errors: list[dict]) -> DomainError:
    """The 400 for ``errors`` (translated), ``summary`` ("Team not registered: %(problems)s")
    listing each in the form's words."""
    problems = "; ".join(f"{field_label(e['field'])}: {e['message']}" for e in errors)
    return DomainError(summary % {"problems": problems}, errors=errors)


def refuse_too_long(**values: str) -> None:
    """Values too long for their player columns as a 400, for a form of one player's details."""
    errors = localized(too_long(limits=player_limits(), **values))
    if errors:
        raise DomainError(
            "; ".join(f"{field_label(e['field'])}: {e['message']}" for e in errors), errors=errors
        )


def reading_errors(field: str, reading: str) -> list[dict]:
    return localized(reading_refusals(field, reading))


def name_refusal(tournament: Tournament, name: str, team_id: int | None = None) -> dict | None:
    """Why a team may not be (re)named ``name`` (already tidied): a refused word or length, or a
    clash with another team of the event (``name_clash``)."""
    problem = team_name_problem(name)
    if problem:
        return {"field": "name", "message": localize(problem)}
    return name_clash(tournament, name, team_id=team_id)


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


def name_taken(name: str) -> dict:
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
        return name_taken(name)
    return {
        "field": "name",
        "message": _("the team name %(name)s looks like the existing %(existing)s")
        % {"name": repr(name), "existing": repr(existing)},
    }
