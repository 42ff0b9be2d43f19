"""What every printed document's context shares: the header and footer (the title, the event,
the round), a team's side of a pairing as the templates print it, points, and the pages' "Page X of Y"."""

from __future__ import annotations

from django.utils.translation import gettext as _

from documents.enums import DocumentKind
from documents.geometry import layout
from documents.textfit import fit_names
from tournaments.enums import RoundKind
from tournaments.models import Round, Tournament
from tournaments.read_models import Side


def pts(points: int) -> str:
    return _("%(points)s pts") % {"points": points}


def numbered(pages: list[dict]) -> list[dict]:
    total = len(pages)
    for number, page in enumerate(pages, start=1):
        page["label"] = _("Page %(number)s of %(total)s") % {"number": number, "total": total}
    return pages


def _event(tournament: Tournament) -> dict:
    return {
        "id": tournament.id,
        "name": tournament.name,
        "date": tournament.date.isoformat() if tournament.date else "",
        "venue": tournament.venue,
        "format": _(tournament.get_format_display()),
        "rel": _(tournament.get_rel_display()),
        # The document's language and zone (documents.services renders in them): part of the
        # content hash, so a language change never reuses a file in the old one.
        "language": tournament.language,
        "time_zone": tournament.time_zone,
    }


def _round(round_obj: Round | None) -> dict | None:
    if round_obj is None:
        return None
    if round_obj.kind == RoundKind.PLAYOFF:
        label = _("Round %(number)s (playoff)") % {"number": round_obj.number}
    else:
        label = _("Round %(number)s") % {"number": round_obj.number}
    return {"number": round_obj.number, "kind": round_obj.kind, "label": label}


def team_side(side: Side) -> dict:
    """A side of a pairing row (``read_models.pairings_by_table``) as the templates print it."""
    return {
        "id": side.team.id,
        "name": side.team.name,
        "points": side.match_points,
        "players": [
            {
                "id": seat.player.id,
                "name": seat.player.name,
                "wizards_id": seat.player.wizards_id,
                "primary": seat.primary,
            }
            for seat in side.seats
        ],
    }


def header(tournament: Tournament, round_obj: Round | None, kind: str, paper: str) -> dict:
    round_info = _round(round_obj)
    round_part = f" · {round_info['label']}" if round_info else ""
    return {
        "kind": kind,
        "title": str(DocumentKind(kind).label),
        "paper": paper,
        "event": _event(tournament),
        "round": round_info,
        # The footer's left box is fixed-width: the event name gives way, the round stays.
        "foot": fit_names(
            "{}" + round_part, [tournament.name], layout().foot_event.mm, layout().foot_event.pt
        ),
    }
