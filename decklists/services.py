"""Writes: decklist submissions, Limited pool registrations, the card table import, and deck checks.

Every function here is the only way its rows change: pages, the API and management
commands call these, so the deadline lock, the audit entries and the versions are the
same whichever door a change comes through.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from clock.services import time_extension_grant
from common.errors import ConflictError, DomainError
from decklists.card_table import CARD_FIELDS, card_fields, one_per_name
from decklists.domain import MAX_CHARS, BanListHistory, ErrorCode
from decklists.domain import Card as DomainCard
from decklists.domain.deck_checks import SHUFFLE_MINUTES, check_duration_minutes
from decklists.models import (
    Card,
    CardData,
    DeckCheck,
    DeckCheckFinding,
    Decklist,
    DecklistVersion,
    FindingKind,
    TeamPool,
    TeamPoolVersion,
)
from decklists.selectors import (
    card_data_revision,
    card_index,
    decklist_text_check,
    decklists_locked,
    default_boosters,
    pool_text_check,
)
from penalties.services import penalty_issue
from tournaments.models import Match, Player, Team, Tournament
from tournaments.rules import (
    can_change_locked_decklist,
    can_enter_decklist,
    can_read_pool,
    is_event_staff,
    plays_on,
)
from tournaments.services.audit import audit_log

IMPORT_BATCH = 2000
"""MTR 2.6: a deck check extends the match by the time it took plus 3 minutes."""
DECK_CHECK_INFRACTIONS = frozenset({"TE-DLP", "TE-DP"})
"""What a deck check finds: Decklist Problem [IPG 3.4] or Deck Problem [IPG 3.5]."""


def _text_refusal(text: str) -> DomainError | None:
    """Text the service will not store at all, as a 400 naming the problem.

    Over the length limit; or binary: a NUL character or an unpaired surrogate, which
    PostgreSQL cannot store in a text or JSON column (that would be a 500, not an answer).
    """
    if len(text) > MAX_CHARS:
        message = _("The list has %(count)s characters; the limit is %(limit)s.") % {
            "count": len(text),
            "limit": MAX_CHARS,
        }
        code = ErrorCode.PARSE_TOO_LONG
    elif "\x00" in text or not _encodable(text):
        message = _("The text contains binary data; paste the decklist as plain text.")
        code = ErrorCode.PARSE_INVALID_CHARACTER
    else:
        return None
    return DomainError(message, errors=[{"line": None, "code": str(code), "message": message}])


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_text_acceptable(text: str) -> None:
    """Raise the 400 of :func:`_text_refusal` (also used by the preview, which stores nothing)."""
    refusal = _text_refusal(text)
    if refusal is not None:
        raise refusal


@transaction.atomic
def decklist_submit(
    *, tournament: Tournament, actor, player: Player, text: str, reason: str = "", at: datetime | None = None
) -> DecklistVersion:
    """Store a new version of ``player``'s list, checked against the card table.

    A player submits their own list; event staff may enter anyone's (paper lists). Once the
    lists are locked (:func:`decklists_locked`) only a judge may change one, with a reason,
    and the change is audited [MTR 2.7]. Errors in the list do not refuse the submission:
    the version is stored with its line-numbered errors so the player sees them and fixes
    them before the deadline. Every version is kept.
    """
    if player.tournament_id != tournament.pk:
        raise DomainError(
            _("The player is not in this event."), errors=[{"field": "player", "message": _("not in event")}]
        )
    is_staff = is_event_staff(actor, tournament)
    if not can_enter_decklist(actor, player):
        raise DomainError(_("You may submit only your own decklist."), status_code=403)
    check_text_acceptable(text)
    reason = reason.strip()
    _check_reason(reason)
    locked = decklists_locked(tournament, at=at)
    _check_lock(tournament=tournament, actor=actor, reason=reason, locked=locked)
    Player.objects.select_for_update().filter(pk=player.pk).first()
    decklist, _created = Decklist.objects.get_or_create(player=player, defaults={"tournament": tournament})
    before = decklist.current
    checked = decklist_text_check(text, tournament=tournament, player=player, index=card_index())
    version = DecklistVersion.objects.create(
        decklist=decklist,
        number=(before.number if before else 0) + 1,
        text=text,
        cards=checked.cards,
        errors=checked.errors,
        valid=checked.valid,
        submitted_by=actor if getattr(actor, "is_authenticated", False) else None,
        reason=reason,
        card_data_revision=card_data_revision(),
    )
    decklist.current = version
    decklist.save(update_fields=["current", "updated_at"])
    if locked or is_staff and player.user_id != getattr(actor, "pk", None):
        audit_log(
            tournament=tournament,
            actor=actor,
            action="decklist_change_after_deadline" if locked else "decklist_submit_for_player",
            obj=decklist,
            before={"version": before.number, "valid": before.valid} if before else None,
            after={"version": version.number, "valid": version.valid, "player": player.pk},
            reason=reason,
        )
    return version


def _check_reason(reason: str) -> None:
    """A reason the version and the audit log can store: no NUL (PostgreSQL refuses it in text and
    JSON) and within the column (a 400 naming ``reason``, not a database error)."""
    limit = DecklistVersion._meta.get_field("reason").max_length
    if "\x00" in reason or not _encodable(reason):
        message = _("The text contains binary data; paste the decklist as plain text.")
    elif limit is not None and len(reason) > limit:
        message = _("at most %(limit)s characters, got %(length)s") % {"limit": limit, "length": len(reason)}
    else:
        return
    raise DomainError(
        _("The reason for the audit log: %(message)s") % {"message": message},
        errors=[{"field": "reason", "message": message}],
    )


def _check_lock(*, tournament: Tournament, actor, reason: str, locked: bool, what: str = "list") -> None:
    """After the deadline only a judge may change a registration, and only with a reason
    [MTR 2.7: accepted lists can't be changed]; pools and decklists lock together."""
    if locked and not can_change_locked_decklist(actor, tournament):
        raise ConflictError(
            _("Decklists are locked: the decklist deadline has passed. Ask a judge to correct the %(what)s.")
            % {"what": what},
            extra={"code": "decklists_locked"},
        )
    if locked and not reason:
        raise DomainError(
            _("A change after the decklist deadline needs a reason for the audit log."),
            errors=[{"field": "reason", "message": _("required after the deadline")}],
        )


@transaction.atomic
def decklist_pool_register(
    *,
    team: Team,
    actor,
    text: str,
    boosters: int | None = None,
    reason: str = "",
    at: datetime | None = None,
) -> TeamPoolVersion:
    """Store a new version of a Limited team's pool: every card opened (Sealed) or drafted.

    The pool is what the team's decks are checked against [MTR 9.6, 9.7; rules §6.4]: both
    decks come out of it, so either player of the team may register it, and event staff
    may enter it from a paper sheet (or after a pool swap, MTR 7.5). Constructed events
    have no pool (400). ``boosters`` defaults to the format's number (Sealed 8, Draft 6).
    Deadline and lock rules are those of :func:`decklist_submit`. Lines that do not
    resolve do not refuse the registration: the version is stored with its errors, and
    the team's decks are not checked against it until a corrected version replaces it.
    """
    tournament = team.tournament
    if not tournament.is_limited:
        raise DomainError(
            _("Only Sealed and Draft events register a team pool; this event is %(get_format_display)s.")
            % {"get_format_display": tournament.get_format_display()},
            errors=[{"field": "team", "message": _("not a Limited event")}],
        )
    on_team = plays_on(actor, team, tournament)
    if not can_read_pool(actor, team):
        raise DomainError(
            _("Only the team's players and the event's staff may register its pool."), status_code=403
        )
    check_text_acceptable(text)
    if boosters is not None and boosters < 1:
        raise DomainError(
            _("A pool comes from at least one booster."),
            errors=[{"field": "boosters", "message": _("must be ≥ 1")}],
        )
    reason = reason.strip()
    _check_reason(reason)
    locked = decklists_locked(tournament, at=at)
    _check_lock(tournament=tournament, actor=actor, reason=reason, locked=locked, what="pool")

    Team.objects.select_for_update().filter(pk=team.pk).first()
    pool, _created = TeamPool.objects.get_or_create(team=team, defaults={"tournament": tournament})
    before = pool.current
    checked = pool_text_check(text, index=card_index())
    version = TeamPoolVersion.objects.create(
        pool=pool,
        number=(before.number if before else 0) + 1,
        text=text,
        cards=checked.cards,
        errors=checked.errors,
        valid=checked.valid,
        boosters=boosters or default_boosters(tournament),
        submitted_by=actor if getattr(actor, "is_authenticated", False) else None,
        reason=reason,
        card_data_revision=card_data_revision(),
    )
    pool.current = version
    pool.save(update_fields=["current", "updated_at"])
    if locked or not on_team:
        audit_log(
            tournament=tournament,
            actor=actor,
            action="pool_change_after_deadline" if locked else "pool_register_for_team",
            obj=pool,
            before={"version": before.number, "valid": before.valid, "boosters": before.boosters}
            if before
            else None,
            after={
                "version": version.number,
                "valid": version.valid,
                "boosters": version.boosters,
                "team": team.pk,
            },
            reason=reason,
        )
    return version


@dataclass(frozen=True, slots=True)
class ImportReport:
    added: int
    changed: int
    unchanged: int

    @property
    def total(self) -> int:
        return self.added + self.changed + self.unchanged


@transaction.atomic
def cards_import(
    *,
    records: Iterable[DomainCard],
    source: str,
    data_date: str = "",
    aliases: dict[str, str] | None = None,
    ban_history: BanListHistory | None = None,
    snapshot_sha256: str = "",
    progress=None,
) -> ImportReport:
    """Upsert cards into the table in one transaction; report what was added and changed.

    Cards missing from ``records`` are kept: a partial file must not empty the table, and a
    stored decklist may still name them. ``aliases`` replace the MTGO alias table when given
    (the snapshot has them; Scryfall and MTGJSON files do not, so those keep the current
    ones); so does ``ban_history`` (the banned/restricted list changes with their dates).
    ``snapshot_sha256`` is passed when the records are the shipped snapshot itself.
    ``progress(done, total)`` is called after each batch, for the command's progress bar.
    The caller parses the whole file first, so a bad file raises before anything is written.
    """
    incoming = one_per_name(records)
    existing = {row["name"]: row for row in Card.objects.values("id", "name", *CARD_FIELDS).iterator(4000)}
    new_rows: list[Card] = []
    changed_rows: list[Card] = []
    for name, card in incoming.items():
        fields = card_fields(card)
        held = existing.get(name)
        if held is None:
            new_rows.append(Card(name=name, **fields))
        elif any(held[key] != value for key, value in fields.items()):
            changed_rows.append(Card(id=held["id"], name=name, **fields))
    total = len(new_rows) + len(changed_rows)
    done = 0
    for start in range(0, len(new_rows), IMPORT_BATCH):
        batch = new_rows[start : start + IMPORT_BATCH]
        Card.objects.bulk_create(batch)
        done += len(batch)
        if progress:
            progress(done, total)
    for start in range(0, len(changed_rows), IMPORT_BATCH):
        batch = changed_rows[start : start + IMPORT_BATCH]
        Card.objects.bulk_update(batch, list(CARD_FIELDS))
        done += len(batch)
        if progress:
            progress(done, total)
    report = ImportReport(
        added=len(new_rows),
        changed=len(changed_rows),
        unchanged=len(incoming) - len(new_rows) - len(changed_rows),
    )
    state, _created = CardData.objects.select_for_update().get_or_create(pk=1)
    if report.added or report.changed or state.snapshot_sha256 != snapshot_sha256:
        state.revision = F("revision") + 1
    state.source = source[:200]
    state.data_date = data_date[:100]
    state.snapshot_sha256 = snapshot_sha256 if not existing.keys() - incoming.keys() else ""
    if aliases is not None:
        state.aliases = aliases
    if ban_history is not None:
        _replace_history(state, ban_history)
    state.formats = sorted(
        {fmt for card in Card.objects.values_list("legalities", flat=True) for fmt in card}
    )
    state.save()
    return report


@transaction.atomic
def ban_history_replace(ban_history: BanListHistory) -> bool:
    """Replace the banned/restricted list history alone (a ban announcement between card
    releases); ``False`` if it was already the stored one."""
    state, _created = CardData.objects.select_for_update().get_or_create(pk=1)
    if not _replace_history(state, ban_history):
        return False
    state.save()
    return True


def _replace_history(state: CardData, ban_history: BanListHistory) -> bool:
    """Store ``ban_history`` on ``state`` (not saved) and move its revision, so every process
    rebuilds its index; ``False`` if nothing changed."""
    stored = ban_history.to_json()
    if stored == state.ban_history:
        return False
    state.ban_history = stored
    state.revision = F("revision") + 1
    return True


# Deck checks. Callers check that ``actor`` is a judge of the event (JUDGES).


@transaction.atomic
def deck_check_start(*, match: Match, actor, at: datetime | None = None) -> DeckCheck:
    """Start checking the four decks at a table [MTR 2.8]; one open check per table."""
    if match.is_bye:
        raise DomainError(_("A bye has no table to deck check."))
    Match.objects.select_for_update().filter(pk=match.pk).first()
    if DeckCheck.objects.filter(match=match, finished_at__isnull=True).exists():
        raise ConflictError(_("A deck check is already running at table %(table)s.") % {"table": match.table})
    tournament = match.round.tournament
    check = DeckCheck.objects.create(
        tournament=tournament, round=match.round, match=match, judge=actor, started_at=at or timezone.now()
    )
    audit_log(
        tournament=tournament, actor=actor, action="deck_check_start", obj=check, after={"table": match.table}
    )
    return check


@transaction.atomic
def deck_check_finish(*, deck_check: DeckCheck, actor, at: datetime | None = None) -> DeckCheck:
    """Stop the check's clock and give the table its time back at once (MTR 2.6).

    The check's length, rounded up to a whole minute (6 min 10 s gives 7), is one extension
    (``DeckCheck.extension``); the three minutes MTR 2.6 adds for the players to shuffle and
    present again are a second one, so the table's end moves by both. If the clock refuses the
    extension (time already called, the result already in, an untimed final), the check still
    finishes and the refusal is in the audit entry.
    """
    check = DeckCheck.objects.select_for_update(of=("self",)).select_related("match").get(pk=deck_check.pk)
    if check.finished_at is not None:
        raise ConflictError(_("This deck check is already finished."))
    check.finished_at = at or timezone.now()
    check.save(update_fields=["finished_at"])
    elapsed = check.finished_at - check.started_at
    minutes = check_duration_minutes(elapsed)
    refused = ""
    try:
        with transaction.atomic():
            if minutes:
                check.extension = time_extension_grant(
                    match=check.match,
                    actor=actor,
                    minutes=minutes,
                    reason=f"deck check: {_elapsed_text(elapsed)}, rounded up to {minutes} min (MTR 2.6)",
                )
                check.save(update_fields=["extension"])
            time_extension_grant(
                match=check.match,
                actor=actor,
                minutes=SHUFFLE_MINUTES,
                reason=f"deck check: {SHUFFLE_MINUTES} min to shuffle and present (MTR 2.6)",
            )
    except DomainError as exc:
        check.extension = None
        refused = exc.message
    audit_log(
        tournament=check.tournament,
        actor=actor,
        action="deck_check_finish",
        obj=check,
        after={
            "seconds": int(elapsed.total_seconds()),
            "minutes": minutes,
            "extension_minutes": 0 if refused else minutes + SHUFFLE_MINUTES,
        },
        reason=f"no time extension: {refused}" if refused else "",
    )
    return check


def _elapsed_text(elapsed) -> str:
    minutes, seconds = divmod(max(0, int(elapsed.total_seconds())), 60)
    return f"{minutes} min {seconds} s"


def deck_check_minutes(check: DeckCheck, *, at: datetime | None = None) -> int:
    """Whole minutes the check took (so far), rounded up (a 4.5-minute check cost the table 5)."""
    end = check.finished_at or at or timezone.now()
    return check_duration_minutes(end - check.started_at)


@transaction.atomic
def deck_check_finding_record(
    *, deck_check: DeckCheck, actor, player: Player, kind: str, card: str, count: int = 1, note: str = ""
) -> DeckCheckFinding:
    """Record one difference between a deck and its list (missing, extra or wrong card)."""
    match = deck_check.match
    if player.team_id not in (match.team_a_id, match.team_b_id):
        raise DomainError(
            _("The player is not at this table."), errors=[{"field": "player", "message": _("not at table")}]
        )
    if kind not in FindingKind.values:
        raise DomainError(
            _("Say whether the card is missing, extra or wrong."),
            errors=[{"field": "kind", "message": _("missing, extra or wrong")}],
        )
    if not card.strip():
        raise DomainError(_("Name the card."), errors=[{"field": "card", "message": _("may not be blank")}])
    if count < 1:
        raise DomainError(
            _("Count at least one card."), errors=[{"field": "count", "message": _("must be ≥ 1")}]
        )
    finding = DeckCheckFinding.objects.create(
        deck_check=deck_check,
        player=player,
        kind=kind,
        card=card.strip(),
        count=count,
        note=note.strip(),
        recorded_by=actor,
    )
    audit_log(
        tournament=deck_check.tournament,
        actor=actor,
        action="deck_check_finding",
        obj=finding,
        after={"player": player.pk, "kind": kind, "card": finding.card, "count": count},
        reason=finding.note,
    )
    return finding


@transaction.atomic
def deck_check_finding_to_penalty(
    *, finding: DeckCheckFinding, actor, infraction: str, description: str = ""
):
    """Turn a finding into a penalty entry in one action: Decklist Problem or Deck Problem,
    marked as found during a deck check (which is what lets the 2HG match-point policy apply).
    """
    if infraction not in DECK_CHECK_INFRACTIONS:
        raise DomainError(
            _(
                "A deck check finding is a Decklist Problem (TE-DLP) or a Deck Problem (TE-DP), not %(infraction)s."
            )
            % {"infraction": repr(infraction)},
            errors=[{"field": "infraction", "message": _("TE-DLP or TE-DP")}],
        )
    locked = (
        DeckCheckFinding.objects.select_for_update(of=("self",))
        .select_related("deck_check", "player")
        .get(pk=finding.pk)
    )
    if locked.penalty_id is not None:
        raise ConflictError(_("This finding already has a penalty."))
    check = locked.deck_check
    with translation.override("en"):  # a penalty's description is stored in English, as its DQ report
        kind = locked.get_kind_display().lower()
    default = f"Deck check at table {check.match.table}: {kind}: {locked.count} {locked.card}"
    if locked.note:
        default += f" ({locked.note})"
    penalty = penalty_issue(
        tournament=check.tournament,
        actor=actor,
        player=locked.player,
        round_row=check.round,
        infraction=infraction,
        description=description.strip() or default,
        context={"found_during_deck_check": True},
    )
    locked.penalty = penalty
    locked.save(update_fields=["penalty"])
    return penalty
