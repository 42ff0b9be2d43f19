"""Account pages: the log-in page (Django's, with a limit on failed attempts) and player sign-up."""

from __future__ import annotations

import hashlib
import math
import time

from django import forms
from django.contrib.auth import login
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.contrib.auth.views import LoginView
from django.core.cache import cache
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts.services import account_create
from common.errors import DomainError


class SignUpForm(forms.Form):
    username = forms.CharField(max_length=150, validators=[UnicodeUsernameValidator()])
    email = forms.EmailField(required=False)
    password = forms.CharField(widget=forms.PasswordInput, max_length=128)


@require_http_methods(["GET", "POST"])
def signup(request):
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = account_create(**form.cleaned_data)
        except DomainError as exc:
            for error in exc.errors:
                form.add_error(error.get("field"), error["message"])
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("home")
    return render(request, "accounts/signup.html", {"form": form}, status=400 if form.errors else 200)


#: Failed log-ins allowed per username and address before the page refuses further attempts.
LOGIN_FAILURES_ALLOWED = 10
#: How long the count runs from the first failure, in seconds; the refusal ends with it.
LOGIN_FAILURE_WINDOW = 15 * 60


def login_failures_key(request, username: str) -> str:
    """The cache key counting failures for this username from this address.

    Username and address together, so a guesser cannot lock a player out from elsewhere and one
    address cannot try a list of accounts at full speed either. The username is case-folded (the
    sign-up refuses case variants) and hashed, so any text makes a valid key. The address is
    ``REMOTE_ADDR``: a forwarded-for header is the client's word, and a limit it could reset is no
    limit; behind a proxy that does not set ``REMOTE_ADDR``, the limit is per username.
    """
    who = f"{username.strip().casefold()}|{request.META.get('REMOTE_ADDR', '')}"
    return "login-failures:" + hashlib.sha256(who.encode()).hexdigest()


class RateLimitedAuthenticationForm(AuthenticationForm):
    """Django's log-in form that counts wrong passwords and stops checking after too many.

    The limit is checked before the password, so a refused attempt learns nothing; only a failed
    authentication counts (a blank field is not a guess).
    """

    error_messages = {
        **AuthenticationForm.error_messages,
        "too_many_attempts": (
            "Too many failed log-in attempts for this username. Try again in %(minutes)s minute(s), "
            "or ask the organizer to reset your password."
        ),
    }

    def clean(self):
        key = login_failures_key(self.request, self.data.get("username", ""))
        if cache.get(key, 0) >= LOGIN_FAILURES_ALLOWED:
            until = cache.get(f"{key}:until") or time.time() + LOGIN_FAILURE_WINDOW
            self.retry_after = max(1, math.ceil(until - time.time()))
            raise ValidationError(
                self.error_messages["too_many_attempts"],
                code="too_many_attempts",
                params={"minutes": math.ceil(self.retry_after / 60)},
            )
        try:
            return super().clean()
        except ValidationError:
            if cache.add(key, 1, timeout=LOGIN_FAILURE_WINDOW):
                cache.set(f"{key}:until", time.time() + LOGIN_FAILURE_WINDOW, timeout=LOGIN_FAILURE_WINDOW)
            else:
                try:
                    cache.incr(key)
                except ValueError:
                    cache.set(key, 1, timeout=LOGIN_FAILURE_WINDOW)
            raise


class RateLimitedLoginView(LoginView):
    """Django's log-in page, refusing (429) a username+address after too many failed attempts.

    The token API is throttled by DRF (scope ``login``); this covers the page, which DRF does not
    see. The count lives in the default cache (local memory in embedded mode, Redis in
    production) and runs for ``LOGIN_FAILURE_WINDOW`` from the first failure; a successful log-in
    clears it.
    """

    authentication_form = RateLimitedAuthenticationForm

    def form_valid(self, form):
        key = login_failures_key(self.request, form.cleaned_data.get("username", ""))
        cache.delete_many([key, f"{key}:until"])
        return super().form_valid(form)

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "too_many_attempts"):
            response.status_code = 429
            response["Retry-After"] = str(form.retry_after)
        return response
