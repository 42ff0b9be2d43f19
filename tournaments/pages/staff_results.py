"""Results as staff enter them: each match's report as staff read it, a row of the manage page's
results form, a result entered through ``MatchResultForm`` (the manage page's row, a paper slip)
and a refusal in the scorekeeper's words (the floor's end-of-round entry says it too).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from common.errors import DomainError
from common.i18n import localize
from tournaments.domain import games_to_win
from tournaments.domain.report_view import ReportView, report_view
from tournaments.forms import MatchResultForm, result_choice
from tournaments.models import Match, Tournament
from tournaments.selectors import match_entries
from tournaments.services.results import match_result_report


def staff_views(matches: list[Match]) -> dict[int, ReportView]:
    """The staff's view of each match's report (``domain.report_view``; one query). The matches
    come with ``reported_by`` joined: the status line names who reported."""
    entries = match_entries(matches)
    return {
        match.pk: report_view(
            entries[match.pk],
            author_names={match.reported_by_id: match.reported_by.username} if match.reported_by_id else None,
        )
        for match in matches
    }


#: The Key box's letter for each result (static/js/results_grid.js maps them back).
RESULT_KEYS = {"a": "1", "b": "2", "draw": "D", "id": "I"}


def result_row(
    match: Match,
    view: ReportView,
    *,
    playoff: bool,
    message: str = "",
    failed: bool = False,
    chosen: str = "",
) -> dict:
    """One table of the results form: the match, who reported it, the choice it shows and what the
    last save said. ``chosen``: the result the scorekeeper picked in a save refused for want of a
    reason, which the row keeps while it asks for the reason (saving again saves that choice). A
    playoff row offers no draw (MTR 2.4: a playoff match needs a winner)."""
    choice = chosen or result_choice(
        team_a_wins=match.team_a_wins,
        team_b_wins=match.team_b_wins,
        draws=match.draws,
        has_result=match.has_result,
    )
    return {
        "match": match,
        "state": view.state.value,
        "status": localize(view.status),
        "choice": choice,
        "key": RESULT_KEYS.get(chosen, ""),
        "allow_draw": not playoff,
        "message": message,
        "failed": failed,
    }


def staff_result_entry(request, tournament: Tournament, match: Match, invalid: str) -> tuple[Match, int, str]:
    """A result staff entered through a ``MatchResultForm`` (the manage page's row, a paper slip):
    the match as it now stands, the status to answer and what went wrong (``invalid`` for a form
    without a result)."""
    form = MatchResultForm(request.POST)
    if not form.is_valid():
        return match, 400, invalid
    try:
        match = match_result_report(
            match=match,
            actor=request.user,
            version=form.cleaned_data["version"],
            reason=form.cleaned_data["reason"],
            **form.games(games_to_win(tournament.games_per_match)),
        )
    except DomainError as error:
        match.refresh_from_db()
        return match, error.status_code, result_refusal(error)
    return match, 200, ""


def result_refusal(error: DomainError) -> str:
    """The refusal in the scorekeeper's words (no internal field names)."""
    if any(item.get("field") == "reason" for item in error.errors):
        return _("This result is confirmed: give a reason to change it (kept in the audit log).")
    if error.status_code == 409 and "match" in error.extra:
        current = error.extra["match"]
        return _(
            "Someone else changed this result: it is now %(a)s-%(b)s-%(draws)s. Check it, then save again."
        ) % {"a": current["team_a_wins"], "b": current["team_b_wins"], "draws": current["draws"]}
    return error.message
