from django import forms
from django.contrib.auth import login
from django.contrib.auth.validators import UnicodeUsernameValidator
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
