"""What makes two usernames the same: one key, used by sign-up, log-in limits and every lookup.

A username is stored in Unicode NFKC form (as Django's ``AbstractUser.normalize_username`` does),
with the case the player typed. Two usernames are the same account name when their *spoof keys*
are equal: NFKC, case-folded, and every character replaced by its Unicode TR39 confusable
prototype (disarm's ``skeleton_key``), so "ORG", "ｏｒｇ" and "оrg" with a Cyrillic о all collide
with "org". Sign-up refuses a name whose key an existing account already has; staff adding a
person by username find the account by the same key.

The key is computed in Python over the usernames in the database (about 5 ms per thousand
names) rather than stored, so accounts created any other way (admin, ``createsuperuser``,
``import_event``) are covered without a second column to keep in step.
"""

from __future__ import annotations

import unicodedata

from disarm import skeleton_key
from django.contrib.auth import get_user_model


def normalize_username(username: str) -> str:
    """The form a username is stored in: NFKC, surrounding spaces removed."""
    return unicodedata.normalize("NFKC", username).strip()


def username_key(username: str) -> str:
    """Equal for usernames a reader could take for one another (case, width, look-alike letters)."""
    return skeleton_key(normalize_username(username))


def account_with_similar_username(username: str):
    """The existing account whose username has the same key as ``username``, or ``None``."""
    key = username_key(username)
    user_model = get_user_model()
    for pk, existing in user_model.objects.values_list("pk", "username").iterator(chunk_size=2000):
        if username_key(existing) == key:
            return user_model.objects.get(pk=pk)
    return None


def user_by_username(username: str):
    """The account a person means by ``username``: the exact (NFKC) name, else the one account
    with the same key; ``None`` when there is none or the key is ambiguous (accounts older than
    this rule may share one)."""
    user_model = get_user_model()
    name = normalize_username(username)
    exact = user_model.objects.filter(username=name).first()
    if exact is not None:
        return exact
    key = username_key(name)
    matches = [
        pk
        for pk, existing in user_model.objects.values_list("pk", "username").iterator(chunk_size=2000)
        if username_key(existing) == key
    ]
    return user_model.objects.get(pk=matches[0]) if len(matches) == 1 else None
