"""Creating accounts: the one place that decides what a valid sign-up is."""

from __future__ import annotations

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from common.errors import DomainError

User = get_user_model()


@transaction.atomic
def account_create(*, username: str, password: str, email: str = "") -> User:
    """A player account; the password must pass the configured validators."""
    errors: list[dict] = []
    if User.objects.filter(username__iexact=username).exists():
        errors.append({"field": "username", "message": f"the username {username!r} is taken"})
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
            f"the username {username!r} is taken", errors=[{"field": "username", "message": "taken"}]
        ) from None
    return candidate
