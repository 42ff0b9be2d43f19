"""What a team's result block shows: the match's report state in words and the report form's
defaults. One view model for the player's page and the slip's QR page."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.domain.result_state import EntrySource
from tournaments.enums import RoundKind, TeamSide
from tournaments.forms import PlayerReportForm, report_choice
from tournaments.models import Match, ResultReport, Tournament
from tournaments.selectors import match_report_status

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


def _report_text(match: Match, report: ResultReport | None) -> str:
    if report is None:
        return ""
    return outcome_text(match, report.team_a_wins, report.team_b_wins, report.draws)


def _default_draw_kind(match: Match, status, side: TeamSide) -> str:
    """The draw the form preselects: the other team's if they reported one (so one tap confirms
    it), else ours; else an intentional draw while the round's clock runs with time left (a drawn
    game is replayed while time remains, MTR 9.1), a time draw otherwise."""
    for report in (status.theirs, status.ours):
        if report is not None and report.team_a_wins == report.team_b_wins:
            return report_choice(
                team_a_wins=report.team_a_wins, team_b_wins=report.team_b_wins, draws=report.draws, side=side
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
    status = match_report_status(match, side)
    mine = match.team_a if side == TeamSide.A else match.team_b
    theirs = match.team_b if side == TeamSide.A else match.team_a
    current = outcome_text(match, match.team_a_wins, match.team_b_wins, match.draws)
    can_report = tournament.player_reporting and status.state not in ("confirmed", "penalty")
    slip_note = ""
    if ask_side and can_report and match.reported_side:
        can_report, slip_note = _slip_may(match, status, side, neutral)
    confirm_value = ""
    if status.state == "to_confirm" and status.theirs is not None and not ask_side:
        confirm_value = report_choice(
            team_a_wins=status.theirs.team_a_wins,
            team_b_wins=status.theirs.team_b_wins,
            draws=status.theirs.draws,
            side=side,
        )[0]
    return {
        "match": match,
        "side": side,
        "state": status.state,
        "our_team": mine,
        "their_team": theirs,
        "current": current,
        "ours": _report_text(match, status.ours),
        "theirs": _report_text(match, status.theirs),
        "can_report": can_report,
        "player_reporting": tournament.player_reporting,
        "confirm_value": confirm_value,
        "draw_kind": _default_draw_kind(match, status, side),
        "allow_draw": match.round.kind != RoundKind.PLAYOFF,
        "draw_choices": PlayerReportForm.DRAW_CHOICES,
        "post_url": post_url,
        "poll_url": f"{poll_url}?v={match.version}",
        "poll_seconds": POLL_SECONDS,
        "message": message,
        "failed": failed,
        "ask_side": ask_side,
        "slip_note": slip_note,
        "sign_in_url": f"{reverse('login')}?next={post_url}" if ask_side else "",
        "neutral": neutral,
        "sides": [(TeamSide.A, match.team_a), (TeamSide.B, match.team_b)],
    }


def _slip_may(match: Match, status, side: TeamSide, neutral: bool) -> tuple[bool, str]:
    """Whether a slip's holder may still report, and what the page tells them: the slip's own
    report may be corrected from the phone that sent it; a report from the slip stands for one
    team only; the other team's report is confirmed by a signed-in player, never by the slip."""
    reported = TeamSide(match.reported_side)
    standing = status.ours if reported == side else status.theirs
    other = match.team_b if reported == TeamSide.A else match.team_a
    if standing is not None and standing.source == EntrySource.SLIP:
        if not neutral and side == reported:
            return True, ""
        return False, _(
            "This result slip has reported for one team; a slip counts for one team only. To "
            "confirm, a player of %(team)s signs in, or hand the slip to a scorekeeper."
        ) % {"team": other.name}
    return True, _(
        "A result slip cannot confirm a report: a player of %(team)s confirms signed in, or hands "
        "the slip to a scorekeeper. If the result is wrong, report what happened: a judge will come."
    ) % {"team": other.name}


def me_report_block(tournament: Tournament, match: Match, team_id: int, **kwargs: Any) -> dict[str, Any]:
    """The report block of the player's own page for their team's match."""
    side = TeamSide.A if match.team_a_id == team_id else TeamSide.B
    url = reverse("tournament-me-report", args=[tournament.pk, match.pk])
    return report_block(tournament, match, side, post_url=url, poll_url=url, **kwargs)
