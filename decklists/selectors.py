"""Reads: the card index validation uses, and decklists turned into domain values.

Card index rule: validation uses the same data the card table holds. While the table holds
exactly the shipped snapshot (``CardData.snapshot_sha256`` equals the shipped file's hash),
the snapshot's cached index is that data and costs nothing to reuse. After ``import_cards``
changes rows, the index is rebuilt from the table once per process and ``CardData.revision``
(one indexed read per call) tells every process when its copy is stale.
"""

from __future__ import annotations

import datetime
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import F, Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from common.i18n import localize
from common.translatable import as_data, from_data
from decklists.card_table import INDEX_FIELDS, card_from_row, shipped_snapshot_sha256
from decklists.domain import (
    DEFAULT_BOOSTERS,
    BanListHistory,
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
from decklists.domain.parsing import clip
from decklists.models import Card, CardData, Decklist, TeamPool, TeamPoolVersion
from tournaments.models import Player, Round, Team, Tournament

_lock = threading.Lock()
_cached: dict[tuple, CardIndex] = {}


def legality_date(tournament: Tournament) -> datetime.date:
    """The day whose banned and restricted lists apply to the event's decklists: the event's
    date, or today for an event without one."""
    return tournament.date or timezone.localdate()


def card_data_revision() -> int:
    return CardData.objects.filter(pk=1).values_list("revision", flat=True).first() or 0


def card_index() -> CardIndex:
    """The index of the card table's current contents (see the module docstring).

    No ``CardData`` row means the loading migration has not run; the shipped snapshot is
    then the only card data there is. While the table holds exactly the shipped snapshot its
    cached index serves, under the stored ban-list history (``import_cards --ban-history``
    may have replaced it). The cache key includes ``updated_at`` as well as the revision, so
    a revision number reused after a rolled-back import never hits a stale index.
    """
    state = (
        CardData.objects.filter(pk=1)
        .values("revision", "updated_at", "snapshot_sha256", "aliases", "formats", "ban_history")
        .first()
    )
    if state is None:
        return load_card_index()
    key = (state["revision"], state["updated_at"])
    with _lock:
        index = _cached.get(key)
        if index is None:
            history = BanListHistory.from_json(state["ban_history"])
            if state["snapshot_sha256"] == shipped_snapshot_sha256():
                index = load_card_index().with_ban_history(history)
            else:
                legalities: dict = {}
                rows = Card.objects.values(*INDEX_FIELDS).iterator(4000)
                index = CardIndex(
                    [card_from_row(row, legalities) for row in rows],
                    aliases=state["aliases"],
                    formats=state["formats"],
                    ban_history=history,
                )
            _cached.clear()
            _cached[key] = index
    return index


@dataclass(frozen=True, slots=True)
class TeamLists:
    """A team's players with their decklists (``None`` where a player has not submitted).

    ``limited`` says the event is Sealed or Draft, where the decks are checked against the
    team's registered ``pool`` (its current version, ``None`` while none is registered).
    """

    team: Team
    players: tuple[Player, ...]
    decklists: tuple[Decklist | None, ...]
    limited: bool = False
    pool: TeamPoolVersion | None = None


def decklists_for_team(*, team: Team, tournament: Tournament) -> TeamLists:
    """The team's players in seat order and their current lists, in two queries (three in
    a Limited event, for the pool)."""
    players = tuple(Player.objects.filter(team=team).order_by("position", "id"))
    by_player = {
        d.player_id: d
        for d in Decklist.objects.filter(player__team=team).select_related("current", "current__submitted_by")
    }
    pool = None
    if tournament.is_limited:
        pool = TeamPool.objects.filter(team=team).select_related("current").first()
    return TeamLists(
        team=team,
        players=players,
        decklists=tuple(by_player.get(p.pk) for p in players),
        limited=tournament.is_limited,
        pool=pool.current if pool else None,
    )


def decklists_for_event(*, tournament: Tournament) -> list[TeamLists]:
    """Every team's players and current lists, in three queries whatever the event's size
    (four in a Limited event, for the pools)."""
    teams = list(Team.objects.filter(tournament=tournament).order_by("name"))
    players: dict[int, list[Player]] = {}
    for player in Player.objects.filter(tournament=tournament).order_by("position", "id"):
        players.setdefault(player.team_id, []).append(player)
    by_player = {
        d.player_id: d for d in Decklist.objects.filter(tournament=tournament).select_related("current")
    }
    pools: dict[int, TeamPoolVersion | None] = {}
    if tournament.is_limited:
        pools = {
            p.team_id: p.current
            for p in TeamPool.objects.filter(tournament=tournament).select_related("current")
        }
    return [
        TeamLists(
            team=team,
            players=tuple(players.get(team.pk, ())),
            decklists=tuple(by_player.get(p.pk) for p in players.get(team.pk, ())),
            limited=tournament.is_limited,
            pool=pools.get(team.pk),
        )
        for team in teams
    ]


def team_pool_current(*, team: Team) -> TeamPool | None:
    """The team's pool with its current version and every version (oldest first, with who
    registered it), or ``None``; three queries."""
    versions = TeamPoolVersion.objects.select_related("submitted_by").order_by("number")
    return (
        TeamPool.objects.filter(team=team)
        .select_related("current")
        .prefetch_related(Prefetch("versions", queryset=versions))
        .first()
    )


def team_pool_text(*, team: Team) -> str:
    """The text of the team's current pool as registered (prefills the paste box), or ``""``."""
    return (
        TeamPoolVersion.objects.filter(pool__team=team, pool__current=F("pk"))
        .values_list("text", flat=True)
        .first()
        or ""
    )


def default_boosters(tournament: Tournament) -> int:
    """Boosters per 2HG team when the registration names none: Sealed 8, Draft 6 [MTR App. D]."""
    return DEFAULT_BOOSTERS[LimitedKind(tournament.format)]


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
    stored list, so the paste box can show UDC conflicts while the player types.

    Limited events check the decks against the team's registered pool: copies summed
    across both decks never above the pool's, only the five basic land types added, each
    deck ≥ 40; the verdict's ``shared_sideboard`` is what the decks leave of the pool.
    Without a usable pool only the per-deck part applies (size, no commander);
    :func:`team_error_rows` then reports the missing pool, so the team is never shown legal.
    """
    decks = []
    for player, decklist in zip(lists.players, lists.decklists, strict=True):
        if draft is not None and draft[0].pk == player.pk:
            deck = draft[1]
        else:
            deck = deck_from_version(decklist, player_label=player_label(player), format_id=tournament.format)
        if deck is not None:
            decks.append(deck)
    if tournament.is_limited:
        kind = LimitedKind(tournament.format)
        if _pool_usable(lists.pool):
            registered = LimitedPool(kind, pool_counts(lists.pool.cards), lists.pool.boosters)
            return check_limited_team(registered, decks)
        verdict = check_limited_team(LimitedPool(kind, _pool_of(decks)), decks)
        return TeamVerdict(errors=verdict.errors)
    return check_constructed_team(
        decks,
        index or card_index(),
        udc_mode=UdcMode(tournament.udc_mode),
        on=legality_date(tournament),
    )


def _pool_usable(pool: TeamPoolVersion | None) -> bool:
    return pool is not None and bool(pool.cards) and not pool.errors


def pool_counts(cards: Iterable[dict]) -> dict[str, int]:
    """Stored ``[{count, name}]`` rows as canonical name → copies."""
    return _sum((row["count"], row["name"]) for row in cards)


def _pool_of(decks: Sequence[Deck]) -> dict[str, int]:
    """Without a usable pool, the decks themselves are the pool: only size rules apply."""
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
    error: DeckError,
    *,
    lines: dict[str, int] | None = None,
    line_texts: dict[int, str] | None = None,
    players: Iterable[Player] = (),
) -> dict:
    """A domain error as stored and returned: its line number and the text of that line.

    A deck-level error about a card points at the card's first line (``lines``: card → line)
    and takes that line's text from ``line_texts`` (line → text), so the paste box and the team
    page can say "Line 3: «4 Lightnig Bolt» — …" for every error tied to a line.
    """
    line = error.line
    if line is None and error.card is not None and lines:
        line = lines.get(error.card)
    line_text = error.line_text
    if line_text is None and line is not None and line_texts:
        line_text = line_texts.get(line)
    row = {
        "line": line,
        "line_text": line_text,
        "code": str(error.code),
        "message": named(error.message, players),
        "card": error.card,
        "suggestions": list(error.suggestions),
    }
    data = as_data(error.message)
    if isinstance(data, dict):
        row["i18n"] = _named_data(data, players)
    return row


def _named_data(data: dict, players: Iterable[Player]) -> dict:
    """``as_data`` of a message with each player label in its values replaced by the name."""
    values = {
        key: _named_data(value, players)
        if isinstance(value, dict)
        else named(value, players)
        if isinstance(value, str)
        else value
        for key, value in data["values"].items()
    }
    return {"msgid": data["msgid"], "values": values}


def error_message(row: dict) -> str:
    """A stored error row's message in the active language: rows keep the core's msgid and
    values (``i18n``) beside the English ``message``; rows stored before that keep English."""
    if "i18n" in row:
        return localize(from_data(row["i18n"]))
    return row.get("message") or ""


_LINE_PREFIX = re.compile(r"^Line \d+\s*:?\s*")
#: The msgid of a core's message that is "Line 3: " and a problem (``decklists.domain.decks``).
_LINE_PROBLEM = "Line %(line)s: %(problem)s"


def line_error_text(row: dict) -> str:
    """One error row as the pages and the paste box show it: "Line 3: «4 Lightnig Bolt» — unknown
    card 'Lightnig Bolt' (did you mean 'Lightning Bolt'?)." The message's own "Line 3" opening is
    not repeated; a row without a line (or stored before rows had ``line_text``) says what it can.
    """
    message = error_message(row)
    line = row.get("line")
    if line is None:
        return message
    data = row.get("i18n")
    if isinstance(data, dict) and data["msgid"] == _LINE_PROBLEM:
        rest = localize(from_data(data["values"]["problem"]))
    elif "i18n" in row and message != row.get("message"):
        rest = message  # translated: its own words say which line
    else:
        rest = _LINE_PREFIX.sub("", message, count=1)
    text = row.get("line_text")
    if text:
        return _("Line %(line)s: «%(text)s» — %(problem)s") % {"line": line, "text": text, "problem": rest}
    return _("Line %(line)s: %(problem)s") % {"line": line, "problem": rest}


def decklist_text_check(text: str, *, tournament: Tournament, player: Player, index: CardIndex) -> TextCheck:
    """Parse, resolve and check one player's list for the event's format; never raises.

    Team rules (UDC) are left to :func:`team_decklist_verdict`: they depend on the
    teammate's list, which may change after this one is stored.
    """
    label = player_label(player)
    parsed = parse_decklist(text)
    submission = resolve_decklist(parsed, index, player=label, format_id=tournament.format)
    lines: dict[str, int] = {}
    line_texts = {entry.line: clip(entry.line_text) for entry in parsed.entries}
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
        deck_errors = check_constructed_deck(deck, index, on=legality_date(tournament))
    errors = [error_row(e, lines=lines, line_texts=line_texts, players=(player,)) for e in deck_errors]
    return TextCheck(cards=cards, errors=errors, deck=deck)


def pool_text_check(text: str, *, index: CardIndex) -> TextCheck:
    """Parse and resolve a team's pool registration; never raises.

    The pool is a plain card list: section headers a pasted export may carry (``Deck``,
    ``Sideboard``) are ignored and copies summed per canonical name, and there is no copy
    limit to check (a Sealed pool may hold five of a common). Line errors come back like a
    decklist's, with suggestions for unknown names. The returned ``deck`` holds the pool in
    ``main`` (``None`` when a line did not resolve).
    """
    submission = resolve_decklist(parse_decklist(text), index, player="pool", format_id="")
    if submission.deck is None:
        return TextCheck(cards=[], errors=[error_row(e) for e in submission.errors], deck=None)
    deck = submission.deck
    counts = _sum(
        (count, name)
        for section in (deck.main, deck.sideboard, deck.commander, deck.companion)
        for name, count in section.items()
    )
    pool = Deck(player="pool", format="", main=counts)
    cards = [{"count": count, "name": name} for name, count in sorted(counts.items())]
    return TextCheck(cards=cards, errors=[], deck=pool)


def sideboard_rows(verdict: TeamVerdict) -> list[dict]:
    """The shared sideboard as ``[{count, name}]`` by name."""
    return [{"count": count, "name": name} for name, count in sorted(verdict.shared_sideboard.items())]


def missing_list_error(player: Player) -> dict:
    return {
        "code": "DECKLIST_MISSING",
        "card": None,
        "players": [player.pk],
        "message": _("%(name)s has not submitted a decklist.") % {"name": player.name},
    }


def unresolved_list_error(player: Player) -> dict:
    return {
        "code": "DECKLIST_INVALID",
        "card": None,
        "players": [player.pk],
        "message": _("%(name)s's list has lines that need fixing before the team can be checked.")
        % {"name": player.name},
    }


def _pool_row(code: str, message: str) -> dict:
    return {"code": code, "card": None, "players": [], "message": message}


def team_error_rows(verdict: TeamVerdict, lists: TeamLists) -> list[dict]:
    """The team verdict as ``{code, card, players, message}`` with Player ids, plus one row per
    player whose list is missing or does not resolve (their decks could not be checked) and,
    in a Limited event, one for a pool that is missing (POOL_MISSING) or has lines to fix
    (POOL_INVALID): the decks' pool checks mean nothing until it is registered."""
    rows: list[dict] = []
    if lists.limited and lists.pool is None:
        rows.append(_pool_row("POOL_MISSING", _("The team has not registered its pool.")))
    elif lists.limited and not _pool_usable(lists.pool):
        rows.append(
            _pool_row(
                "POOL_INVALID",
                _("The team's pool has lines that need fixing before the decks can be checked against it."),
            )
        )
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
                "message": named(localize(error.message), lists.players),
            }
        )
    return rows


_LABEL = re.compile(r"⟨(\d+)⟩")


def named(message: str, players: Iterable[Player]) -> str:
    """A domain message with each player label replaced by the player's name."""
    names = {str(p.pk): p.name for p in players}
    return _LABEL.sub(lambda m: names.get(m.group(1), m.group(0)), message)


def teams_without_lists(tournament_id: int) -> list[int]:
    """Ids of the event's active, complete teams with a player who has no registered list: a deck
    check cannot check them, and pairing a Competitive round with them is worth a warning."""
    active = list(
        Team.objects.filter(tournament_id=tournament_id, dropped_after_round__isnull=True, disqualified=False)
        .formed()
        .values_list("pk", flat=True)
    )
    return list(
        Player.objects.filter(team_id__in=active)
        .filter(Q(decklist__isnull=True) | Q(decklist__current__isnull=True))
        .values_list("team_id", flat=True)
        .distinct()
    )
