"""Reads: the card index validation uses, and decklists turned into domain values.

Card index rule: validation uses the same data the card table holds. While the table holds
exactly the shipped snapshot (``CardData.snapshot_sha256`` equals the shipped file's hash),
the snapshot's cached index is that data and costs nothing to reuse. After ``import_cards``
changes rows, the index is rebuilt from the table once per process and ``CardData.revision``
(one indexed read per call) tells every process when its copy is stale.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.utils import timezone

from decklists.card_table import INDEX_FIELDS, card_from_row, shipped_snapshot_sha256
from decklists.domain import (
    CardIndex,
    Deck,
    DeckError,
    LimitedKind,
    LimitedPool,
    Section,
    TeamVerdict,
    UdcMode,
    check_constructed_deck,
    check_constructed_team,
    check_limited_team,
    load_card_index,
    parse_decklist,
    resolve_decklist,
)
from decklists.domain.decks import resolve_entry
from decklists.models import Card, CardData, Decklist
from tournaments.enums import TournamentStatus
from tournaments.models import Player, Round, Team, Tournament

_lock = threading.Lock()
_cached: dict[tuple, CardIndex] = {}


def card_data_revision() -> int:
    return CardData.objects.filter(pk=1).values_list("revision", flat=True).first() or 0


def card_index() -> CardIndex:
    """The index of the card table's current contents (see the module docstring).

    No ``CardData`` row means the loading migration has not run; the shipped snapshot is
    then the only card data there is. The cache key includes ``updated_at`` as well as the
    revision, so a revision number reused after a rolled-back import never hits a stale index.
    """
    state = (
        CardData.objects.filter(pk=1)
        .values("revision", "updated_at", "snapshot_sha256", "aliases", "formats")
        .first()
    )
    if state is None or state["snapshot_sha256"] == shipped_snapshot_sha256():
        return load_card_index()
    key = (state["revision"], state["updated_at"])
    with _lock:
        index = _cached.get(key)
        if index is None:
            legalities: dict = {}
            rows = Card.objects.values(*INDEX_FIELDS).iterator(4000)
            index = CardIndex(
                [card_from_row(row, legalities) for row in rows],
                aliases=state["aliases"],
                formats=state["formats"],
            )
            _cached.clear()
            _cached[key] = index
    return index


@dataclass(frozen=True, slots=True)
class TeamLists:
    """A team's players with their decklists (``None`` where a player has not submitted)."""

    team: Team
    players: tuple[Player, ...]
    decklists: tuple[Decklist | None, ...]


def decklists_for_team(*, team: Team) -> TeamLists:
    """The team's players in seat order and their current lists, in two queries."""
    players = tuple(Player.objects.filter(team=team).order_by("position", "id"))
    by_player = {
        d.player_id: d
        for d in Decklist.objects.filter(player__team=team).select_related("current", "current__submitted_by")
    }
    return TeamLists(team=team, players=players, decklists=tuple(by_player.get(p.pk) for p in players))


def decklists_for_event(*, tournament: Tournament) -> list[TeamLists]:
    """Every team's players and current lists, in three queries whatever the event's size."""
    teams = list(Team.objects.filter(tournament=tournament).order_by("name"))
    players: dict[int, list[Player]] = {}
    for player in Player.objects.filter(tournament=tournament).order_by("position", "id"):
        players.setdefault(player.team_id, []).append(player)
    by_player = {
        d.player_id: d for d in Decklist.objects.filter(tournament=tournament).select_related("current")
    }
    return [
        TeamLists(
            team=team,
            players=tuple(players.get(team.pk, ())),
            decklists=tuple(by_player.get(p.pk) for p in players.get(team.pk, ())),
        )
        for team in teams
    ]


def deck_from_version(decklist: Decklist | None, *, player_label: str, format_id: str) -> Deck | None:
    """The stored current version as a domain :class:`Deck`; ``None`` if it never resolved."""
    if decklist is None or decklist.current is None or not decklist.current.cards:
        return None
    sections: dict[str, list[tuple[int, str]]] = {
        "main": [],
        "sideboard": [],
        "commander": [],
        "companion": [],
    }
    for entry in decklist.current.cards:
        sections.setdefault(entry["section"], []).append((entry["count"], entry["name"]))
    return Deck(
        player=player_label,
        format=format_id,
        main=_sum(sections["main"]),
        sideboard=_sum(sections["sideboard"]),
        commander=_sum(sections["commander"]),
        companion=_sum(sections["companion"]),
    )


def _sum(pairs: Iterable[tuple[int, str]]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for count, name in pairs:
        totals[name] = totals.get(name, 0) + count
    return totals


def player_label(player: Player) -> str:
    """How a player is named inside domain errors: a bracketed Player id, ``⟨17⟩``.

    Ids, not names, because two players may share a name and the API promises ids; the
    brackets let :func:`_named` put names back into messages without touching the numbers
    (copies, deck sizes) that stand next to them.
    """
    return f"⟨{player.pk}⟩"


def team_decklist_verdict(
    *,
    tournament: Tournament,
    lists: TeamLists,
    index: CardIndex | None = None,
    draft: tuple[Player, Deck | None] | None = None,
) -> TeamVerdict:
    """The team's registration checked as a whole: each deck, then UDC in the event's mode.

    Only lists that resolved take part: a list with unknown names has its own line errors
    and would only add noise here. ``draft`` stands one player's unsaved deck in for their
    stored list, so the paste box can show UDC conflicts while the player types. Limited
    events have no registered pool, so their team check is the per-deck part of the
    Limited rules (size, no commander).
    """
    index = index or card_index()
    decks = []
    for player, decklist in zip(lists.players, lists.decklists, strict=True):
        if draft is not None and draft[0].pk == player.pk:
            deck = draft[1]
        else:
            deck = deck_from_version(decklist, player_label=player_label(player), format_id=tournament.format)
        if deck is not None:
            decks.append(deck)
    if tournament.is_limited:
        pool = LimitedPool(LimitedKind(tournament.format), _pool_of(decks))
        return check_limited_team(pool, decks)
    return check_constructed_team(decks, index, udc_mode=UdcMode(tournament.udc_mode))


def _pool_of(decks: Sequence[Deck]) -> dict[str, int]:
    """Without a registered pool, the decks themselves are the pool: only size rules apply."""
    pool: dict[str, int] = {}
    for deck in decks:
        for name, count in deck.main.items():
            pool[name] = pool.get(name, 0) + count
    return pool


def decklists_locked(tournament: Tournament, *, at=None) -> bool:
    """Lists lock at the event's decklist deadline [MTR 2.7: "electronic lists lock at the
    deadline"]; an event without a deadline locks them when round 1 is paired, since
    Constructed lists are due before the event starts."""
    at = at or timezone.now()
    if tournament.decklist_deadline is not None:
        return at >= tournament.decklist_deadline
    return Round.objects.filter(tournament=tournament).exists()


def decklists_public(tournament: Tournament) -> bool:
    """Anyone may read every list once the organizer published them after the event."""
    return tournament.decklists_published and tournament.status == TournamentStatus.FINISHED


@dataclass(frozen=True, slots=True)
class TextCheck:
    """What a pasted list says on its own: resolved cards, line-numbered errors, validity."""

    cards: list[dict]
    errors: list[dict]
    deck: Deck | None

    @property
    def valid(self) -> bool:
        return self.deck is not None and not self.errors


def error_row(
    error: DeckError, *, lines: dict[str, int] | None = None, players: Iterable[Player] = ()
) -> dict:
    """A domain error as stored and returned; a deck-level error about a card points at the
    card's first line so the paste box can mark it."""
    line = error.line
    if line is None and error.card is not None and lines:
        line = lines.get(error.card)
    return {
        "line": line,
        "code": str(error.code),
        "message": named(error.message, players),
        "card": error.card,
        "suggestions": list(error.suggestions),
    }


def decklist_text_check(text: str, *, tournament: Tournament, player: Player, index: CardIndex) -> TextCheck:
    """Parse, resolve and check one player's list for the event's format; never raises.

    Team rules (UDC) are left to :func:`team_decklist_verdict`: they depend on the
    teammate's list, which may change after this one is stored.
    """
    label = player_label(player)
    parsed = parse_decklist(text)
    submission = resolve_decklist(parsed, index, player=label, format_id=tournament.format)
    lines: dict[str, int] = {}
    cards: list[dict] = []
    for entry in parsed.entries:
        card, _ = resolve_entry(entry, index)
        if card is not None:
            lines.setdefault(card.name, entry.line)
    if submission.deck is None:
        errors = [error_row(e) for e in submission.errors]
        return TextCheck(cards=cards, errors=errors, deck=None)
    deck = submission.deck
    for section, counts in (
        (Section.MAIN, deck.main),
        (Section.SIDEBOARD, deck.sideboard),
        (Section.COMMANDER, deck.commander),
        (Section.COMPANION, deck.companion),
    ):
        cards += [{"count": count, "name": name, "section": str(section)} for name, count in counts.items()]
    if tournament.is_limited:
        own = LimitedPool(LimitedKind(tournament.format), _pool_of([deck]))
        deck_errors = check_limited_team(own, [deck]).errors
    else:
        deck_errors = check_constructed_deck(deck, index)
    errors = [error_row(e, lines=lines, players=(player,)) for e in deck_errors]
    return TextCheck(cards=cards, errors=errors, deck=deck)


def missing_list_error(player: Player) -> dict:
    return {
        "code": "DECKLIST_MISSING",
        "card": None,
        "players": [player.pk],
        "message": f"{player.name} has not submitted a decklist.",
    }


def unresolved_list_error(player: Player) -> dict:
    return {
        "code": "DECKLIST_INVALID",
        "card": None,
        "players": [player.pk],
        "message": f"{player.name}'s list has lines that need fixing before the team can be checked.",
    }


def team_error_rows(verdict: TeamVerdict, lists: TeamLists) -> list[dict]:
    """The team verdict as ``{code, card, players, message}`` with Player ids, plus one row per
    player whose list is missing or does not resolve (their decks could not be checked)."""
    rows: list[dict] = []
    for player, decklist in zip(lists.players, lists.decklists, strict=True):
        if decklist is None or decklist.current is None:
            rows.append(missing_list_error(player))
        elif not decklist.current.cards:
            rows.append(unresolved_list_error(player))
    by_label = {player_label(p): p for p in lists.players}
    for error in verdict.errors:
        rows.append(
            {
                "code": str(error.code),
                "card": error.card,
                "players": sorted(by_label[label].pk for label in error.players if label in by_label),
                "message": named(error.message, lists.players),
            }
        )
    return rows


_LABEL = re.compile(r"⟨(\d+)⟩")


def named(message: str, players: Iterable[Player]) -> str:
    """A domain message with each player label replaced by the player's name."""
    names = {str(p.pk): p.name for p in players}
    return _LABEL.sub(lambda m: names.get(m.group(1), m.group(0)), message)
