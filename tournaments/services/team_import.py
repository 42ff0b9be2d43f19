"""Registering many teams at the desk from one CSV paste, all or nothing.

Each line goes through ``services.teams.team_register``, so the same rules apply as for one team;
this module only reads the lines and gathers every refusal with its line number, which keeps the
paste format out of the registration rules.
"""

from __future__ import annotations

import csv

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.errors import DomainError
from tournaments.models import Team, Tournament
from tournaments.services.teams import PlayerEntry, field_label, team_register


def _import_rows(text: str) -> list[tuple[int, list[str]]]:
    """(line number, cells) for each non-empty line; a first line naming the columns is skipped."""
    rows: list[tuple[int, list[str]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        cells = [cell.strip() for cell in next(csv.reader([line], skipinitialspace=True))]
        if not rows and cells and cells[0].casefold() in ("team", "team name"):
            continue
        rows.append((number, cells))
    return rows


@transaction.atomic
def teams_import(*, tournament: Tournament, actor, text: str) -> list[Team]:
    """Register many teams from CSV or pasted lines, one team a line:
    ``team name, player name, Wizards Account, player name, Wizards Account`` (one pair per member).

    All or nothing, like EventLink's player import: every line is checked (by ``team_register``,
    so the same rules apply, duplicates within the file included) and if any line is wrong,
    nothing is saved and each problem is reported with its line number.
    """
    rows = _import_rows(text)
    if not rows:
        raise DomainError(
            _("No team to import: paste one team a line."), errors=[{"field": "csv", "message": _("empty")}]
        )
    expected = 1 + 2 * tournament.team_size
    errors: list[dict] = []
    teams: list[Team] = []
    for number, cells in rows:
        if len(cells) != expected:
            errors.append(
                {
                    "line": number,
                    "message": _(
                        "%(count)s values; expected %(expected)s: the team name, then a name "
                        "and a Wizards Account for each of the %(team_size)s players"
                    )
                    % {"count": len(cells), "expected": expected, "team_size": tournament.team_size},
                }
            )
            continue
        players = [
            PlayerEntry(name=cells[1 + 2 * index], wizards_id=cells[2 + 2 * index])
            for index in range(tournament.team_size)
        ]
        try:
            with transaction.atomic():
                teams.append(
                    team_register(tournament=tournament, actor=actor, name=cells[0], players=players)
                )
        except DomainError as error:
            problems = error.errors or [{"field": "", "message": error.message}]
            errors.extend(
                {
                    "line": number,
                    "message": f"{field_label(p['field'])}: {p['message']}" if p["field"] else p["message"],
                }
                for p in problems
            )
    if errors:
        raise DomainError(
            ngettext(
                "No team imported: %(count)s problem; ", "No team imported: %(count)s problems; ", len(errors)
            )
            % {"count": len(errors)}
            + "; ".join(
                _("line %(line)s: %(message)s") % {"line": e["line"], "message": e["message"]} for e in errors
            ),
            errors=errors,
        )
    return teams
