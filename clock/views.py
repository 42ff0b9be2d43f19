"""Round clock pages: the projector, the judges' table list and a player's own table.

Pages read through ``clock.selectors`` and write only through the clock services;
the clock itself keeps counting in the browser (``static/js/clock.js``), which polls the clock
API every few seconds, so nothing here has to be reloaded to stay right.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clock.domain.display import TableClock
from clock.domain.end_of_round import Outcome, outcome_after_last_turn
from clock.domain.round_clock import MAX_EXTENSION_MINUTES
from clock.selectors import match_clock_row, round_clock_data
from clock.services import (
    match_time_call,
    match_turn_complete,
    round_pause,
    round_resume,
    round_start,
    time_extension_grant,
)
from common.errors import DomainError
from common.numbers import parse_column_int
from tournaments.localization import event_locale
from tournaments.models import Match, Player, Round, Tournament
from tournaments.rules import can_run_clock, can_work_table, is_event_staff

STATE_LABELS = {
    "not_started": gettext_lazy("Waiting for the start"),
    "running": "",
    "paused": gettext_lazy("Paused"),
    "time_up": gettext_lazy("Time"),
    "finished": gettext_lazy("Round over"),
}


def format_seconds(seconds: int | None) -> str:
    """A countdown as the hall reads it: M:SS, or H:MM:SS for a 90-minute playoff round."""
    if seconds is None:
        return gettext("No time limit")
    hours, rest = divmod(max(seconds, 0), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class ExtensionForm(forms.Form):
    minutes = forms.IntegerField(min_value=1, max_value=MAX_EXTENSION_MINUTES)
    reason = forms.CharField(max_length=300)


class TimeCallForm(forms.Form):
    active_team = forms.ChoiceField(choices=[("A", "A"), ("B", "B")])


class LifeTotalsForm(forms.Form):
    """The two team life totals after the last end-of-round turn (a 2HG team has one)."""

    life_a = forms.IntegerField(min_value=-999, max_value=999)
    life_b = forms.IntegerField(min_value=-999, max_value=999)


def _round_for_page(tournament: Tournament, number: str | None, *, staff: bool) -> Round | None:
    """The round a page shows: the one asked for, else the latest the viewer may see (published
    for the public; staff see a round as soon as it is paired)."""
    rounds = Round.objects.filter(tournament=tournament).select_related("tournament")
    if not staff:
        rounds = rounds.public()
    wanted = parse_column_int(number, Round, "number", param="round")
    if wanted is not None:
        return get_object_or_404(rounds, number=wanted)
    return rounds.newest()


def _round_for_projector(tournament: Tournament, number: str | None, *, staff: bool) -> Round | None:
    """Like ``_round_for_page``, but while the newest round waits for its start the screen keeps
    the last started one: tables on extensions there are still playing (the page's script moves
    on by itself once the next round's clock starts)."""
    newest = _round_for_page(tournament, number, staff=staff)
    if number or newest is None or newest.started_at is not None:
        return newest
    started = Round.objects.filter(tournament=tournament, started_at__isnull=False).select_related(
        "tournament"
    )
    if not staff:
        started = started.public()
    return started.newest() or newest


@dataclass(frozen=True)
class TableLine:
    """One table on the judges' list: the match, its clock row and what a judge may do next."""

    match: Match
    row: TableClock
    extensions: tuple

    @property
    def in_extra_turns(self) -> bool:
        return self.row.time_called and not self.row.finished and not self.row.result_in

    @property
    def awaiting_time_call(self) -> bool:
        """The time-up task marked the table as in extra turns; a judge has yet to call time
        with the active team."""
        return self.row.extra_turns_since is not None and not self.row.time_called

    @property
    def can_call_time(self) -> bool:
        return self.row.time_up and not self.row.time_called

    @property
    def current_turn_number(self) -> int | None:
        return self.row.current_turn.number if self.row.current_turn is not None else None

    @property
    def active_team_name(self) -> str:
        if self.row.active_team is None:
            return ""
        team = self.match.team_a if self.row.active_team == "A" else self.match.team_b
        return team.name if team is not None else ""


def _sort_key(line: TableLine, far_future: datetime) -> tuple:
    """Playing tables by end time; tables whose result is in go last."""
    return (line.row.result_in, line.row.ends_at or far_future, line.row.table)


def _clock_context(tournament: Tournament, round_row: Round | None, now: datetime) -> dict:
    context: dict = {
        "tournament": tournament,
        "round": round_row,
        "view": None,
        "lines": [],
        "remaining_text": "–",
        "state_label": gettext("No round yet"),
        # The script appends "<round number>/clock/" (the api-round-clock route).
        "api_base": reverse("api-rounds", args=[tournament.pk]),
    }
    if round_row is None:
        return context
    data = round_clock_data(round_row, now=now)
    rows = {row.table: row for row in data.view.tables}
    lines = [
        TableLine(match=match, row=rows[match.table], extensions=tuple(match.extensions.all()))
        for match in data.matches
    ]
    far_future = datetime.max.replace(tzinfo=now.tzinfo)
    context.update(
        view=data.view,
        remaining_text=format_seconds(data.view.remaining_seconds),
        state_label=STATE_LABELS[str(data.view.state)],
        lines=sorted(lines, key=lambda line: _sort_key(line, far_future)),
    )
    return context


def clock_projector(request, tournament_id: int):
    """The big clock for the hall's screen: round time, and every table with an extension or in
    extra turns, readable from the back of the room."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    staff = is_event_staff(request.user, tournament)
    round_row = _round_for_projector(tournament, request.GET.get("round"), staff=staff)
    # The hall's screen speaks the event's language, whatever the laptop's browser says.
    with event_locale(tournament):
        context = _clock_context(tournament, round_row, timezone.now())
        context["follow"] = "round" not in request.GET
        context["noted_lines"] = [
            line
            for line in context["lines"]
            if not line.row.result_in
            and (line.row.extension_minutes or line.row.time_called or line.row.extra_turns_since)
        ]
        return render(request, "clock/projector.html", context)


@login_required
def clock_judge(request, tournament_id: int):
    """The judges' list: tables by end time, who is out of time, who is in extra turns and on
    which turn, with the forms to extend, call time and advance turns."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not is_event_staff(request.user, tournament):
        raise PermissionDenied(_("staff only"))
    round_row = _round_for_page(tournament, request.GET.get("round"), staff=True)
    context = _clock_context(tournament, round_row, timezone.now())
    context["is_judge"] = can_work_table(request.user, tournament)
    context["rounds"] = list(Round.objects.filter(tournament=tournament).values_list("number", flat=True))
    context["extension_form"] = ExtensionForm()
    return render(request, "clock/judge.html", context)


@login_required
def clock_me(request, tournament_id: int):
    """A player's own table: its number, when its time runs out (extensions included) and its
    end-of-round turns, as their phone shows it at the table."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    player = Player.objects.filter(tournament=tournament, user=request.user).select_related("team").first()
    context: dict = {
        "tournament": tournament,
        "player": player,
        "round": None,
        "match": None,
        "row": None,
        # The script appends "<round number>/clock/" (the api-round-clock route).
        "api_base": reverse("api-rounds", args=[tournament.pk]),
    }
    if player is not None:
        round_row = _round_for_page(tournament, None, staff=False)
        context["round"] = round_row
        if round_row is not None:
            match = (
                Match.objects.filter(round=round_row)
                .filter(Q(team_a=player.team) | Q(team_b=player.team))
                .select_related("team_a", "team_b")
                .first()
            )
            context["match"] = match
            if match is not None and match.table is not None:
                data = round_clock_data(round_row, now=timezone.now())
                context["row"] = next(row for row in data.view.tables if row.table == match.table)
                context["view"] = data.view
                context["remaining_text"] = format_seconds(data.view.remaining_seconds)
                context["state_label"] = STATE_LABELS[str(data.view.state)]
                context["my_side"] = "A" if match.team_a_id == player.team_id else "B"
    return render(request, "clock/me.html", context)


def _judge_redirect(tournament_id: int, round_number: int) -> HttpResponseRedirect:
    url = reverse("clock-judge", args=[tournament_id])
    return HttpResponseRedirect(f"{url}?round={round_number}")


def _run(request, action, success: str) -> None:
    try:
        action()
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, success)


@require_POST
@login_required
def clock_round_action(request, tournament_id: int, number: int, action: str):
    """Start, pause or resume the round from the judges' list (any staff role, as in the API)."""
    round_row = get_object_or_404(
        Round.objects.select_related("tournament"), tournament_id=tournament_id, number=number
    )
    if not can_run_clock(request.user, round_row.tournament):
        raise PermissionDenied(_("staff only"))
    services = {"start": round_start, "pause": round_pause, "resume": round_resume}
    if action not in services:
        raise Http404(_("no such clock action"))
    extra = {"untimed": request.POST.get("untimed") == "1"} if action == "start" else {}
    _run(
        request,
        lambda: services[action](round_row=round_row, actor=request.user, at=timezone.now(), **extra),
        {
            "start": _("Round %(number)s: clock started."),
            "pause": _("Round %(number)s: clock paused."),
            "resume": _("Round %(number)s: clock resumed."),
        }[action]
        % {"number": number},
    )
    return _judge_redirect(tournament_id, number)


def _judge_match(request, tournament_id: int, match_id: int) -> Match:
    match = get_object_or_404(
        Match.objects.select_related("round__tournament"), pk=match_id, round__tournament_id=tournament_id
    )
    if not can_work_table(request.user, match.round.tournament):
        raise PermissionDenied(_("judges only"))
    return match


@require_POST
@login_required
def clock_extension(request, tournament_id: int, match_id: int):
    match = _judge_match(request, tournament_id, match_id)
    form = ExtensionForm(request.POST)
    if not form.is_valid():
        problems = "; ".join(f"{field}: {' '.join(errors)}" for field, errors in form.errors.items())
        messages.error(
            request, _("Table %(table)s: %(problems)s") % {"table": match.table, "problems": problems}
        )
    else:
        _run(
            request,
            lambda: time_extension_grant(match=match, actor=request.user, **form.cleaned_data),
            _("Table %(table)s: +%(minutes)s min (%(reason)s).")
            % {
                "table": match.table,
                "minutes": form.cleaned_data["minutes"],
                "reason": form.cleaned_data["reason"],
            },
        )
    return _judge_redirect(tournament_id, match.round.number)


@require_POST
@login_required
def clock_time_call(request, tournament_id: int, match_id: int):
    match = _judge_match(request, tournament_id, match_id)
    form = TimeCallForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Table %(table)s: choose the active team") % {"table": match.table})
    else:
        _run(
            request,
            lambda: match_time_call(
                match=match,
                actor=request.user,
                active_team=form.cleaned_data["active_team"],
                at=timezone.now(),
            ),
            _("Table %(table)s: time called, team %(team)s active.")
            % {"table": match.table, "team": form.cleaned_data["active_team"]},
        )
    return _judge_redirect(tournament_id, match.round.number)


@require_POST
@login_required
def clock_turn_complete(request, tournament_id: int, match_id: int):
    match = _judge_match(request, tournament_id, match_id)
    _run(
        request,
        lambda: match_turn_complete(match=match, actor=request.user),
        _("Table %(table)s: turn completed.") % {"table": match.table},
    )
    return _judge_redirect(tournament_id, match.round.number)


def _life_totals_message(match: Match, row: TableClock, life_a: int, life_b: int) -> tuple[int, str]:
    """What the judge is told for the life totals at a table whose last turn is over (MTR 2.4):
    the message level and text. Nothing is stored; the result goes in through result entry."""
    table = match.table
    if not row.finished:
        return messages.ERROR, _("Table %(table)s: its end-of-round turns are not over yet") % {
            "table": table
        }
    outcome = outcome_after_last_turn(match.round.kind, life_a, life_b)
    if outcome is Outcome.DRAW:
        return (
            messages.INFO,
            _("Table %(table)s: a Swiss match with no winner after the last turn is a draw (MTR 2.4).")
            % {"table": table},
        )
    if outcome is Outcome.PLAY_ON:
        return messages.WARNING, _(
            "Table %(table)s: life totals equal (%(life)s each): play on. A playoff has no draws: as soon as "
            "one team is ahead, the team not at the highest life total loses (MTR 2.4)."
        ) % {"table": table, "life": life_a}
    side, team = ("A", match.team_a) if outcome is Outcome.A_WINS else ("B", match.team_b)
    return messages.SUCCESS, _(
        "Table %(table)s: team %(side)s (%(name)s) wins on life totals, %(high)s to %(low)s (MTR 2.4). "
        "Enter the result as usual."
    ) % {
        "table": table,
        "side": side,
        "name": team.name,
        "high": max(life_a, life_b),
        "low": min(life_a, life_b),
    }


@require_POST
@login_required
def clock_life_totals(request, tournament_id: int, match_id: int):
    """After a playoff table's last extra turn with no winner: the judge enters both life totals
    and is told who wins, or that play goes on on equal totals (MTR 2.4). Judges only."""
    match = _judge_match(request, tournament_id, match_id)
    form = LifeTotalsForm(request.POST)
    if match.table is None or match.team_b_id is None:
        messages.error(request, _("a bye has no table and no life totals"))
    elif not form.is_valid():
        messages.error(
            request, _("Table %(table)s: enter both life totals as whole numbers") % {"table": match.table}
        )
    else:
        table = (
            Match.objects.select_related("round__tournament", "team_a", "team_b")
            .prefetch_related("extensions")
            .get(pk=match.pk)
        )
        row = match_clock_row(table, now=timezone.now())
        level, text = _life_totals_message(table, row, **form.cleaned_data)
        messages.add_message(request, level, text)
    return _judge_redirect(tournament_id, match.round.number)
