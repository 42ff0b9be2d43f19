"""Context builders for the floor's PDFs: the outstanding-tables sheet and the DQ report.

Both read the same selectors as the pages (the sheet's rows are the console's rows), and render
through ``common.pdf.render_pdf`` into ``templates/pdf/``.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from floor import selectors
from floor.models import Zone
from tournaments.models import Round, Tournament


def _when(moment: datetime | None, fmt: str = "%H:%M:%S") -> str:
    return timezone.localtime(moment).strftime(fmt) if moment else ""


def _event(tournament: Tournament) -> dict:
    return {
        "name": tournament.name,
        "date": tournament.date.isoformat() if tournament.date else "",
        "venue": tournament.venue,
        "format": _(tournament.get_format_display()),
        "rel": _(tournament.get_rel_display()),
    }


def _base(tournament: Tournament, title: str, now: datetime) -> dict:
    return {
        "title": title,
        "paper": "a4",
        "event": _event(tournament),
        "foot": tournament.name[:60],
        "generated_at": _when(now, "%Y-%m-%d %H:%M %Z"),
    }


def outstanding_tables(
    tournament: Tournament, round_row: Round, zones: list[Zone | None], *, now: datetime
) -> dict:
    """One page per zone: its tables without a confirmed result, by their own end."""
    pages = []
    for zone in zones:
        rows = selectors.end_of_round(round_row, zone=zone, now=now)
        pages.append(
            {
                "zone": _("%(zone)s (tables %(first)s-%(last)s)")
                % {"zone": zone.name, "first": zone.first_table, "last": zone.last_table}
                if zone
                else _("All tables"),
                "judges": ", ".join(u.get_username() for u in zone.judges.all()) if zone else "",
                "rows": [
                    {
                        "table": row.table,
                        "team_a": row.match.team_a.name,
                        "team_b": row.match.team_b.name if row.match.team_b else "",
                        "ends": _when(row.ends_at) or _("untimed"),
                        "extension": f"+{row.extension_minutes}" if row.extension_minutes else "",
                        "turns": (
                            _("%(played)s of %(total)s")
                            % {"played": row.extra_turns_played, "total": row.extra_turns_total}
                            if row.time_called
                            else _("%(total)s after time") % {"total": row.extra_turns_total}
                        ),
                        "result": _("reported, not confirmed") if row.result_in else _("missing"),
                    }
                    for row in rows
                ],
            }
        )
    return {
        **_base(tournament, _("Outstanding tables · round %(number)s") % {"number": round_row.number}, now),
        "round_number": round_row.number,
        "as_of": _when(now),
        "pages": pages,
    }


def dq_report(
    penalty, *, player_statement: str, head_judge_statement: str, head_judge, now: datetime
) -> dict:
    """The facts Wizards asks for about a Disqualification: player, event, infraction, what
    happened, the statements (the form's and the statements noted on the penalty), head judge."""
    tournament = penalty.tournament
    statements = [
        {
            "by": note.given_by or (note.author.get_full_name() or note.author.get_username()),
            "text": note.text,
            "at": _when(note.created_at, "%Y-%m-%d %H:%M"),
        }
        for note in selectors.notes_for(tournament, head_judge=True, penalty_id=penalty.pk)
    ]
    return {
        **_base(tournament, _("Disqualification report"), now),
        "player": {
            "name": penalty.player.name,
            "wizards_id": penalty.player.wizards_id,
            "team": penalty.team.name,
        },
        "round": penalty.round.number,
        "table": penalty.match.table if penalty.match and penalty.match.table else "",
        "infraction": penalty.get_infraction_display(),
        "penalty": penalty.get_penalty_display(),
        "issued_at": _when(penalty.created_at, "%Y-%m-%d %H:%M"),
        "judge": penalty.judge.get_full_name() or penalty.judge.get_username(),
        "description": penalty.description,
        "player_statement": player_statement,
        "head_judge_statement": head_judge_statement,
        "statements": statements,
        "head_judge": head_judge.get_full_name() or head_judge.get_username(),
    }
