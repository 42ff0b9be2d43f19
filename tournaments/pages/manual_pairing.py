"""The organizer pairs the next Swiss round by hand: a plain form (no JavaScript), one row per
table, started from the engine's proposal, any number of byes, and a reason.

It posts to ``round_pair_manual``, the API's service, which alone decides what a manual pairing
may be (docs/decisions.md "Manual pairing"); the page only places each refusal next to the table
it is about.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import zip_longest

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from common.errors import DomainError
from tournaments.models import Team, Tournament
from tournaments.page_access import staff_event
from tournaments.pages.common import round_matches
from tournaments.pages.manage_page import manual_pairing_number, render_manage
from tournaments.services.manual_pairing import ManualPairingDraft, manual_pairing_draft, round_pair_manual
from tournaments.standings import standings_for

#: Empty rows under the proposal, for byes or tables the organizer adds.
EXTRA_ROWS = 2


@dataclass
class PairRow:
    """One table of the form: the teams chosen (None: nothing, or for team B a bye) and what the
    service said about it."""

    team_a: int | None
    team_b: int | None
    problems: list[str] = field(default_factory=list)


@dataclass
class Refusal:
    """A refused pairing spread over the form: per row, for the byes list, for the reason, and
    the rest (teams left out) at the top."""

    rows: dict[int, list[str]] = field(default_factory=dict)
    byes: list[str] = field(default_factory=list)
    reason: str = ""
    general: list[str] = field(default_factory=list)


def _team_id(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() else None


def _posted_rows(request) -> list[PairRow]:
    pairs = zip_longest(request.POST.getlist("team_a"), request.POST.getlist("team_b"))
    return [PairRow(_team_id(a), _team_id(b)) for a, b in pairs]


def _team_options(tournament: Tournament, draft: ManualPairingDraft) -> list[tuple[int, str]]:
    """The active teams in standings order, each with its match points (what Swiss pairs by)."""
    points = {line.team_id: line.match_points for line in standings_for(tournament)}
    names = dict(Team.objects.filter(pk__in=draft.teams).values_list("id", "name"))
    return [
        (team, _("%(name)s (%(points)s points)") % {"name": names[team], "points": points.get(team, 0)})
        for team in draft.teams
    ]


def _render(request, tournament, draft, *, rows, byes, reason, refusal: Refusal | None = None, status=200):
    refusal = refusal or Refusal()
    for index, row in enumerate(rows):
        row.problems = refusal.rows.get(index, [])
    context = {
        "tournament": tournament,
        "number": draft.number,
        "teams": _team_options(tournament, draft),
        "rows": rows,
        "byes": byes,
        "reason": reason,
        "refusal": refusal,
        "refused": status != 200,
    }
    return render(request, "tournaments/pair_by_hand.html", context, status=status)


def _refusal(error: DomainError, origins: list[int | None], blank_b: dict[int, str]) -> Refusal:
    """Each of the service's problems next to the row its match came from (``origins``: the row of
    each match, None for the byes list)."""
    refusal = Refusal(rows={row: [message] for row, message in blank_b.items()})
    for problem in error.errors:
        if problem.get("field") == "reason":
            refusal.reason = _(
                "Give the reason for pairing this round by hand (it is kept in the audit log)."
            )
        elif "match" in problem and origins[problem["match"]] is not None:
            refusal.rows.setdefault(origins[problem["match"]], []).append(problem["message"])
        elif "match" in problem:
            refusal.byes.append(problem["message"])
        else:
            refusal.general.append(problem["message"])
    if not error.errors:
        refusal.general.append(error.message)
    return refusal


@login_required
@require_http_methods(["GET", "POST"])
def round_pair_manual_view(request, tournament_id: int):
    """GET: the form, filled with the engine's proposal. POST: the organizer's pairing, stored by
    ``round_pair_manual`` or shown again with its refusals next to the tables they name."""
    tournament = staff_event(request, tournament_id, "can_pair_by_hand")
    current = tournament.rounds.newest()
    if manual_pairing_number(tournament, current, round_matches(current) if current else []) is None:
        return render_manage(
            request,
            tournament,
            status=409,
            error=_("No Swiss round can be paired now, by hand or otherwise."),
        )
    draft = manual_pairing_draft(tournament)
    if request.method == "GET":
        rows = [PairRow(a, b) for a, b in draft.tables] + [PairRow(None, None) for _ in range(EXTRA_ROWS)]
        return _render(request, tournament, draft, rows=rows, byes=[], reason="")
    rows = _posted_rows(request)
    byes = [team for team in map(_team_id, request.POST.getlist("byes")) if team is not None]
    reason = request.POST.get("reason", "")
    matches: list[tuple[int, int | None]] = []
    origins: list[int | None] = []
    blank_b = {}
    for index, row in enumerate(rows):
        if row.team_a is not None:
            matches.append((row.team_a, row.team_b))
            origins.append(index)
        elif row.team_b is not None:
            blank_b[index] = _("Choose this table's first team too, or leave both empty.")
    matches += [(team, None) for team in byes]
    origins += [None] * len(byes)
    try:
        if blank_b:
            raise DomainError(_("Choose the first team of every table you use."))
        new_round = round_pair_manual(
            tournament=tournament, actor=request.user, matches=matches, reason=reason
        )
    except DomainError as error:
        refusal = _refusal(error, origins, blank_b)
        return _render(
            request,
            tournament,
            draft,
            rows=rows,
            byes=byes,
            reason=reason,
            refusal=refusal,
            status=error.status_code,
        )
    messages.success(
        request,
        _("Round %(number)s paired by hand. Check it, then publish it from the manage page.")
        % {"number": new_round.number},
    )
    return redirect("tournament-round", tournament_id=tournament.id, number=new_round.number)
