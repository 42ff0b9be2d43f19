"""Judges' notes and investigations: timestamped, signed, never edited; the head judge may lock."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import ConflictError, DomainError
from floor.models import Investigation, Note, NoteKind
from penalties.models import Penalty
from tournaments.models import Match, Player, Tournament
from tournaments.services.audit import audit_log

TEXT_MAX = 10_000


@transaction.atomic
def note_add(
    *,
    tournament: Tournament,
    actor,
    text: str,
    match: Match | None = None,
    penalty: Penalty | None = None,
    player: Player | None = None,
    investigation: Investigation | None = None,
    kind: str = NoteKind.NOTE,
    given_by: str = "",
    at: datetime | None = None,
) -> Note:
    """Attach a note (or a statement taken from ``given_by``) to a match, a penalty, a player or an
    investigation of the event; signed by ``actor``, timestamped now. Callers check that the actor
    judges the event. A decided investigation takes no more notes."""
    text = (text or "").strip()
    if not text:
        raise DomainError(_("write the note"), errors=[{"field": "text", "message": _("may not be blank")}])
    if len(text) > TEXT_MAX:
        raise DomainError(
            _("the note is too long"),
            errors=[
                {"field": "text", "message": _("at most %(TEXT_MAX)s characters") % {"TEXT_MAX": TEXT_MAX}}
            ],
        )
    if not any((match, penalty, player, investigation)):
        raise DomainError(
            _("say what the note is about: a match, a penalty or a player"),
            errors=[{"field": "match", "message": _("one of match, penalty or player is required")}],
        )
    owners = {
        "match": match and match.round.tournament_id,
        "penalty": penalty and penalty.tournament_id,
        "player": player and player.tournament_id,
        "investigation": investigation and investigation.tournament_id,
    }
    for field, owner in owners.items():
        if owner is not None and owner != tournament.pk:
            raise DomainError(
                _("no such %(field)s in this event") % {"field": field},
                errors=[{"field": field, "message": _("not in this event")}],
            )
    if kind == NoteKind.STATEMENT and not given_by.strip():
        raise DomainError(
            _("say whose statement it is"),
            errors=[{"field": "given_by", "message": _("required for a statement")}],
        )
    if investigation is not None and investigation.decided_at is not None:
        raise ConflictError(_("this investigation is decided; it takes no more notes"))
    note = Note.objects.create(
        tournament=tournament,
        match=match,
        penalty=penalty,
        player=player,
        investigation=investigation,
        kind=kind,
        given_by=given_by.strip()[:100],
        text=text,
        author=actor,
        created_at=at or timezone.now(),
    )
    audit_log(
        tournament=tournament,
        actor=actor,
        action="note.add",
        obj=note,
        after={
            "kind": kind,
            "match": match.pk if match else None,
            "penalty": penalty.pk if penalty else None,
            "player": player.pk if player else None,
            "investigation": investigation.pk if investigation else None,
        },
    )
    return note


@transaction.atomic
def note_lock(*, note: Note, actor, at: datetime | None = None) -> Note:
    """The head judge locks a note: from now on only the head judge reads it (callers check the role)."""
    locked = Note.objects.select_for_update().get(pk=note.pk)
    if locked.locked_at is not None:
        return locked
    locked.locked_at = at or timezone.now()
    locked.locked_by = actor
    locked.save(update_fields=["locked_at", "locked_by"])
    audit_log(
        tournament=locked.tournament, actor=actor, action="note.lock", obj=locked, after={"locked": True}
    )
    return locked


@transaction.atomic
def investigation_open(
    *, tournament: Tournament, actor, title: str, player: Player | None = None, penalty: Penalty | None = None
) -> Investigation:
    title = (title or "").strip()
    if not title:
        raise DomainError(
            _("name the investigation"), errors=[{"field": "title", "message": _("may not be blank")}]
        )
    investigation = Investigation.objects.create(
        tournament=tournament,
        title=title[:200],
        player=player,
        penalty=penalty,
        opened_by=actor,
        opened_at=timezone.now(),
    )
    audit_log(
        tournament=tournament,
        actor=actor,
        action="investigation.open",
        obj=investigation,
        after={"title": title},
    )
    return investigation


@transaction.atomic
def investigation_decide(*, investigation: Investigation, actor, decision: str) -> Investigation:
    """The head judge records the decision; the investigation is then closed to new notes."""
    decision = (decision or "").strip()
    if not decision:
        raise DomainError(
            _("write the decision"), errors=[{"field": "decision", "message": _("may not be blank")}]
        )
    locked = Investigation.objects.select_for_update().get(pk=investigation.pk)
    if locked.decided_at is not None:
        raise ConflictError(_("this investigation is already decided"))
    locked.decision = decision
    locked.decided_by = actor
    locked.decided_at = timezone.now()
    locked.save(update_fields=["decision", "decided_by", "decided_at"])
    audit_log(
        tournament=locked.tournament,
        actor=actor,
        action="investigation.decide",
        obj=locked,
        after={"decision": decision},
    )
    return locked
