"""import_cards: Scryfall and MTGJSON files built from real snapshot records, counts, failures."""

from __future__ import annotations

import datetime
import gzip
import http.server
import json
import threading
from functools import partial
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from decklists.domain import BAN_HISTORY_PATH, SNAPSHOT_PATH, load_ban_history
from decklists.models import Card, CardData
from decklists.selectors import card_index
from decklists.services import decklist_submit

NAMES = ("Lightning Bolt", "Counterspell", "Fire // Ice", "Delver of Secrets // Insectile Aberration")


@pytest.fixture(scope="module")
def snapshot_records() -> dict[str, dict]:
    cards = json.loads(gzip.decompress(SNAPSHOT_PATH.read_bytes()))["cards"]
    return {record["name"]: record for record in cards if record["name"] in NAMES}


def scryfall_object(record: dict) -> dict:
    """A Scryfall oracle-card object carrying the snapshot record's data."""
    obj = {
        "object": "card",
        "name": record["name"],
        "layout": record["layout"],
        "oracle_id": record["oracle_id"],
        "type_line": record["type_line"],
        "legalities": dict(record["legalities"]),
    }
    if len(record["face_names"]) > 1:
        texts = record["oracle_text"].split("\n//\n")
        types = record["type_line"].split(" // ")
        obj["card_faces"] = [
            {"object": "card_face", "name": n, "type_line": t, "oracle_text": x}
            for n, t, x in zip(record["face_names"], types, texts, strict=True)
        ]
    else:
        obj["oracle_text"] = record["oracle_text"]
    return obj


def mtgjson_faces(record: dict) -> list[dict]:
    """MTGJSON AtomicCards faces for the record (MTGJSON omits not-legal formats)."""
    legal = {
        fmt: value.title().replace("_", " ")
        for fmt, value in record["legalities"].items()
        if value != "not_legal"
    }
    texts = record["oracle_text"].split("\n//\n")
    types = record["type_line"].split(" // ")
    faces = []
    for side, (face, type_line, text) in enumerate(zip(record["face_names"], types, texts, strict=True)):
        entry = {
            "name": record["name"],
            "type": type_line,
            "text": text,
            "layout": record["layout"],
            "legalities": legal,
            "identifiers": {"scryfallOracleId": record["oracle_id"]},
            "supertypes": [],
            "types": [],
        }
        if len(record["face_names"]) > 1:
            entry["faceName"] = face
            entry["side"] = "ab"[side]
        faces.append(entry)
    return faces


def run(path) -> str:
    out, err = StringIO(), StringIO()
    call_command("import_cards", str(path), stdout=out, stderr=err)
    return out.getvalue()


@pytest.fixture
def table_changed(db):
    """Lightning Bolt missing and Counterspell with a wrong legality, as a stale table would be."""
    Card.objects.filter(name="Lightning Bolt").delete()
    counterspell = Card.objects.get(name="Counterspell")
    counterspell.legalities = {**counterspell.legalities, "modern": "banned"}
    counterspell.save()


def test_scryfall_file_adds_and_changes_and_reports_counts(tmp_path, snapshot_records, table_changed):
    path = tmp_path / "oracle-cards.json"
    path.write_text(json.dumps([scryfall_object(r) for r in snapshot_records.values()]))
    before = Card.objects.count()

    output = run(path)

    assert output.strip() == "scryfall: 4 cards read; 1 added, 1 changed, 2 unchanged."
    assert Card.objects.count() == before + 1
    assert Card.objects.get(name="Counterspell").legalities["modern"] == "legal"
    fire_ice = Card.objects.get(name="Fire // Ice")
    assert (fire_ice.face_names, fire_ice.layout) == (["Fire", "Ice"], "split")


def test_mtgjson_gzip_file_adds_and_changes(tmp_path, snapshot_records, table_changed):
    path = tmp_path / "AtomicCards.json.gz"
    data = {
        "meta": {"date": "2026-07-10"},
        "data": {n: mtgjson_faces(r) for n, r in snapshot_records.items()},
    }
    path.write_bytes(gzip.compress(json.dumps(data).encode()))

    assert run(path).strip() == "mtgjson: 4 cards read; 1 added, 1 changed, 2 unchanged."
    assert CardData.objects.get().data_date == "2026-07-10"


def test_validation_uses_the_imported_table(tmp_path, snapshot_records, event):
    bolt = scryfall_object(snapshot_records["Lightning Bolt"])
    bolt["legalities"]["modern"] = "banned"
    path = tmp_path / "ban.json"
    path.write_text(json.dumps([bolt]))

    assert run(path).strip() == "scryfall: 1 cards read; 0 added, 1 changed, 0 unchanged."
    assert card_index().get("Lightning Bolt").legality("modern") == "banned"
    version = decklist_submit(
        tournament=event.tournament,
        actor=event.player_user,
        player=event.a,
        text="4 Lightning Bolt\n56 Mountain",
    )
    assert [(e["line"], e["code"]) for e in version.errors] == [(1, "BANNED")]
    assert card_index().get("Kavaero, Mind-Bitten") is not None, "MTGO aliases survive a Scryfall import"


def test_reimporting_the_shipped_snapshot_changes_nothing(db):
    revision = CardData.objects.get().revision
    assert run(SNAPSHOT_PATH).strip().endswith("0 added, 0 changed, 34591 unchanged.")
    assert CardData.objects.get().revision == revision


@pytest.mark.parametrize(
    "content, reason",
    [
        (lambda raw: raw[: len(raw) // 2], "not a readable JSON or gzip JSON file"),
        (lambda raw: gzip.decompress(raw)[:5000], "not a readable JSON or gzip JSON file"),
        (lambda raw: b'[{"object": "card", "name": "Lightning Bolt"}]', "missing field 'layout'"),
        (lambda raw: b'{"hello": "world"}', "neither a Scryfall"),
        (lambda raw: b"[]", "no cards"),
    ],
)
def test_bad_or_truncated_file_changes_nothing_and_says_why(tmp_path, db, content, reason):
    path = tmp_path / "cards.json.gz"
    path.write_bytes(content(SNAPSHOT_PATH.read_bytes()))
    state = CardData.objects.values().get()
    count = Card.objects.count()

    with pytest.raises(CommandError, match=reason) as excinfo:
        run(path)

    assert "nothing changed" in str(excinfo.value)
    assert (Card.objects.count(), CardData.objects.values().get()) == (count, state)


def test_missing_file_is_a_command_error(tmp_path, db):
    with pytest.raises(CommandError, match="cannot read"):
        run(tmp_path / "nope.json")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        """No request lines in the test output."""


def test_url_source_is_downloaded(tmp_path, snapshot_records, table_changed):
    (tmp_path / "oracle.json").write_text(json.dumps([scryfall_object(r) for r in snapshot_records.values()]))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietHandler, directory=str(tmp_path)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        output = run(f"http://127.0.0.1:{server.server_port}/oracle.json")
    finally:
        server.shutdown()
    assert output.strip() == "scryfall: 4 cards read; 1 added, 1 changed, 2 unchanged."


def test_a_snapshot_brings_its_ban_list_history_and_a_future_ban_applies_from_its_date(
    tmp_path, snapshot_records, event
):
    data = json.loads(gzip.decompress(SNAPSHOT_PATH.read_bytes()))
    history = {
        "changes": [{"format": "modern", "date": "2027-02-01", "card": "Lightning Bolt", "status": "banned"}]
    }
    snapshot = {
        "meta": {"formats": data["meta"]["formats"], "data_date": "2027-01-20", "ban_history": history},
        "cards": [c for c in data["cards"] if c["name"] in ("Lightning Bolt", "Mountain")],
    }
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(snapshot))

    run(path)

    assert CardData.objects.get().ban_history == history
    for day, codes in (("2027-01-31", []), ("2027-02-01", [(1, "BANNED")])):
        event.tournament.date = datetime.date.fromisoformat(day)
        event.tournament.save()
        version = decklist_submit(
            tournament=event.tournament,
            actor=event.player_user,
            player=event.a,
            text="4 Lightning Bolt\n56 Mountain",
        )
        assert [(e["line"], e["code"]) for e in version.errors] == codes, day


def test_the_shipped_history_is_loaded_by_the_migration(db):
    assert CardData.objects.get().ban_history == load_ban_history().to_json()
    assert len(card_index().ban_history) == 134


def test_a_ban_history_file_alone_replaces_the_history_and_the_shipped_cards_stay(tmp_path, event):
    """A ban announcement between card releases: `import_cards --ban-history FILE`."""
    history = json.loads(BAN_HISTORY_PATH.read_text(encoding="utf-8"))
    history["changes"].append(
        {"format": "modern", "date": "2027-03-02", "card": "Ragavan, Nimble Pilferer", "status": "banned"}
    )
    path = tmp_path / "bans.json"
    path.write_text(json.dumps(history))
    out = StringIO()

    call_command("import_cards", "--ban-history", str(path), stdout=out)
    call_command("import_cards", "--ban-history", str(path), stdout=out)

    assert out.getvalue().splitlines() == [
        "ban-list history: 135 changes; replaced.",
        "ban-list history: 135 changes; unchanged.",
    ]
    assert CardData.objects.get().snapshot_sha256, "the table still holds the shipped snapshot"
    for day, codes in (("2027-03-01", []), ("2027-03-02", [(1, "BANNED")])):
        event.tournament.date = datetime.date.fromisoformat(day)
        event.tournament.save()
        version = decklist_submit(
            tournament=event.tournament,
            actor=event.player_user,
            player=event.a,
            text="4 Ragavan, Nimble Pilferer\n56 Mountain",
        )
        assert [(e["line"], e["code"]) for e in version.errors] == codes, day


def test_a_bad_ban_history_file_changes_nothing_and_says_which_change(tmp_path, db):
    path = tmp_path / "bans.json"
    path.write_text(
        json.dumps(
            {"changes": [{"format": "modern", "date": "2026-02-30", "card": "Ponder", "status": "banned"}]}
        )
    )
    state = CardData.objects.values().get()

    with pytest.raises(CommandError, match=r"change 0 \(Ponder\): bad date '2026-02-30'; nothing changed"):
        call_command("import_cards", "--ban-history", str(path))
    with pytest.raises(CommandError, match="give a card file, --ban-history FILE, or both"):
        call_command("import_cards")

    assert CardData.objects.values().get() == state
