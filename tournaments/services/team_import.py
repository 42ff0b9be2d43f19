"""Registering many teams at the desk from one CSV paste, all or nothing.

Each line goes through ``registration.register.team_register``, so the same rules apply as for one team;
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
from tournaments.registration.checks import field_label
from tournaments.registration.planner import PlayerEntry
from tournaments.registration.register import team_register


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
    ``team name, player name, Wizards Account, player name, Wizards Account`` (one pair per member),
    or with a reading after each account (``player name, Wizards Account, reading``), the kana a
    Japanese name sorts by (an empty cell for a name that needs none).

    All or nothing, like EventLink's player import: every line is checked (by ``team_register``,
    so the same rules apply, duplicates within the file included) and if any line is wrong,
    nothing is saved and each problem is reported with its line number.
    """
    rows = _import_rows(text)
    if not rows:
        raise DomainError(
            _("No team to import: paste one team a line."), errors=[{"field": "csv", "message": _("empty")}]
        )
    size = tournament.team_size
    errors: list[dict] = []
    teams: list[Team] = []
    for number, cells in rows:
        # Two cells a player, or three with the reading: the counts never coincide for one size.
        per_player = {1 + 2 * size: 2, 1 + 3 * size: 3}.get(len(cells))
        if per_player is None:
            errors.append(
                {
                    "line": number,
                    "message": _(
                        "%(count)s values; expected %(expected)s (or %(with_readings)s with a reading "
                        "after each account): the team name, then a name and a Wizards Account for "
                        "each of the %(team_size)s players"
                    )
                    % {
                        "count": len(cells),
                        "expected": 1 + 2 * size,
                        "with_readings": 1 + 3 * size,
                        "team_size": size,
                    },
                }
            )
            continue
        players = [
            PlayerEntry(
                name=cells[1 + per_player * index],
                wizards_id=cells[2 + per_player * index],
                name_reading=cells[3 + per_player * index] if per_player == 3 else "",
            )
            for index in range(size)
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
