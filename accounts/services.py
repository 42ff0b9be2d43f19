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
        message = _("the username %(username)s is taken") % {"username": repr(username)}
        if similar.username != username and similar.username.casefold() != username.casefold():
            message = _("the username %(username)s looks like the existing %(existing)s") % {
                "username": repr(username),
                "existing": repr(similar.username),
            }
        errors.append({"field": "username", "message": message})
    candidate = User(username=username, email=email)
    try:
        password_validation.validate_password(password, user=candidate)
    except ValidationError as exc:
        errors.extend({"field": "password", "message": message} for message in exc.messages)
    if errors:
        raise DomainError(
            _("Sign-up refused: %(problems)s") % {"problems": "; ".join(e["message"] for e in errors)},
            errors=errors,
        )
    candidate.set_password(password)
    try:
        candidate.save()
    except IntegrityError:
        raise DomainError(
            _("the username %(username)s is taken") % {"username": repr(username)},
            errors=[{"field": "username", "message": _("taken")}],
        ) from None
    return candidate
