"""Domain errors that reach the API as a 4xx with a message saying what and where."""

from __future__ import annotations


class DomainError(Exception):
    """A rule of the event refused an operation; the API answers ``status_code`` with ``message``."""

    status_code = 400

    def __init__(
        self,
        message: str,
        *,
        errors: list[dict] | None = None,
        status_code: int | None = None,
        extra: dict | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.errors = errors or []
        self.extra = extra or {}
        if status_code is not None:
            self.status_code = status_code


class ConflictError(DomainError):
    """The object changed since the client read it (stale version) or the state forbids the change."""

    status_code = 409
