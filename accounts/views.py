"""Account pages: the log-in page, ``/admin/login/`` (both under the one log-in limit of
``accounts.throttling``) and player sign-up."""

from __future__ import annotations

import math

from django import forms
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import login
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.contrib.auth.views import LoginView
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from accounts.services import account_create
from accounts.throttling import login_retry_after, signup_retry_after
from common.errors import DomainError


class SignUpForm(forms.Form):
    username = forms.CharField(max_length=150, validators=[UnicodeUsernameValidator()])
    email = forms.EmailField(required=False)
    password = forms.CharField(widget=forms.PasswordInput, max_length=128)


TOO_MANY_SIGNUPS = "Too many sign-ups from your address. Try again in {minutes} minute(s)."


def _safe_next(request) -> str:
    """Where to go after signing up: back to the page that sent the player here (an invite
    link), if it is on this site."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


@require_http_methods(["GET", "POST"])
def signup(request):
    form = SignUpForm(request.POST or None)
    next_url = _safe_next(request)
    if request.method == "POST":
        wait = signup_retry_after(request)
        if wait is not None:
            form.is_valid()
            form.add_error(None, TOO_MANY_SIGNUPS.format(minutes=math.ceil(wait / 60)))
            response = render(request, "accounts/signup.html", {"form": form, "next": next_url}, status=429)
            response["Retry-After"] = str(wait)
            return response
    if request.method == "POST" and form.is_valid():
        try:
            user = account_create(**form.cleaned_data)
        except DomainError as exc:
            for error in exc.errors:
                form.add_error(error.get("field"), error["message"])
        else:
            login(request, user, backend="accounts.backends.UsernameBackend")
            return redirect(next_url or "home")
    context = {"form": form, "next": next_url}
    return render(request, "accounts/signup.html", context, status=400 if form.errors else 200)


class ThrottledLoginFormMixin:
    """Refuses the attempt before the password is checked when the username or the address is over
    the log-in limit; failures are counted by ``accounts.throttling``'s signal receiver."""

    too_many_attempts = (
        "Too many failed log-in attempts for this username or from your address. Try again in "
        "%(minutes)s minute(s), or ask the organizer to reset your password."
    )

    def clean(self):
        wait = login_retry_after(self.request, self.data.get("username"))
        if wait is not None:
            self.retry_after = wait
            raise ValidationError(
                self.too_many_attempts, code="too_many_attempts", params={"minutes": math.ceil(wait / 60)}
            )
        return super().clean()


class ThrottledAuthenticationForm(ThrottledLoginFormMixin, AuthenticationForm):
    pass


class ThrottledAdminAuthenticationForm(ThrottledLoginFormMixin, AdminAuthenticationForm):
    pass


def with_throttle_status(response):
    """429 and ``Retry-After`` on a log-in page whose form was refused by the limit."""
    form = (getattr(response, "context_data", None) or {}).get("form")
    if form is not None and form.has_error(NON_FIELD_ERRORS, "too_many_attempts"):
        response.status_code = 429
        response["Retry-After"] = str(form.retry_after)
    return response


class ThrottledLoginView(LoginView):
    authentication_form = ThrottledAuthenticationForm

    def form_invalid(self, form):
        return with_throttle_status(super().form_invalid(form))


def admin_login(request, extra_context=None):
    """``/admin/login/``: the admin's own page (its form is set in ``AccountsConfig.ready``) answering
    429 like the log-in page."""
    return with_throttle_status(admin.site.login(request, extra_context))
