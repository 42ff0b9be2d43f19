"""Floor pages: phone first, one hand, every write a plain form (JavaScript only refreshes lists).

Here the live floor: judge calls, zones and the end-of-round console, deck checks. Notes,
investigations and the DQ report are in ``floor.notes_views``, which shares the page helpers below.

Reads go through ``floor.selectors`` (the same rows the API and the PDFs show), writes through
``floor.services`` and the clock's and penalties' services. A refused write comes back as a
message on the page it was made from.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clock.domain.round_clock import MAX_EXTENSION_MINUTES
from clock.services import match_time_call, match_turn_complete
from common.errors import DomainError
from common.i18n import localize
from common.idempotency import idempotent
from common.numbers import parse_id
from common.pdf import render_pdf
from floor import documents, selectors
from floor.domain.calls import CallStatus
from floor.domain.deck_checks import PlanError
from floor.models import JudgeCall, Zone
from floor.services.calls import (
    REASON_MAX,
    judge_call_claim,
    judge_call_escalate,
    judge_call_raise,
    judge_call_resolve,
)
from floor.services.zones import zone_create, zone_delete
from penalties.domain import CATALOGUE
from penalties.models import Penalty
from tournaments.domain import games_to_win
from tournaments.forms import MatchResultForm
from tournaments.localization import event_locale
from tournaments.models import Match, Player, Round, Tournament
from tournaments.pages.staff_results import result_refusal
from tournaments.rules import (
    can_call_judge,
    can_enter_end_of_round_result,
    can_head_judge,
    can_judge,
    can_plan_zones,
    can_see_floor,
)
from tournaments.services.results import match_result_end_of_round

INFRACTION_CHOICES = [("", "no penalty")] + [(code, f"{code} {i.name}") for code, i in CATALOGUE.items()]


def event_or_404(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament, pk=tournament_id)


def require_allowed(allowed: bool, message: str) -> None:
    if not allowed:
        raise PermissionDenied(message)


def form_problems(form: forms.Form) -> str:
    """A refused form's errors in one message, each under its field's label (in the reader's
    language), for pages that answer a bad post with a message rather than the form again."""
    return "; ".join(
        f"{form.fields[name].label if name in form.fields else name}: {' '.join(errors)}"
        for name, errors in form.errors.items()
    )


def run_action(request, action, success: str) -> object | None:
    """Run a service call; its refusal becomes an error message instead of a page."""
    try:
        result = action()
    except DomainError as exc:
        messages.error(request, exc.message)
        return None
    messages.success(request, success)
    return result


def _back(request, fallback: str) -> HttpResponseRedirect:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return HttpResponseRedirect(target)
    return HttpResponseRedirect(fallback)


# --- Judge calls ---------------------------------------------------------------------------


@login_required
def calls_page(request, tournament_id: int):
    """The live queue: open calls by age with Claim and Escalate; refreshed by a small poll."""
    tournament = event_or_404(tournament_id)
    require_allowed(can_see_floor(request.user, tournament), _("Only the event's staff see the judge calls."))
    calls = selectors.calls_for_event(tournament)
    context = {
        "tournament": tournament,
        "live": [c for c in calls if c.effective_status in (CallStatus.OPEN, CallStatus.CLAIMED)],
        "done": [c for c in calls if c.effective_status not in (CallStatus.OPEN, CallStatus.CLAIMED)][:20],
        "is_judge": can_judge(request.user, tournament),
        "now": timezone.now(),
    }
    return render(request, "floor/calls.html", context)


class ResolveForm(forms.Form):
    note = forms.CharField(
        label=gettext_lazy("Note"), max_length=4000, widget=forms.Textarea(attrs={"rows": 3})
    )
    extension_minutes = forms.IntegerField(
        min_value=0,
        max_value=MAX_EXTENSION_MINUTES,
        required=False,
        label=gettext_lazy("Time extension (minutes)"),
    )
    infraction = forms.ChoiceField(choices=INFRACTION_CHOICES, required=False, label=gettext_lazy("Penalty"))
    player = forms.TypedChoiceField(
        coerce=int, required=False, empty_value=None, label=gettext_lazy("Player penalised")
    )


@login_required
def call_page(request, tournament_id: int, call_id: int):
    tournament = event_or_404(tournament_id)
    require_allowed(can_see_floor(request.user, tournament), _("Only the event's staff see the judge calls."))
    call = selectors.call_detail(call_id)
    if call is None or call.tournament_id != tournament.pk:
        raise Http404(_("no such call"))
    form = ResolveForm()
    players = Player.objects.filter(team_id__in=[call.match.team_a_id, call.match.team_b_id]).order_by(
        "team_id", "position"
    )
    form.fields["player"].choices = [("", "—")] + [(p.pk, p.name) for p in players]
    context = {
        "tournament": tournament,
        "call": call,
        "form": form,
        "is_judge": can_judge(request.user, tournament),
        "notes": selectors.notes_for(
            tournament, head_judge=can_head_judge(request.user, tournament), match_id=call.match_id
        )
        if can_judge(request.user, tournament)
        else [],
    }
    return render(request, "floor/call.html", context)


@require_POST
@login_required
def call_action(request, tournament_id: int, call_id: int, action: str):
    tournament = event_or_404(tournament_id)
    require_allowed(can_judge(request.user, tournament), _("Only the event's judges answer calls."))
    call = get_object_or_404(JudgeCall.objects.select_related("match"), pk=call_id, tournament=tournament)
    table = call.match.table
    detail = reverse("floor-call", args=[tournament.pk, call.pk])
    if action == "claim":
        done = run_action(
            request,
            lambda: judge_call_claim(call=call, actor=request.user),
            _("Table %(table)s is yours: on your way.") % {"table": table},
        )
        return _back(request, detail if done else reverse("floor-calls", args=[tournament.pk]))
    if action == "escalate":
        run_action(
            request,
            lambda: judge_call_escalate(call=call, actor=request.user),
            _("Table %(table)s: sent to the head judge.") % {"table": table},
        )
        return _back(request, detail)
    if action == "resolve":
        form = ResolveForm(request.POST)
        form.fields["player"].choices = [
            (p.pk, p.name)
            for p in Player.objects.filter(team_id__in=[call.match.team_a_id, call.match.team_b_id])
        ]
        if not form.is_valid():
            messages.error(request, form_problems(form))
            return HttpResponseRedirect(detail)
        values = form.cleaned_data
        penalty = None
        if values["infraction"]:
            if values["player"] is None:
                messages.error(request, _("Choose the player the penalty is for."))
                return HttpResponseRedirect(detail)
            penalty = {"player": values["player"], "infraction": values["infraction"]}
        done = run_action(
            request,
            lambda: judge_call_resolve(
                call=call,
                actor=request.user,
                note=values["note"],
                penalty=penalty,
                extension_minutes=values["extension_minutes"],
            ),
            _("Table %(table)s: call resolved.") % {"table": table},
        )
        return HttpResponseRedirect(reverse("floor-calls", args=[tournament.pk]) if done else detail)
    raise Http404(_("unknown action"))


@require_POST
@login_required
@idempotent
def call_raise(request, tournament_id: int):
    """A player's "Call a judge" (their own current table), or staff raising one for a table;
    a call a phone queued offline and sends again is raised once (its idempotency key)."""
    tournament = event_or_404(tournament_id)
    match_id = parse_id(request.POST.get("match"), Match, param="match")
    match = Match.objects.filter(pk=match_id, round__tournament=tournament).first() if match_id else None
    fallback = reverse("tournament-me", args=[tournament.pk])
    if match is None:
        messages.error(request, _("No such table in this event."))
        return _back(request, fallback)
    if not can_call_judge(request.user, tournament):
        raise PermissionDenied(_("Only players and staff of this event call judges."))
    reason = request.POST.get("reason", "")[:REASON_MAX]
    run_action(
        request,
        lambda: judge_call_raise(tournament=tournament, match=match, actor=request.user, reason=reason),
        _("A judge has been called to table %(table)s.") % {"table": match.table},
    )
    return _back(request, fallback)


@login_required
def head_judge_page(request, tournament_id: int):
    """Escalated calls, disputed results waiting for a judge, response times per judge and round."""
    tournament = event_or_404(tournament_id)
    require_allowed(can_judge(request.user, tournament), _("Only the event's judges see this page."))
    by_judge, by_round = selectors.response_times(tournament)
    live = selectors.calls_for_event(tournament, live_only=True)
    escalated = [c for c in live if c.escalated_at is not None]
    context = {
        "disputes": [c for c in live if c.raised_by_id is None],
        "tournament": tournament,
        "by_judge": by_judge,
        "by_round": by_round,
        "escalated": escalated,
        "is_head_judge": can_head_judge(request.user, tournament),
        "dq_penalties": Penalty.objects.filter(
            tournament=tournament, penalty="disqualification", overturned=False
        )
        .select_related("player", "team")
        .order_by("created_at"),
    }
    return render(request, "floor/head_judge.html", context)


# --- Zones and the end-of-round console -------------------------------------------------------


class ZoneForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=60)
    first_table = forms.IntegerField(label=gettext_lazy("First table"), min_value=1, max_value=100_000)
    last_table = forms.IntegerField(label=gettext_lazy("Last table"), min_value=1, max_value=100_000)
    judges = forms.CharField(
        label=gettext_lazy("Judges"),
        required=False,
        max_length=2000,
        help_text=gettext_lazy("Usernames, separated by commas."),
    )


@login_required
def zones_page(request, tournament_id: int):
    tournament = event_or_404(tournament_id)
    require_allowed(can_see_floor(request.user, tournament), _("Only the event's staff see the zones."))
    may_plan = can_plan_zones(request.user, tournament)
    form = ZoneForm(request.POST or None)
    if request.method == "POST":
        require_allowed(may_plan, _("Only the organizer or the head judge lays out zones."))
        if request.POST.get("delete"):
            zone = get_object_or_404(
                Zone, pk=parse_id(request.POST["delete"], Zone, param="delete"), tournament=tournament
            )
            run_action(
                request,
                lambda: zone_delete(zone=zone, actor=request.user),
                _("Zone %(zone)s removed.") % {"zone": zone.name},
            )
            return HttpResponseRedirect(request.path)
        if form.is_valid():
            values = form.cleaned_data
            done = run_action(
                request,
                lambda: zone_create(
                    tournament=tournament,
                    actor=request.user,
                    name=values["name"],
                    first_table=values["first_table"],
                    last_table=values["last_table"],
                    judges=[u for u in values["judges"].split(",") if u.strip()],
                ),
                _("%(zone)s added (tables %(first)s–%(last)s).")
                % {"zone": values["name"], "first": values["first_table"], "last": values["last_table"]},
            )
            if done:
                return HttpResponseRedirect(request.path)
    context = {
        "tournament": tournament,
        "zones": selectors.zones_for(tournament),
        "form": form,
        "may_plan": may_plan,
        "judges": tournament.staff.filter(role__in=["organizer", "head_judge", "judge"]).select_related(
            "user"
        ),
    }
    return render(request, "floor/zones.html", context)


def _console_context(request, tournament: Tournament) -> dict:
    rounds = list(Round.objects.filter(tournament=tournament).select_related("tournament").order_by("number"))
    number = request.GET.get("round", "")
    round_row = next((r for r in rounds if str(r.number) == number), rounds[-1] if rounds else None)
    zones = selectors.zones_for(tournament)
    raw_zone = request.GET.get("zone")
    if raw_zone is None:
        zone = selectors.zone_of_user(tournament, request.user)
    elif raw_zone == "":
        zone = None
    else:
        zone = next((z for z in zones if str(z.pk) == raw_zone), None)
        if zone is None:
            raise Http404(_("no such zone"))
    now = timezone.now()
    tables = selectors.end_of_round(round_row, zone=zone, now=now) if round_row else []
    return {
        "tournament": tournament,
        "rounds": rounds,
        "round": round_row,
        "zones": zones,
        "zone": zone,
        "tables": tables,
        "now": now,
        "is_judge": can_judge(request.user, tournament),
        "query": f"?round={round_row.number if round_row else ''}&zone={zone.pk if zone else ''}",
    }


@login_required
def console_page(request, tournament_id: int):
    """End of round, by zone: outstanding tables by their own end, turns marked from the phone."""
    tournament = event_or_404(tournament_id)
    require_allowed(
        can_see_floor(request.user, tournament), _("Only the event's staff see the end-of-round console.")
    )
    return render(request, "floor/console.html", _console_context(request, tournament))


@login_required
def console_projector(request, tournament_id: int):
    tournament = event_or_404(tournament_id)
    require_allowed(
        can_see_floor(request.user, tournament), _("Only the event's staff open the zone projector.")
    )
    with event_locale(tournament):
        return render(request, "floor/projector.html", _console_context(request, tournament))


@login_required
def console_sheet(request, tournament_id: int):
    """The printable outstanding-tables sheet of a zone (or of every zone, one per page)."""
    tournament = event_or_404(tournament_id)
    require_allowed(
        can_see_floor(request.user, tournament), _("Only the event's staff print the outstanding tables.")
    )
    context = _console_context(request, tournament)
    if context["round"] is None:
        raise Http404(_("no round yet"))
    zones = [context["zone"]] if context["zone"] else (context["zones"] or [None])
    with event_locale(tournament):  # printed for the hall: the event's language and time zone
        pdf = render_pdf(
            "pdf/outstanding_tables.html",
            documents.outstanding_tables(tournament, context["round"], zones, now=context["now"]),
        )
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="outstanding-round-{context["round"].number}.pdf"'
    return response


@require_POST
@login_required
def console_turn(request, tournament_id: int, match_id: int):
    """A judge marks the current end-of-round turn done at a table of the zone (clock service)."""
    tournament = event_or_404(tournament_id)
    require_allowed(can_judge(request.user, tournament), _("Only the event's judges mark turns."))
    match = get_object_or_404(Match, pk=match_id, round__tournament=tournament)
    run_action(
        request,
        lambda: match_turn_complete(match=match, actor=request.user),
        _("Table %(table)s: turn done.") % {"table": match.table},
    )
    return _back(request, reverse("floor-console", args=[tournament.pk]))


@require_POST
@login_required
def console_time_call(request, tournament_id: int, match_id: int):
    """A judge calls time at an outstanding table from the console, naming the active team
    (the clock's service: turn 0, then the extra turns), without walking to the clock page."""
    tournament = event_or_404(tournament_id)
    require_allowed(can_judge(request.user, tournament), _("Only the event's judges call time."))
    match = get_object_or_404(Match, pk=match_id, round__tournament=tournament)
    active = request.POST.get("active_team", "")
    if active not in ("A", "B"):
        messages.error(request, _("Table %(table)s: choose the active team") % {"table": match.table})
    else:
        run_action(
            request,
            lambda: match_time_call(match=match, actor=request.user, active_team=active, at=timezone.now()),
            _("Table %(table)s: time called, team %(team)s active.") % {"table": match.table, "team": active},
        )
    return _back(request, reverse("floor-console", args=[tournament.pk]))


@require_POST
@login_required
def console_result(request, tournament_id: int, match_id: int):
    """Whoever finishes a table at the end of round enters its result there (``a``, ``b`` or
    ``draw``): scorekeeping staff or a judge of the event (``can_enter_end_of_round_result``,
    docs/decisions.md "End-of-round results"), audited with them as the actor."""
    tournament = event_or_404(tournament_id)
    require_allowed(
        can_enter_end_of_round_result(request.user, tournament),
        _("Only the event's judges and scorekeeping staff enter results here."),
    )
    match = get_object_or_404(
        Match.objects.public().select_related("round__tournament", "team_a", "team_b"),
        pk=match_id,
        round__tournament=tournament,
    )
    form = MatchResultForm(request.POST)
    if not form.is_valid() or form.cleaned_data["result"] not in ("a", "b", "draw"):
        messages.error(request, _("Table %(table)s: choose who won, or a draw.") % {"table": match.table})
        return _back(request, reverse("floor-console", args=[tournament.pk]))
    try:
        match = match_result_end_of_round(
            match=match,
            actor=request.user,
            version=form.cleaned_data["version"],
            **form.games(games_to_win(tournament.games_per_match)),
        )
    except DomainError as error:
        messages.error(
            request,
            _("Table %(table)s: %(problem)s") % {"table": match.table, "problem": result_refusal(error)},
        )
    else:
        messages.success(
            request,
            _("Table %(table)s: result %(a)s-%(b)s-%(draws)s entered.")
            % {"table": match.table, "a": match.team_a_wins, "b": match.team_b_wins, "draws": match.draws},
        )
    return _back(request, reverse("floor-console", args=[tournament.pk]))


# --- Deck checks ----------------------------------------------------------------------------


@login_required
def deck_checks_page(request, tournament_id: int):
    tournament = event_or_404(tournament_id)
    require_allowed(can_judge(request.user, tournament), _("Only the event's judges plan deck checks."))
    rounds = list(Round.objects.filter(tournament=tournament).select_related("tournament").order_by("number"))
    round_row = next(
        (r for r in rounds if str(r.number) == request.GET.get("round")), rounds[-1] if rounds else None
    )
    count_text = request.GET.get("count", "4")
    count = (
        int(count_text)
        if count_text.isascii() and count_text.isdigit() and 0 < int(count_text) <= 1000
        else 4
    )
    plan, error = [], ""
    if round_row is not None:
        try:
            plan = selectors.deck_check_plan(round_row, count=count)
        except PlanError as exc:
            error = localize(exc.message)
    matches = {
        m.pk: m
        for m in Match.objects.filter(pk__in=[p.match_id for p in plan]).select_related("team_a", "team_b")
    }
    contenders = selectors.deck_check_contenders(tournament)
    teams = {t.pk: t for t in tournament.teams.filter(pk__in=contenders.teams)}
    from decklists.models import DeckCheck

    context = {
        "tournament": tournament,
        "rounds": rounds,
        "round": round_row,
        "count": count,
        "plan": [(p, matches[p.match_id]) for p in plan],
        "error": error,
        "contenders": contenders,
        "contender_teams": [teams[pk] for pk in contenders.teams],
        "checks": DeckCheck.objects.filter(tournament=tournament)
        .select_related("match__team_a", "match__team_b", "judge", "round", "extension")
        .prefetch_related("findings")[:50],
    }
    return render(request, "floor/deck_checks.html", context)
