"""Rows the whole site shares, whichever app wrote them."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class IdempotentRequest(models.Model):
    """A write sent with an idempotency key, and the answer it got.

    A phone that lost the connection sends its queued result report or judge call again when it is
    back, and cannot know whether the first try reached the server: the same key gets the stored
    answer instead of a second report or call (``common.idempotency``).
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=64)
    path = models.CharField(max_length=300)
    status_code = models.PositiveSmallIntegerField(default=0)
    content_type = models.CharField(max_length=100, blank=True)
    location = models.CharField(max_length=300, blank=True)
    content = models.BinaryField(default=b"")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotent_request_once_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.key} {self.path} → {self.status_code}"
