"""Penalty pages: the judge's phone form, the head judge's list with appeals, a player's history.

Every write goes through :mod:`penalties.services` (issuing) or :mod:`penalties.reviews` (overturn,
review); a rule refusal comes back as a message on the page, never as a half-applied penalty. Only
event staff see these pages (403 for everyone else).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from common.errors import DomainError
from common.i18n import localize
from common.numbers import BadParameter, parse_column_int
from penalties import selectors
from penalties.api.views import infraction_rows
from penalties.domain import Penalty as PenaltyKind
from penalties.domain import Rel
from penalties.forms import FLAG_LABELS, PenaltyIssueForm
from penalties.models import Penalty
from penalties.reviews import penalty_overturn, penalty_review
from penalties.services import penalty_issue
from tournaments.models import Player, Round, Tournament
from tournaments.rules import RULES


def _event_for(request, tournament_id: int, rule: str) -> Tournament:
    """The event, if the named rule (``tournaments.rules``) lets the user in."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not RULES[rule](request.user, tournament):
        raise PermissionDenied(_("Only this event's staff may see penalties."))
    return tournament


def _round_shown(tournament: Tournament, number: str | None) -> Round | None:
    """The round asked for, else the latest one: the round being played when a judge is called."""
    rounds = Round.objects.filter(tournament=tournament)
    wanted = parse_column_int(number, Round, "number", param="round")
    if wanted is not None:
        return get_object_or_404(rounds, number=wanted)
    return rounds.newest()


@login_required
def penalty_new(request, tournament_id: int):
    """Pick table → player → infraction, see the proposal (preview API), confirm."""
    tournament = _event_for(request, tournament_id, "can_propose_penalty")
    event_round = _round_shown(tournament, request.GET.get("round") or request.POST.get("round"))
    form = PenaltyIssueForm(request.POST or None)
    status = 200
    if request.method == "POST" and event_round is not None:
        if form.is_valid():
            issued = _issue_from_form(request, tournament, event_round, form)
            if issued is not None:
                target = request.POST.get("offer_from") or issued.pk
                url = reverse("penalty-new", args=[tournament.pk])
                return HttpResponseRedirect(f"{url}?round={event_round.number}&issued={target}")
        status = 400
    issued = None
    issued_id = parse_column_int(request.GET.get("issued"), Penalty, "id", param="issued")
    if issued_id is not None:
        issued = Penalty.objects.filter(tournament=tournament, pk=issued_id).first()
    context = {
        "tournament": tournament,
        "round": event_round,
        "rounds": Round.objects.filter(tournament=tournament).order_by("number"),
        "form": form,
        "tables": selectors.round_tables(round_id=event_round.pk) if event_round else [],
        "infractions": infraction_rows(Rel(tournament.rel)),
        "flags": [(name, label) for name, label in FLAG_LABELS.items()],
        "penalty_kinds": [(kind.value, localize(kind.label)) for kind in PenaltyKind],
        "issued": issued,
        "ftmgs_offers": _open_ftmgs_offers(issued) if issued else [],
        **_day_choices(tournament, request.POST.get("day")),
    }
    return render(request, "penalties/new.html", context, status=status)


def _day_choices(tournament: Tournament, posted: str | None) -> dict:
    """The event days the judge may pick: each day used so far, the latest (the default, the
    event's current day) and a new day after it. GPE and TE counts reset between days [IPG §2,
    §3], so the first penalty of a new day must say so, or yesterday's Warnings upgrade it."""
    latest = selectors.latest_day(tournament_id=tournament.pk)
    days = [(number, _("Day %(number)s") % {"number": number}) for number in range(1, latest)]
    days += [
        (latest, _("Day %(number)s (current)") % {"number": latest}),
        (latest + 1, _("Day %(number)s (new day)") % {"number": latest + 1}),
    ]
    chosen = int(posted) if posted and posted.isdecimal() and int(posted) <= latest + 1 else latest
    return {"days": days, "day_chosen": chosen}


def _issue_from_form(
    request, tournament: Tournament, event_round: Round, form: PenaltyIssueForm
) -> Penalty | None:
    player = (
        Player.objects.select_related("team")
        .filter(tournament=tournament, pk=form.cleaned_data["player"])
        .first()
    )
    if player is None:
        form.add_error("player", "Pick a player of this event.")
        return None
    try:
        penalty = penalty_issue(
            tournament=tournament,
            actor=request.user,
            player=player,
            round_row=event_round,
            infraction=form.cleaned_data["infraction"],
            description=form.cleaned_data["description"],
            penalty=form.cleaned_data["penalty"] or None,
            deviation_reason=form.cleaned_data["deviation_reason"],
            context=form.context_values(),
            day=form.cleaned_data["day"],
        )
    except DomainError as error:
        form.add_error(None, localize(error.message))
        return None
    messages.success(
        request,
        _("%(get_penalty_display)s to %(name)s (%(infraction)s) recorded.")
        % {
            "get_penalty_display": penalty.get_penalty_display(),
            "name": player.name,
            "infraction": penalty.infraction,
        },
    )
    return penalty


def _open_ftmgs_offers(issued: Penalty) -> list[Player]:
    """The players a GRV offers FtMGS to who have not been given it since, in the offered order."""
    offered = issued.offer_ftmgs_to or []
    if not offered or issued.overturned:
        return []
    given = set(
        Penalty.objects.filter(
            match_id=issued.match_id,
            infraction="GPE-FTMGS",
            created_at__gte=issued.created_at,
            overturned=False,
        ).values_list("player_id", flat=True)
    )
    players = {p.pk: p for p in Player.objects.filter(pk__in=offered)}
    return [players[pk] for pk in offered if pk in players and pk not in given]


@login_required
def penalty_list(request, tournament_id: int):
    """All penalties of the event; deviations stand out; the head judge can overturn from here."""
    tournament = _event_for(request, tournament_id, "can_read_penalties")
    penalties = selectors.penalties_listed(tournament_id=tournament.pk)
    return render(
        request,
        "penalties/list.html",
        {
            "tournament": tournament,
            "penalties": penalties,
            "review_penalties": REVIEW_PENALTIES,
        },
    )


#: What the head judge may give instead of a proposed Disqualification.
REVIEW_PENALTIES = [
    (kind.value, gettext_lazy(kind.label)) for kind in PenaltyKind if kind is not PenaltyKind.DISQUALIFICATION
]


@login_required
def player_history(request, tournament_id: int, player_id: int):
    tournament = _event_for(request, tournament_id, "can_read_penalties")
    player = get_object_or_404(Player.objects.select_related("team"), tournament=tournament, pk=player_id)
    penalties = selectors.penalties_listed(tournament_id=tournament.pk, player_id=player.pk)
    return render(
        request,
        "penalties/player.html",
        {
            "tournament": tournament,
            "player": player,
            "penalties": penalties,
            "review_penalties": REVIEW_PENALTIES,
        },
    )


@login_required
@require_POST
def penalty_overturn_page(request, tournament_id: int, pk: int):
    tournament = _event_for(request, tournament_id, "can_read_penalties")
    penalty = get_object_or_404(Penalty, tournament=tournament, pk=pk)
    reason = request.POST.get("reason", "")
    if "\x00" in reason:  # no database text column holds it (PostgreSQL refuses it outright)
        raise BadParameter("reason", "must not contain NUL characters")
    try:
        penalty_overturn(penalty=penalty, actor=request.user, reason=reason)
    except DomainError as error:
        messages.error(
            request,
            _("Penalty %(pk)s not overturned: %(message)s")
            % {"pk": penalty.pk, "message": localize(error.message)},
        )
    else:
        messages.success(
            request, _("Penalty %(pk)s overturned; its effects are undone.") % {"pk": penalty.pk}
        )
    back = request.POST.get("next", "")
    if not back.startswith(f"/events/{tournament.pk}/penalties/"):
        back = reverse("penalty-list", args=[tournament.pk])
    return HttpResponseRedirect(back)


@login_required
@require_POST
def penalty_review_page(request, tournament_id: int, pk: int):
    """The head judge confirms a judge's proposed Disqualification or changes it (a plain form)."""
    tournament = _event_for(request, tournament_id, "can_read_penalties")
    penalty = get_object_or_404(Penalty, tournament=tournament, pk=pk)
    try:
        decided = penalty_review(
            penalty=penalty,
            actor=request.user,
            decision=request.POST.get("decision", ""),
            new_penalty=request.POST.get("penalty") or None,
            reason=request.POST.get("reason", ""),
        )
    except DomainError as error:
        messages.error(
            request,
            _("Penalty %(pk)s not decided: %(message)s")
            % {"pk": penalty.pk, "message": localize(error.message)},
        )
    else:
        if decided.pk == penalty.pk:
            messages.success(
                request,
                _("Disqualification %(pk)s confirmed: the team is disqualified.") % {"pk": penalty.pk},
            )
        else:
            messages.success(
                request,
                _("Disqualification %(pk)s changed to %(get_penalty_display)s (penalty %(pk2)s).")
                % {"pk": penalty.pk, "get_penalty_display": decided.get_penalty_display(), "pk2": decided.pk},
            )
    back = request.POST.get("next", "")
    if not back.startswith(f"/events/{tournament.pk}/penalties/"):
        back = reverse("penalty-list", args=[tournament.pk])
    return HttpResponseRedirect(back)
