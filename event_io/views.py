"""The organizer's mirror page, reached from the event's settings: start, stop, and how it goes.

A plain form (works with JavaScript off); the same services as the mirror's API (``event_io.api``).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.errors import DomainError
from event_io.mirror_push import active_target, mirror_start, mirror_stop
from tournaments.forms import add_domain_errors
from tournaments.page_access import staff_event


class MirrorForm(forms.Form):
    url = forms.CharField(
        label=gettext_lazy("Server address"),
        max_length=300,
        help_text=gettext_lazy("The public server's address, e.g. https://events.example.org"),
        widget=forms.URLInput(attrs={"placeholder": "https://", "autocomplete": "url"}),
    )
    token = forms.CharField(
        label=gettext_lazy("API token on the server"),
        max_length=200,
        help_text=gettext_lazy(
            "A token of the server account that will own the copy (the server's API docs, /api/docs/, show "
            "how to get one)."
        ),
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
    )


@login_required
def mirror_settings(request, tournament_id: int):
    """GET: the mirror's state and the form; POST: start (url, token) or stop (``action=stop``)."""
    tournament = staff_event(request, tournament_id, "can_manage_event")
    form = MirrorForm()
    status = 200
    if request.method == "POST" and request.POST.get("action") == "stop":
        mirror_stop(tournament=tournament)
        messages.success(request, _("Mirroring stopped: the server keeps the copy as it was last pushed."))
        return redirect("mirror-settings", tournament_id=tournament.id)
    if request.method == "POST":
        form = MirrorForm(request.POST)
        status = 400
        if form.is_valid():
            try:
                mirror_start(tournament=tournament, **form.cleaned_data)
            except DomainError as error:
                add_domain_errors(form, error)
                status = error.status_code
            else:
                messages.success(request, _("Mirroring started: the first push follows within seconds."))
                return redirect("mirror-settings", tournament_id=tournament.id)
    target = active_target(tournament.id)
    context = {"tournament": tournament, "form": form, "target": target}
    return render(request, "event_io/mirror.html", context, status=status)
