"""Refresh the card table from a Scryfall or MTGJSON dump (or the project's own snapshot)."""

from __future__ import annotations

import gzip
import json
import sys
import urllib.request
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from decklists.card_table import file_sha256, shipped_snapshot_sha256
from decklists.domain import (
    CardSourceError,
    load_ban_history,
    parse_mtgjson_atomic_cards,
    parse_scryfall_oracle_cards,
    parse_snapshot,
    snapshot_ban_history,
)
from decklists.services import ban_history_replace, cards_import

DOWNLOAD_TIMEOUT_SECONDS = 120
_CHUNK = 1 << 20


class Command(BaseCommand):
    help = (
        "Refresh the card table from a Scryfall 'oracle cards' bulk file, an MTGJSON AtomicCards file "
        "or the project's snapshot format, given as a path or an http(s) URL (.json or .json.gz; the "
        "kind is detected from the content). Run it when new sets or ban announcements come out. "
        "--ban-history FILE replaces the banned/restricted list history (changes with their effective "
        "dates, announced future ones included; the shape of decklists/data/banlist-history.json), with "
        "or without a card file; a snapshot carrying its own meta.ban_history replaces it too. "
        "Decklists are checked against the lists in force on the event's date. "
        "Everything is read and checked before one transaction writes it: a bad or truncated file "
        "changes nothing. Cards absent from the file are kept."
    )

    def add_arguments(self, parser):
        parser.add_argument("source", nargs="?", help="Path or http(s) URL of the .json or .json.gz file.")
        parser.add_argument(
            "--ban-history",
            metavar="FILE",
            help="A banned/restricted list history file (the shape of decklists/data/banlist-history.json).",
        )

    def handle(self, *args, source: str | None, ban_history: str | None, **options):
        if source is None and ban_history is None:
            raise CommandError("give a card file, --ban-history FILE, or both")
        history = None
        if ban_history is not None:
            try:
                history = load_ban_history(ban_history)
            except CardSourceError as exc:
                raise CommandError(f"{exc}; nothing changed") from exc
        if source is None:
            changed = ban_history_replace(history)
            self.stdout.write(
                self.style.SUCCESS(
                    f"ban-list history: {len(history)} changes; " + ("replaced." if changed else "unchanged.")
                )
            )
            return
        raw = self._read(source)
        try:
            data = json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
        except (OSError, EOFError, UnicodeDecodeError, ValueError) as exc:
            raise CommandError(
                f"{source}: not a readable JSON or gzip JSON file ({exc}); nothing changed"
            ) from exc
        kind, records, extra = self._parse(data, source)
        sha = file_sha256(raw)
        report = cards_import(
            records=records,
            source=f"{kind}: {source}",
            data_date=extra.get("data_date", ""),
            aliases=extra.get("aliases"),
            ban_history=history if history is not None else extra.get("ban_history"),
            snapshot_sha256=sha if kind == "snapshot" and sha == shipped_snapshot_sha256() else "",
            progress=self._progress("writing"),
        )
        self.stderr.write("")
        self.stdout.write(
            self.style.SUCCESS(
                f"{kind}: {report.total} cards read; {report.added} added, {report.changed} changed, "
                f"{report.unchanged} unchanged."
            )
        )

    def _read(self, source: str) -> bytes:
        """The file's bytes, downloaded (with a byte-count progress line) if a URL."""
        if source.startswith(("http://", "https://")):
            try:
                with urllib.request.urlopen(source, timeout=DOWNLOAD_TIMEOUT_SECONDS) as response:
                    size = int(response.headers.get("Content-Length") or 0)
                    show = self._progress("downloading", unit="MB", scale=1 / 1e6)
                    chunks: list[bytes] = []
                    while chunk := response.read(_CHUNK):
                        chunks.append(chunk)
                        show(sum(map(len, chunks)), size)
                    self.stderr.write("")
                    return b"".join(chunks)
            except (OSError, ValueError) as exc:
                raise CommandError(f"{source}: download failed ({exc}); nothing changed") from exc
        if source.startswith(("file:", "ftp:")) or "://" in source:
            raise CommandError(f"{source}: give a local path or an http(s) URL")
        try:
            return Path(source).read_bytes()
        except OSError as exc:
            raise CommandError(f"{source}: cannot read ({exc.strerror or exc}); nothing changed") from exc

    def _parse(self, data: Any, source: str) -> tuple[str, list, dict]:
        """Detect the dump's kind and parse all of it before anything is written."""
        try:
            if isinstance(data, dict) and isinstance(data.get("cards"), list):
                cards, meta = parse_snapshot(data)
                extra = {
                    "data_date": str(meta.get("data_date", "")),
                    "aliases": dict(meta.get("name_aliases") or {}),
                    "ban_history": snapshot_ban_history(meta),
                }
                return "snapshot", cards, extra
            if isinstance(data, list) or (isinstance(data, dict) and data.get("object") == "list"):
                return "scryfall", list(parse_scryfall_oracle_cards(data)), {}
            if isinstance(data, dict) and "data" in data:
                meta = data.get("meta") if isinstance(data.get("meta"), dict) else {}
                extra = {"data_date": str(meta.get("date", ""))}
                return "mtgjson", list(parse_mtgjson_atomic_cards(data)), extra
        except CardSourceError as exc:
            raise CommandError(f"{source}: {exc}; nothing changed") from exc
        raise CommandError(
            f"{source}: neither a Scryfall oracle-cards list, an MTGJSON AtomicCards object nor a card "
            "snapshot; nothing changed"
        )

    def _progress(self, label: str, *, unit: str = "cards", scale: float = 1.0):
        """A one-line text progress bar on stderr, redrawn in place."""

        def show(done: int, total: int) -> None:
            if total:
                filled = int(30 * done / total)
                bar = "#" * filled + "-" * (30 - filled)
                line = f"\r{label} [{bar}] {done * scale:,.0f}/{total * scale:,.0f} {unit}"
            else:
                line = f"\r{label} {done * scale:,.0f} {unit}"
            self.stderr.write(line, ending="")
            if hasattr(sys.stderr, "flush"):
                self.stderr.flush()

        return show
