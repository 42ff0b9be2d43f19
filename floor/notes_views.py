"""Floor pages for the investigation side: judges' notes and statements, investigations and the
head judge's decision, and the DQ report with its PDF.

Kept apart from ``floor.views`` (judge calls, zones, the end-of-round console, deck checks), the
pages of the live floor, because these are the written record a judge keeps and the head judge
reviews; they share that module's page helpers (``event_or_404``, ``require_allowed``, ``run_action``) and its
rules: reads through ``floor.selectors``, writes through ``floor.services``, a refused write
comes back as a message on the page it was made from.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.numbers import parse_id
from floor import selectors
from floor.models import DisqualificationReport, Investigation, Note, NoteKind
from floor.services.dq_report import dq_report_file
from floor.services.notes import TEXT_MAX, investigation_decide, investigation_open, note_add, note_lock
from floor.views import event_or_404, form_problems, require_allowed, run_action
from penalties.models import Penalty
from tournaments.models import Match, Player
from tournaments.rules import can_head_judge, can_judge


class NoteForm(forms.Form):
    text = forms.CharField(
        label=gettext_lazy("Text"), max_length=TEXT_MAX, widget=forms.Textarea(attrs={"rows": 3})
    )
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=NoteKind.choices, initial=NoteKind.NOTE)
    given_by = forms.CharField(max_length=100, required=False, label=gettext_lazy("Statement by"))
    match = forms.IntegerField(required=False, widget=forms.HiddenInput)
    penalty = forms.IntegerField(required=False, widget=forms.HiddenInput)
    player = forms.IntegerField(required=False, widget=forms.HiddenInput)


@login_required
def notes_page(request, tournament_id: int):
    """Notes about one match, penalty or player (``?match=``, ``?penalty=``, ``?player=``) or all."""
    tournament = event_or_404(tournament_id)
    require_allowed(can_judge(request.user, tournament), _("Only the event's judges read notes."))
    head = can_head_judge(request.user, tournament)
    models = {"match": Match, "penalty": Penalty, "player": Player}
    about = {key: parse_id(request.GET.get(key), model, param=key) for key, model in models.items()}
    about = {key: value for key, value in about.items() if value is not None}
    if request.method == "POST":
        if request.POST.get("lock"):
            require_allowed(head, _("Only the head judge locks notes."))
            note = get_object_or_404(
                Note, pk=parse_id(request.POST["lock"], Note, param="lock"), tournament=tournament
            )
            run_action(
                request, lambda: note_lock(note=note, actor=request.user), _("Note locked: head judge only.")
            )
            return HttpResponseRedirect(request.get_full_path())
        form = NoteForm(request.POST)
        if form.is_valid():
            values = form.cleaned_data
            run_action(
                request,
                lambda: note_add(
                    tournament=tournament,
                    actor=request.user,
                    text=values["text"],
                    kind=values["kind"],
                    given_by=values["given_by"],
                    match=Match.objects.select_related("round")
                    .filter(pk=values["match"], round__tournament=tournament)
                    .first()
                    if values["match"]
                    else None,
                    penalty=Penalty.objects.filter(pk=values["penalty"], tournament=tournament).first()
                    if values["penalty"]
                    else None,
                    player=Player.objects.filter(pk=values["player"], tournament=tournament).first()
                    if values["player"]
                    else None,
                ),
                _("Note saved."),
            )
        else:
            messages.error(request, form_problems(form))
        return HttpResponseRedirect(request.get_full_path())
    notes = selectors.notes_for(
        tournament,
        head_judge=head,
        match_id=about.get("match"),
        penalty_id=about.get("penalty"),
        player_id=about.get("player"),
    )
    context = {
        "tournament": tournament,
        "notes": notes,
        "about": about,
        "form": NoteForm(initial=about),
        "is_head_judge": head,
        "players": Player.objects.filter(tournament=tournament)
        .filter(Q(team__dropped_after_round__isnull=True) | Q(pk=about.get("player") or 0))
        .order_by("name")[:500],
    }
    return render(request, "floor/notes.html", context)


class DQReportForm(forms.Form):
    player_statement = forms.CharField(
        label=gettext_lazy("Player statement"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=TEXT_MAX,
    )
    head_judge_statement = forms.CharField(
        label=gettext_lazy("Head judge's statement"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=TEXT_MAX,
    )


@login_required
def dq_report_page(request, tournament_id: int, penalty_id: int):
    """The head judge files the DQ report (statements), then downloads the PDF kept with the penalty."""
    tournament = event_or_404(tournament_id)
    require_allowed(can_head_judge(request.user, tournament), _("Only the head judge files a DQ report."))
    penalty = get_object_or_404(
        Penalty.objects.select_related("player", "team", "judge", "round", "match"),
        pk=penalty_id,
        tournament=tournament,
    )
    report = DisqualificationReport.objects.filter(penalty=penalty).first()
    if request.GET.get("download") and report is not None:
        response = HttpResponse(report.file.open("rb").read(), content_type="application/pdf")
        response["Content-Disposition"] = f'attachment; filename="dq-report-{penalty.pk}.pdf"'
        return response
    form = DQReportForm(
        request.POST or None,
        initial={
            "player_statement": report.player_statement if report else "",
            "head_judge_statement": report.head_judge_statement if report else "",
        },
    )
    if request.method == "POST" and form.is_valid():
        done = run_action(
            request,
            lambda: dq_report_file(penalty=penalty, actor=request.user, **form.cleaned_data),
            _("DQ report filed: the PDF is kept with the penalty."),
        )
        if done:
            return HttpResponseRedirect(request.path)
    context = {
        "tournament": tournament,
        "penalty": penalty,
        "report": report,
        "form": form,
        "statements": selectors.notes_for(tournament, head_judge=True, penalty_id=penalty.pk),
    }
    return render(request, "floor/dq_report.html", context)


class InvestigationForm(forms.Form):
    title = forms.CharField(label=gettext_lazy("Title"), max_length=200)
    player = forms.TypedChoiceField(
        coerce=int, required=False, empty_value=None, label=gettext_lazy("Player investigated")
    )


@login_required
def investigations_page(request, tournament_id: int):
    """Open investigations and the form to open one (any judge of the event)."""
    tournament = event_or_404(tournament_id)
    require_allowed(can_judge(request.user, tournament), _("Only the event's judges see investigations."))
    players = Player.objects.filter(tournament=tournament).order_by("name")
    form = InvestigationForm(request.POST or None)
    form.fields["player"].choices = [("", "—")] + [(p.pk, p.name) for p in players]
    if request.method == "POST" and form.is_valid():
        values = form.cleaned_data
        opened = run_action(
            request,
            lambda: investigation_open(
                tournament=tournament,
                actor=request.user,
                title=values["title"],
                player=players.filter(pk=values["player"]).first() if values["player"] else None,
            ),
            _("Investigation opened."),
        )
        if opened:
            return HttpResponseRedirect(reverse("floor-investigation", args=[tournament.pk, opened.pk]))
    context = {
        "tournament": tournament,
        "investigations": Investigation.objects.filter(tournament=tournament).select_related(
            "player", "opened_by"
        ),
        "form": form,
    }
    return render(request, "floor/investigations.html", context)


class DecisionForm(forms.Form):
    decision = forms.CharField(
        label=gettext_lazy("Decision"), max_length=TEXT_MAX, widget=forms.Textarea(attrs={"rows": 3})
    )


@login_required
def investigation_page(request, tournament_id: int, investigation_id: int):
    """One investigation: its notes and statements, new ones, and the head judge's decision."""
    tournament = event_or_404(tournament_id)
    require_allowed(can_judge(request.user, tournament), _("Only the event's judges see investigations."))
    head = can_head_judge(request.user, tournament)
    investigation = get_object_or_404(
        Investigation.objects.select_related("player", "opened_by", "decided_by"),
        pk=investigation_id,
        tournament=tournament,
    )
    if request.method == "POST":
        if "decision" in request.POST:
            require_allowed(head, _("Only the head judge decides an investigation."))
            form = DecisionForm(request.POST)
            if form.is_valid():
                run_action(
                    request,
                    lambda: investigation_decide(
                        investigation=investigation,
                        actor=request.user,
                        decision=form.cleaned_data["decision"],
                    ),
                    _("Decision recorded."),
                )
        else:
            form = NoteForm(request.POST)
            if form.is_valid():
                values = form.cleaned_data
                run_action(
                    request,
                    lambda: note_add(
                        tournament=tournament,
                        actor=request.user,
                        text=values["text"],
                        kind=values["kind"],
                        given_by=values["given_by"],
                        investigation=investigation,
                        player=investigation.player,
                    ),
                    _("Added to the investigation."),
                )
            else:
                messages.error(request, form_problems(form))
        return HttpResponseRedirect(request.path)
    context = {
        "tournament": tournament,
        "investigation": investigation,
        "notes": selectors.notes_for(tournament, head_judge=head, investigation_id=investigation.pk),
        "form": NoteForm(),
        "decision_form": DecisionForm(),
        "is_head_judge": head,
    }
    return render(request, "floor/investigation.html", context)
