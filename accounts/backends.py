"""Log-in by the name a person means: the usernames of ``accounts.usernames`` are the same account
name whatever the case, width or look-alike letters, so log-in finds the account the same way."""

from __future__ import annotations

from django.contrib.auth.backends import ModelBackend

from accounts.usernames import user_by_username


class UsernameBackend(ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        if isinstance(username, str):
            user = user_by_username(username)
            if user is not None:
                username = user.get_username()
        return super().authenticate(request, username=username, password=password, **kwargs)
