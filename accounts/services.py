"""Creating accounts: the one place that decides what a valid sign-up is."""

from __future__ import annotations

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.usernames import account_with_similar_username, normalize_username
from common.errors import DomainError

User = get_user_model()


@transaction.atomic
def account_create(*, username: str, password: str, email: str = "") -> User:
    """A player account; the username is stored in NFKC form and must not read as an existing one
    (``accounts.usernames``); the password must pass the configured validators."""
    username = normalize_username(username)
    errors: list[dict] = []
    similar = account_with_similar_username(username)
    if similar is not None:
        message = f"the username {username!r} is taken"
        if similar.username != username and similar.username.casefold() != username.casefold():
            message = f"the username {username!r} looks like the existing {similar.username!r}"
        errors.append({"field": "username", "message": message})
    candidate = User(username=username, email=email)
    try:
        password_validation.validate_password(password, user=candidate)
    except ValidationError as exc:
        errors.extend({"field": "password", "message": message} for message in exc.messages)
    if errors:
        raise DomainError("Sign-up refused: " + "; ".join(e["message"] for e in errors), errors=errors)
    candidate.set_password(password)
    try:
        candidate.save()
    except IntegrityError:
        raise DomainError(
            _("the username %(username)s is taken") % {"username": repr(username)},
            errors=[{"field": "username", "message": _("taken")}],
        ) from None
    return candidate
