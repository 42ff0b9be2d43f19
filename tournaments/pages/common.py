"""Small helpers every audience's pages use: a posted text field, whether htmx asked, and a round's
label, its matches and a match's side seated as recorded. The only logic here is presentation.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from common.errors import DomainError
from tournaments.enums import RoundKind
from tournaments.models import Match, Round, Tournament
from tournaments.read_models import Side, seated_side
from tournaments.selectors import matches_for_round


def posted_text(request, name: str) -> str:
    """A posted text field; a NUL character (no database text column holds one) is refused."""
    value = request.POST.get(name, "")
    if "\x00" in value:
        raise DomainError(
            _("%(field)s: contains a NUL character") % {"field": name},
            errors=[{"field": name, "message": "NUL"}],
        )
    return value


def is_htmx(request) -> bool:
    """Whether htmx sent the request (it wants the fragment, not the page)."""
    return request.headers.get("HX-Request") == "true"


def round_label(tournament: Tournament, current: Round | None) -> str:
    """ "Round 3 of 5" in the Swiss part, "Round 6: playoff" in the top cut."""
    if current is None:
        return _("Rounds")
    if current.kind == RoundKind.PLAYOFF:
        return _("Round %(number)s: playoff") % {"number": current.number}
    if tournament.swiss_rounds:
        return _("Round %(number)s of %(total)s") % {
            "number": current.number,
            "total": tournament.swiss_rounds,
        }
    return _("Round %(number)s") % {"number": current.number}


def round_matches(round_obj: Round) -> list[Match]:
    """The round's matches with each team's players (three queries), byes last whatever the
    database does with the empty table number (SQLite sorts it first)."""
    matches = matches_for_round(round_obj).prefetch_related("team_a__players", "team_b__players")
    return sorted(matches, key=lambda match: match.table is None)


def side_of(match: Match, letter: str) -> Side | None:
    """One side of ``match`` seated as recorded, from its team's prefetched players (no points)."""
    team = match.team_a if letter == "A" else match.team_b
    players = {team.pk: list(team.players.all())} if team is not None else {}
    return seated_side(match, letter, players, {})
