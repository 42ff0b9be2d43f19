"""Server side of a mirror: a pushed event file creates or replaces a read-only copy.

The copy is an import of the file (``event_io.load.MirrorImporter``), so a damaged or hostile file
is refused as an import refuses it, naming the JSON path, and changes nothing. Replacing deletes
the previous copy and imports the new file under the same event id, in one transaction, so the
public pages' addresses stay and a reader never sees half a copy. Pushes are numbered by the
laptop; only a higher number than the copy's replaces it, so a push that arrives late (a retry
after a timeout) never undoes a newer one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import ConflictError, DomainError
from decklists.models import DeckCheck
from event_io.load import MirrorImporter
from event_io.models import MirroredEvent
from event_io.reading import Node
from event_io.services import load_document
from penalties.models import Penalty
from tournaments import signals
from tournaments.models import Match, Tournament

#: A mirror's key: what the laptop names its copy by (``MirrorTarget.key``).
KEY_PATTERN = re.compile(r"^[0-9a-f]{32}$")


@dataclass(frozen=True)
class PushOutcome:
    mirror: MirroredEvent
    created: bool


def mirror_receive(*, owner, key: str, sequence: int, document: Any) -> PushOutcome:
    """Create or replace the copy ``key`` with ``document`` (push number ``sequence``), all or nothing.

    Refused: another account's copy (403), a push not newer than the copy's (409, with the
    copy's ``sequence``), a file an import refuses (400 naming where).
    """
    if not KEY_PATTERN.match(key):
        raise DomainError(
            _("a mirror's key is 32 hexadecimal digits"),
            errors=[{"field": "key", "message": _("32 hexadecimal digits")}],
        )
    with transaction.atomic():
        outcome = _replace(owner, key, sequence, document)
    signals.event_changed.send(sender=MirroredEvent, tournament_id=outcome.mirror.tournament_id)
    return outcome


def _replace(owner, key: str, sequence: int, document: Any) -> PushOutcome:
    mirror = MirroredEvent.objects.select_for_update().filter(key=key).first()
    if mirror is not None and mirror.owner_id != owner.pk:
        raise DomainError(_("this mirror belongs to another account"), status_code=403)
    if mirror is not None and sequence <= mirror.sequence:
        raise ConflictError(
            _("push %(sequence)s is not newer than the copy here (push %(current)s): nothing changed")
            % {"sequence": sequence, "current": mirror.sequence},
            extra={"sequence": mirror.sequence},
        )
    keep_pk = mirror.tournament_id if mirror is not None else None
    if keep_pk is not None:
        _delete_event(keep_pk)
    importer = MirrorImporter(Node(document, ""), owner=owner, keep_pk=keep_pk)
    tournament = load_document(importer, audit=False)
    now = timezone.now()
    if mirror is None:
        try:
            with transaction.atomic():
                mirror = MirroredEvent.objects.create(
                    key=key, owner=owner, tournament=tournament, sequence=sequence, updated_at=now
                )
        except IntegrityError:
            # Two first pushes of one key at once: the other one created the copy.
            raise ConflictError(_("another push of this mirror arrived at the same time; retry")) from None
        return PushOutcome(mirror, created=True)
    mirror.tournament = tournament
    mirror.sequence = sequence
    mirror.updated_at = now
    mirror.save(update_fields=["tournament", "sequence", "updated_at"])
    return PushOutcome(mirror, created=False)


def _delete_event(tournament_id: int) -> None:
    """The previous copy, every row of it. Rows that protect others (a deck check its player, a
    penalty its round and match, a match its teams) go first, as the cascade cannot order them."""
    DeckCheck.objects.filter(tournament_id=tournament_id).delete()
    Penalty.objects.filter(tournament_id=tournament_id).delete()
    Match.objects.filter(round__tournament_id=tournament_id).delete()
    Tournament.objects.filter(pk=tournament_id).delete()


def mirror_of(tournament_id: int) -> MirroredEvent | None:
    """The mirror row of an event that is a copy of one run elsewhere; ``None`` for an event run here."""
    return MirroredEvent.objects.filter(tournament_id=tournament_id).first()
