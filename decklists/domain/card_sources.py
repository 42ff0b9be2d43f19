"""Readers that turn card dumps into :class:`Card` records, and the shipped snapshot loader.

Three inputs share one output type so the rest of the code never cares where card data
came from: the snapshot shipped in ``decklists/data/cards.json.gz`` (works offline on first
run), a Scryfall "oracle cards" bulk file and an MTGJSON ``AtomicCards`` file (used by the
``import_cards`` command to refresh the card table). The parsers take already-decoded
JSON, so they stay pure and testable; file reading lives only in :func:`load_snapshot`.

Malformed or truncated input raises :class:`CardSourceError` naming the source, the entry
and the field, because a half-imported card table would silently reject real decks.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from decklists.domain.banlists import BanListError, BanListHistory
from decklists.domain.cards import LEGALITY_BY_VALUE, Card, CardIndex, CopyLimit, Legality

SNAPSHOT_PATH = Path(__file__).resolve().parent.parent / "data" / "cards.json.gz"
BAN_HISTORY_PATH = SNAPSHOT_PATH.with_name("banlist-history.json")
"""The dated banned/restricted list changes shipped with the snapshot (``decklists/data/README.md``)."""

_SKIPPED_SCRYFALL_LAYOUTS = frozenset({"token", "double_faced_token", "emblem", "art_series"})
_ANY_NUMBER = re.compile(r"\bA deck can have any number of cards named\b", re.IGNORECASE)
_UP_TO = re.compile(r"\bA deck can have up to (\w+) cards named\b", re.IGNORECASE)
_NUMBER_WORDS = {
    word: value
    for value, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
}
_TYPE_SEPARATOR = re.compile(r"\s+[\u2014-]\s+")


KNOWN_FORMATS = ("commander", "legacy", "modern", "pauper", "pioneer", "premodern", "standard", "vintage")
"""Formats of the shipped snapshot; MTGJSON omits formats where a card is not legal."""


class CardSourceError(ValueError):
    """Card input is malformed or truncated; the message names what and where."""


def copies_limit_from_text(oracle_text: str, *, is_basic_land: bool = False) -> CopyLimit:
    """Derive the copy limit from the card's own words, not from a list that goes stale.

    ``"any"`` for "A deck can have any number of cards named …" and for basic lands,
    an int for "A deck can have up to seven cards named …", else ``None`` (rule of 4).
    """
    if is_basic_land or _ANY_NUMBER.search(oracle_text):
        return "any"
    match = _UP_TO.search(oracle_text)
    if match is None:
        return None
    word = match.group(1).lower()
    if word.isdigit():
        return int(word)
    if word in _NUMBER_WORDS:
        return _NUMBER_WORDS[word]
    raise CardSourceError(f"cannot read the copy limit {match.group(0)!r}")


def is_basic_land_type(type_line: str) -> bool:
    """True if the front face has the Basic supertype and the Land type."""
    front = type_line.split(" // ")[0]
    words = _TYPE_SEPARATOR.split(front, maxsplit=1)[0].split()
    return "Basic" in words and "Land" in words


def _require(entry: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in entry:
        raise CardSourceError(f"{where}: missing field {key!r}")
    value = entry[key]
    if not isinstance(value, kind):
        raise CardSourceError(f"{where}: field {key!r} should be {kind.__name__}, got {type(value).__name__}")
    return value


def _legalities(raw: Mapping[str, Any], where: str) -> dict[str, Legality]:
    result: dict[str, Legality] = {}
    for format_id, value in raw.items():
        if not isinstance(value, str):
            raise CardSourceError(f"{where}: legality of {format_id!r} is not a string")
        normalised = value.strip().lower().replace(" ", "_")
        legality = LEGALITY_BY_VALUE.get(normalised)
        if legality is None:
            raise CardSourceError(f"{where}: unknown legality {value!r} for {format_id!r}")
        result[format_id.lower()] = legality
    return result


def parse_scryfall_oracle_cards(data: Any) -> Iterator[Card]:
    """Cards from a decoded Scryfall "oracle cards" bulk file (a JSON list of card objects).

    Tokens, emblems and art cards are skipped: they are never in a deck.
    """
    if isinstance(data, dict) and data.get("object") == "list":
        data = data.get("data")
    if not isinstance(data, list):
        raise CardSourceError("Scryfall oracle cards: expected a JSON list of card objects")
    if not data:
        raise CardSourceError("Scryfall oracle cards: no cards (empty or truncated file?)")
    for i, entry in enumerate(data):
        where = f"Scryfall oracle cards: entry {i}"
        if not isinstance(entry, dict):
            raise CardSourceError(f"{where}: not a JSON object (truncated file?)")
        name = _require(entry, "name", str, where)
        where = f"{where} ({name!r})"
        if entry.get("object", "card") != "card":
            raise CardSourceError(f"{where}: object is {entry.get('object')!r}, expected 'card'")
        layout = _require(entry, "layout", str, where)
        if layout in _SKIPPED_SCRYFALL_LAYOUTS:
            continue
        faces = entry.get("card_faces") or []
        if not isinstance(faces, list) or not all(isinstance(f, dict) for f in faces):
            raise CardSourceError(f"{where}: card_faces should be a list of objects")
        face_names = tuple(_require(f, "name", str, f"{where} face") for f in faces) or (name,)
        if "type_line" in entry:
            type_line = _require(entry, "type_line", str, where)
        elif faces:
            type_line = " // ".join(_require(f, "type_line", str, f"{where} face") for f in faces)
        else:
            raise CardSourceError(f"{where}: missing field 'type_line'")
        if "oracle_text" in entry:
            text = _require(entry, "oracle_text", str, where)
        else:
            text = "\n//\n".join(str(f.get("oracle_text", "")) for f in faces)
        basic = is_basic_land_type(type_line)
        oracle_id = entry.get("oracle_id") or (faces[0].get("oracle_id") if faces else None)
        yield Card(
            name=name,
            face_names=face_names,
            layout=layout,
            type_line=type_line,
            is_basic_land=basic,
            copies_limit=copies_limit_from_text(text, is_basic_land=basic),
            legalities=_legalities(_require(entry, "legalities", dict, where), where),
            oracle_id=oracle_id if isinstance(oracle_id, str) else None,
            oracle_text=text,
            is_funny=bool(entry.get("set_type") == "funny"),
        )


def parse_mtgjson_atomic_cards(data: Any, *, formats: Iterable[str] = KNOWN_FORMATS) -> Iterator[Card]:
    """Cards from a decoded MTGJSON ``AtomicCards`` file (``{"meta", "data": {name: [faces]}}``).

    Faces of one card are grouped by Scryfall oracle id (un-set cards can share a name)
    and ordered by ``side``. MTGJSON leaves out formats where a card is not legal; those of
    ``formats`` are filled in as not legal so records look the same whatever the source.
    """
    absent = dict.fromkeys(formats, Legality.NOT_LEGAL)
    if not isinstance(data, dict) or not isinstance(data.get("data"), dict):
        raise CardSourceError("MTGJSON AtomicCards: expected an object with a 'data' object")
    if not data["data"]:
        raise CardSourceError("MTGJSON AtomicCards: no cards (empty or truncated file?)")
    for name, faces in data["data"].items():
        where = f"MTGJSON AtomicCards: card {name!r}"
        if not isinstance(faces, list) or not faces:
            raise CardSourceError(f"{where}: expected a non-empty list of faces (truncated file?)")
        groups: dict[str, list[dict[str, Any]]] = {}
        for face in faces:
            if not isinstance(face, dict):
                raise CardSourceError(f"{where}: a face is not a JSON object")
            identifiers = face.get("identifiers") or {}
            key = identifiers.get("scryfallOracleId") or ""
            groups.setdefault(key, []).append(face)
        for oracle_id, group in groups.items():
            group.sort(key=lambda f: str(f.get("side") or "a"))
            for face in group:
                _require(face, "type", str, where)
                _require(face, "layout", str, where)
            first = group[0]
            face_names = tuple(str(f.get("faceName") or name) for f in group)
            type_line = " // ".join(f["type"] for f in group)
            text = "\n//\n".join(str(f.get("text", "")) for f in group)
            basic = "Basic" in (first.get("supertypes") or []) and "Land" in (first.get("types") or [])
            basic = basic or is_basic_land_type(type_line)
            yield Card(
                name=name,
                face_names=face_names,
                layout=first["layout"],
                type_line=type_line,
                is_basic_land=basic,
                copies_limit=copies_limit_from_text(text, is_basic_land=basic),
                legalities=absent | _legalities(first.get("legalities") or {}, where),
                oracle_id=oracle_id or None,
                oracle_text=text,
                is_funny=bool(first.get("isFunny")),
            )


SNAPSHOT_LEGALITY_CORRECTIONS: Mapping[tuple[str, str], Legality] = {
    ("pauper", "Go for the Throat"): Legality.LEGAL,
    ("pauper", "Utrom Monitor"): Legality.LEGAL,
}
"""Derived legalities of the shipped snapshot that its sources get wrong.

Only 3,105 snapshot records carry MTGJSON's own legalities; the others are derived, and a card
is derived Pauper-legal only if one of its *known* printings is a common. The printing sources
miss commons sold outside boosters since 2021 (a caveat of the card data's sources), so cards whose
only common printing is in such a product come out ``not_legal``. Go for the Throat and Utrom
Monitor are two (Utrom Monitor is in three MTGO-verified Pauper Challenge decks of the shared
data). Scryfall and MTGJSON imports carry real legalities and are never corrected. Cards that
are on a banned list are fixed by the ban-list history instead (see :mod:`.banlists`).
"""

_SNAPSHOT_FIELDS = (
    "name",
    "face_names",
    "layout",
    "type_line",
    "is_basic_land",
    "copies_limit",
    "legalities",
)


def parse_snapshot(data: Any) -> tuple[list[Card], dict[str, Any]]:
    """Cards and ``meta`` from the project's snapshot format (``{"meta", "cards": [...]}``).

    Identical legality maps are shared between records: 34k cards have only a few
    hundred distinct maps, which keeps the in-process index small.
    """
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise CardSourceError("card snapshot: expected an object with a 'cards' list")
    meta = data.get("meta") or {}
    if not isinstance(meta, dict):
        raise CardSourceError("card snapshot: 'meta' should be an object")
    if not data["cards"]:
        raise CardSourceError("card snapshot: no cards (empty or truncated file?)")
    expected = meta.get("n_cards")
    if isinstance(expected, int) and expected != len(data["cards"]):
        raise CardSourceError(
            f"card snapshot: meta.n_cards is {expected} but {len(data['cards'])} cards are present (truncated?)"
        )
    shared: dict[tuple[tuple[str, str], ...], dict[str, Legality]] = {}
    cards: list[Card] = []
    for i, record in enumerate(data["cards"]):
        try:
            raw_legalities = record["legalities"]
            fixes = {
                fmt: legality.value
                for (fmt, name), legality in SNAPSHOT_LEGALITY_CORRECTIONS.items()
                if name == record["name"]
            }
            if fixes:
                raw_legalities = {**raw_legalities, **fixes}
            signature = tuple(sorted(raw_legalities.items()))
            legalities = shared.get(signature)
            if legalities is None:
                legalities = shared[signature] = _legalities(raw_legalities, f"card snapshot: card {i}")
            limit = record["copies_limit"]
            if not (limit is None or limit == "any" or (isinstance(limit, int) and limit > 0)):
                raise CardSourceError(f"card snapshot: card {i}: bad copies_limit {limit!r}")
            cards.append(
                Card(
                    name=record["name"],
                    face_names=tuple(record["face_names"]),
                    layout=record["layout"],
                    type_line=record["type_line"],
                    is_basic_land=bool(record["is_basic_land"]),
                    copies_limit=limit,
                    legalities=legalities,
                    oracle_id=record.get("oracle_id"),
                    oracle_text=record.get("oracle_text") or "",
                    is_funny=bool(record.get("is_funny")),
                )
            )
        except (KeyError, TypeError, AttributeError) as exc:
            missing = [f for f in _SNAPSHOT_FIELDS if not isinstance(record, dict) or f not in record]
            detail = f"missing {', '.join(missing)}" if missing else f"malformed ({exc})"
            raise CardSourceError(f"card snapshot: card {i}: {detail}") from exc
    return cards, meta


def load_snapshot(path: Path | str = SNAPSHOT_PATH) -> CardIndex:
    """Read a gzip snapshot file and build a :class:`CardIndex` (uncached), with the snapshot's
    own ban-list history or else the shipped one."""
    try:
        data = json.loads(gzip.decompress(Path(path).read_bytes()))
    except (OSError, EOFError, ValueError) as exc:
        raise CardSourceError(f"card snapshot {path}: cannot read ({exc})") from exc
    cards, meta = parse_snapshot(data)
    aliases = meta.get("name_aliases") or {}
    return CardIndex(
        cards,
        aliases=aliases,
        formats=meta.get("formats") or (),
        data_date=str(meta.get("data_date", "")),
        ban_history=snapshot_ban_history(meta) or load_ban_history(),
    )


def snapshot_ban_history(meta: Mapping[str, Any]) -> BanListHistory | None:
    """A snapshot's own ban-list history (``meta.ban_history``), ``None`` if it carries none
    (the shipped snapshot: its history is :data:`BAN_HISTORY_PATH`). A malformed history
    raises :class:`CardSourceError`."""
    if "ban_history" not in meta:
        return None
    try:
        return BanListHistory.from_json(meta["ban_history"])
    except BanListError as exc:
        raise CardSourceError(f"card snapshot: {exc}") from exc


def load_ban_history(path: Path | str = BAN_HISTORY_PATH) -> BanListHistory:
    """Read a ban-list history file (the shipped one by default); raises :class:`CardSourceError`
    naming the file and the change at fault."""
    try:
        raw = json.loads(Path(path).read_bytes())
    except (OSError, ValueError) as exc:
        raise CardSourceError(f"ban-list history {path}: cannot read ({exc})") from exc
    try:
        return BanListHistory.from_json(raw)
    except BanListError as exc:
        raise CardSourceError(f"{path}: {exc}") from exc


@lru_cache(maxsize=4)
def load_card_index(path: str | None = None) -> CardIndex:
    """The in-process cached index of the shipped snapshot (or of ``path``).

    Loading 34k cards takes a fraction of a second; caching it keeps validation of a
    whole event's lists far below that. Call ``load_card_index.cache_clear()`` after an
    import to pick up new data.
    """
    return load_snapshot(path or SNAPSHOT_PATH)
