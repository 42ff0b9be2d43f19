"""The result block of the player's page and of the slip's page (``tournaments/_me_report.html``):
the match's state and both teams' reports in words, and the form a reader may answer with. The
state and what the reader may do come from ``domain.report_view``; here only the wording and the
form's defaults.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from common.i18n import localize
from tournaments.domain.report_view import ReaderMay, ReportView, report_view
from tournaments.domain.result_state import Entry
from tournaments.enums import RoundKind, TeamSide
from tournaments.forms import PlayerReportForm, report_choice
from tournaments.models import Match, Tournament
from tournaments.selectors import match_entries

#: How often the block asks whether the match changed, with JavaScript on.
POLL_SECONDS = 4


def outcome_text(match: Match, team_a_wins: int, team_b_wins: int, draws: int) -> str:
    """A game record in words, by team name, so both teams read the same sentence."""
    if team_a_wins > team_b_wins:
        return _("%(team)s won") % {"team": match.team_a.name}
    if team_b_wins > team_a_wins:
        return _("%(team)s won") % {"team": match.team_b.name}
    if draws >= 3:
        return _("Intentional draw (0-0-3)")
    return _("Draw (%(record)s)") % {"record": f"{team_a_wins}-{team_b_wins}-{draws}"}


def _report_text(match: Match, report: Entry | None) -> str:
    if report is None:
        return ""
    return outcome_text(match, report.a_wins, report.b_wins, report.draws)


def _default_draw_kind(match: Match, view: ReportView, side: TeamSide) -> str:
    """The draw the form preselects: the other team's if they reported one (so one tap confirms
    it), else ours; else an intentional draw while the round's clock runs with time left (a drawn
    game is replayed while time remains, MTR 9.1), a time draw otherwise."""
    for report in (view.theirs, view.ours):
        if report is not None and report.a_wins == report.b_wins:
            return report_choice(
                team_a_wins=report.a_wins, team_b_wins=report.b_wins, draws=report.draws, side=side
            )[1]
    round_obj = match.round
    clock_running = round_obj.started_at is not None and round_obj.time_up_recorded_at is None
    return "intentional" if clock_running and match.time_called_at is None else "time"


def report_block(
    tournament: Tournament,
    match: Match,
    side: TeamSide | None,
    *,
    post_url: str,
    poll_url: str,
    message: str = "",
    failed: bool = False,
    ask_side: bool = False,
) -> dict[str, Any]:
    """What ``_me_report.html`` shows for ``side`` of ``match``: the state in words, both teams'
    open reports, and the form (unless the result is settled or players do not report).

    ``side`` is ``None`` on a slip's page before its holder said which team they are on: the
    block then names both teams (``neutral``) instead of saying "you" and "they". ``ask_side``:
    the reader holds the slip without being a signed-in player of the match, so the block offers
    only what a slip may do (docs/decisions.md "Result slips, players' phones and staff")."""
    neutral = side is None
    if side is None:
        side = TeamSide(match.reported_side) if match.reported_side else TeamSide.A
    view = report_view(
        match_entries([match])[match.pk],
        side,
        games_per_match=tournament.games_per_match,
        players_report=tournament.player_reporting,
        slip=ask_side,
        side_chosen=not neutral,
        team_names={TeamSide.A: match.team_a.name, TeamSide.B: match.team_b.name},
    )
    mine = match.team_a if side == TeamSide.A else match.team_b
    theirs = match.team_b if side == TeamSide.A else match.team_a
    current = outcome_text(match, match.team_a_wins, match.team_b_wins, match.draws)
    confirm_value = ""
    if ReaderMay.CONFIRM in view.may and view.theirs is not None:
        confirm_value = report_choice(
            team_a_wins=view.theirs.a_wins, team_b_wins=view.theirs.b_wins, draws=view.theirs.draws, side=side
        )[0]
    return {
        "match": match,
        "side": side,
        "state": view.state.value,
        "our_team": mine,
        "their_team": theirs,
        "current": current,
        "ours": _report_text(match, view.ours),
        "theirs": _report_text(match, view.theirs),
        "can_report": bool(view.may),
        "player_reporting": tournament.player_reporting,
        "confirm_value": confirm_value,
        "draw_kind": _default_draw_kind(match, view, side),
        "allow_draw": match.round.kind != RoundKind.PLAYOFF,
        "draw_choices": PlayerReportForm.DRAW_CHOICES,
        "post_url": post_url,
        "poll_url": f"{poll_url}?v={match.version}",
        "poll_seconds": POLL_SECONDS,
        "message": message,
        "failed": failed,
        "ask_side": ask_side,
        "slip_note": localize(view.note) if view.note else "",
        "sign_in_url": f"{reverse('login')}?next={post_url}" if ask_side else "",
        "neutral": neutral,
        "sides": [(TeamSide.A, match.team_a), (TeamSide.B, match.team_b)],
    }


def me_report_block(tournament: Tournament, match: Match, team_id: int, **kwargs: Any) -> dict[str, Any]:
    """The report block of the player's own page for their team's match."""
    side = TeamSide.A if match.team_a_id == team_id else TeamSide.B
    url = reverse("tournament-me-report", args=[tournament.pk, match.pk])
    return report_block(tournament, match, side, post_url=url, poll_url=url, **kwargs)
