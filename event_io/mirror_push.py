"""Laptop side of a mirror: the event's file pushed to a public server, in the background.

Nothing here runs inside a write of the event: the worker's sweep (``event_io.mirror_sweep``,
every few seconds) pushes each mirrored event whose generation (``tournaments/live.py``) moved
since its last push, and every event at least once a minute. A push is one HTTP ``PUT`` of the
gzipped ``twohg-event`` file with a short timeout; a failure is recorded on the target and the next
attempt waits longer each time (up to a minute). So a slow, unreachable or silent server costs the
worker a few seconds now and then, and a result entered at the desk never waits on it.

The HTTP client is the standard library's ``urllib.request``: one request with a timeout and a
body, nothing a client library would add.
"""

from __future__ import annotations

import datetime as dt
import gzip
import ipaddress
import json
import logging
import secrets
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import ConflictError, DomainError
from common.translatable import N_, as_data
from event_io.export import event_export
from event_io.mirror_copy import mirror_of
from event_io.models import MirrorTarget
from tournaments.live import generation
from tournaments.models import Tournament

logger = logging.getLogger(__name__)

#: An event is pushed at least this often, changed or not (the server's "last updated" stays fresh).
PUSH_EVERY = dt.timedelta(seconds=60)
#: The longest wait after failures in a row (5 s, 10 s, 20 s, 40 s, then this).
BACKOFF_MAX = dt.timedelta(seconds=60)
PUSH_PATH = "/api/v1/mirrors/{key}/"


def mirror_start(*, tournament: Tournament, url: str, token: str) -> MirrorTarget:
    """Start (or restart, or point elsewhere) pushing ``tournament`` to the server at ``url``.

    Restarting towards the same server keeps the copy there (same key, same event id); another
    server gets a new copy. The first push follows within seconds, from the worker.
    """
    if mirror_of(tournament.pk) is not None:
        raise ConflictError(_("this event is itself a mirror of an event run elsewhere; mirror that one"))
    base = server_base_url(url)
    token = token.strip()
    if not token:
        raise refused("token", _("the server's API token is required"))
    with transaction.atomic():
        target = MirrorTarget.objects.select_for_update().filter(tournament=tournament).first()
        if target is None or target.url != base:
            target = target or MirrorTarget(tournament=tournament)
            target.key = secrets.token_hex(16)
            target.remote_id = None
            target.last_pushed_at = None
        target.url = base
        target.token = token
        target.active = True
        target.pushed_generation = None
        target.last_error = None
        target.failures = 0
        target.next_attempt_at = None
        target.save()
    return target


def refused(field: str, message: str) -> DomainError:
    """A 400 naming the field as the API and the form call it."""
    return DomainError(message, errors=[{"field": field, "message": message}])


def mirror_stop(*, tournament: Tournament) -> None:
    """Stop pushing; the server keeps its last copy (marked with the time it was last updated)."""
    MirrorTarget.objects.filter(tournament=tournament).update(active=False, next_attempt_at=None)


def active_target(tournament_id: int) -> MirrorTarget | None:
    return MirrorTarget.objects.filter(tournament_id=tournament_id, active=True).first()


def server_base_url(url: str) -> str:
    """The server's base URL without a trailing slash; https, or http only to this machine.

    The file (teams, decklists, penalties) and the token travel to it, so plain http is refused
    for any other host.
    """
    url = url.strip().rstrip("/")
    try:
        parts = urllib.parse.urlsplit(url)
        host = parts.hostname
    except ValueError:  # "http://[::1" and the like
        parts, host = None, None
    if parts is None or parts.scheme not in ("http", "https") or not host:
        raise refused("url", _("the server's address must start with https:// and name a host"))
    if parts.scheme == "http" and not _is_loopback(host):
        raise refused(
            "url",
            _("use https:// for a server other than this machine: the event and the token travel to it"),
        )
    if parts.query or parts.fragment:
        raise refused("url", _("the server's address takes no query or fragment"))
    return url


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def mirror_sweep(now: dt.datetime | None = None) -> int:
    """Push every mirrored event that is due; returns how many pushes were made."""
    now = now or timezone.now()
    pushed = 0
    due = MirrorTarget.objects.filter(active=True).filter(
        Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now)
    )
    for target in due:
        current = generation(target.tournament_id)
        stale = target.last_pushed_at is None or now - target.last_pushed_at >= PUSH_EVERY
        if current is not None and current == target.pushed_generation and not stale:
            continue
        if _claim(target, now):
            mirror_push(target, current)
            pushed += 1
    return pushed


def _claim(target: MirrorTarget, now: dt.datetime) -> bool:
    """Hold the target for one push (two workers' sweeps never push it at once)."""
    lease = now + dt.timedelta(seconds=3 * settings.MIRROR_PUSH_TIMEOUT)
    return bool(
        MirrorTarget.objects.filter(pk=target.pk, active=True)
        .filter(Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now))
        .update(next_attempt_at=lease)
    )


def mirror_push(target: MirrorTarget, current_generation: int | None) -> bool:
    """One push of the target's event; records how it went. No transaction is held meanwhile."""
    MirrorTarget.objects.filter(pk=target.pk).update(sequence=F("sequence") + 1)
    target.refresh_from_db(fields=["sequence"])
    document = event_export(target.tournament)
    body = gzip.compress(
        json.dumps({"sequence": target.sequence, "event": document}).encode(), compresslevel=6
    )
    try:
        answer = _put(target, body)
    except PushFailed as failure:
        _failed(target, failure.reason, failure.server_sequence)
        return False
    remote_id = answer.get("id")
    # ``key``: the organizer may have pointed the mirror elsewhere meanwhile; then this push's
    # outcome is about the old server and is not recorded.
    MirrorTarget.objects.filter(pk=target.pk, key=target.key).update(
        remote_id=remote_id if isinstance(remote_id, int) else None,
        pushed_generation=current_generation,
        last_pushed_at=timezone.now(),
        last_error=None,
        failures=0,
        next_attempt_at=None,
    )
    return True


class PushFailed(Exception):
    def __init__(self, reason: N_, server_sequence: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.server_sequence = server_sequence


def _put(target: MirrorTarget, body: bytes) -> dict[str, Any]:
    request = urllib.request.Request(
        target.url + PUSH_PATH.format(key=target.key),
        data=body,
        method="PUT",
        headers={
            "Authorization": f"Token {target.token}",
            "Content-Type": "application/json",
            "Content-Encoding": "gzip",
            "Accept": "application/json",
            "Accept-Language": target.tournament.language,
        },
    )
    timeout = settings.MIRROR_PUSH_TIMEOUT
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - scheme checked
            answer = json.loads(response.read(1_000_000) or b"{}")
            return answer if isinstance(answer, dict) else {}
    except urllib.error.HTTPError as error:
        detail, sequence = _error_detail(error)
        raise PushFailed(
            N_("the server refused the push (%(status)s): %(detail)s", status=error.code, detail=detail),
            sequence,
        ) from None
    except TimeoutError:
        raise PushFailed(N_("the server did not answer within %(seconds)s s", seconds=timeout)) from None
    except urllib.error.URLError as error:
        reason = error.reason
        if isinstance(reason, TimeoutError):
            raise PushFailed(N_("the server did not answer within %(seconds)s s", seconds=timeout)) from None
        raise PushFailed(N_("cannot reach the server: %(reason)s", reason=str(reason))) from None
    except (OSError, ValueError) as error:
        raise PushFailed(N_("cannot reach the server: %(reason)s", reason=str(error))) from None


def _error_detail(error: urllib.error.HTTPError) -> tuple[str, int | None]:
    """The server's ``detail`` (our API's error shape) and, on a stale push, its copy's push number."""
    try:
        data = json.loads(error.read(100_000))
    except (ValueError, OSError):
        return error.reason or "", None
    if not isinstance(data, dict):
        return str(data)[:300], None
    sequence = data.get("sequence")
    return str(data.get("detail", ""))[:300], sequence if isinstance(sequence, int) else None


def _failed(target: MirrorTarget, reason: N_, server_sequence: int | None) -> None:
    """Record the failure and back off: 5 s, 10 s, 20 s, 40 s, then every minute."""
    failures = target.failures + 1
    wait = min(dt.timedelta(seconds=5 * 2 ** (failures - 1)), BACKOFF_MAX)
    changes: dict[str, Any] = {"last_error": as_data(reason), "failures": failures}
    changes["next_attempt_at"] = timezone.now() + wait
    if server_sequence is not None and server_sequence >= target.sequence:
        # The server holds a later push number (this laptop's database was restored from a
        # backup): continue after it, at once; this laptop's event is the one of record.
        changes["sequence"] = server_sequence
        changes["next_attempt_at"] = None
    logger.warning("mirror of event %s to %s: %s", target.tournament_id, target.url, reason)
    MirrorTarget.objects.filter(pk=target.pk, key=target.key).update(**changes)
