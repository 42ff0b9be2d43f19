"""Load the shipped card snapshot into the card table, so a fresh install works offline.

Rows go in through one ``executemany`` per 2,000 cards rather than ``bulk_create``: building
34k model instances and preparing their JSON fields one by one took most of the time
(about 5 s of 7 on SQLite); plain tuples take under 2 s. The rules text is included so the
table is complete. ``CardData`` records the snapshot's hash: while it matches the shipped
file, validation uses the snapshot's cached index instead of rebuilding one from the rows.
"""

import gzip
import json

from django.db import migrations

BATCH = 2000


def load_snapshot(apps, schema_editor):
    from decklists.card_table import card_fields, file_sha256, one_per_name
    from decklists.domain import SNAPSHOT_PATH, parse_snapshot

    Card = apps.get_model("decklists", "Card")
    CardData = apps.get_model("decklists", "CardData")
    raw = SNAPSHOT_PATH.read_bytes()
    cards, meta = parse_snapshot(json.loads(gzip.decompress(raw)))
    columns = ["name", *card_fields(cards[0])]
    json_columns = {"face_names", "legalities"}
    rows = [
        (name, *(json.dumps(v) if k in json_columns else v for k, v in card_fields(card).items()))
        for name, card in one_per_name(cards).items()
    ]
    quote = schema_editor.connection.ops.quote_name
    sql = "INSERT INTO {} ({}) VALUES ({})".format(
        quote(Card._meta.db_table), ", ".join(quote(c) for c in columns), ", ".join(["%s"] * len(columns))
    )
    with schema_editor.connection.cursor() as cursor:
        for start in range(0, len(rows), BATCH):
            cursor.executemany(sql, rows[start : start + BATCH])
    CardData.objects.update_or_create(
        pk=1,
        defaults={
            "revision": 1,
            "source": f"shipped snapshot {SNAPSHOT_PATH.name}",
            "snapshot_sha256": file_sha256(raw),
            "data_date": str(meta.get("data_date", ""))[:100],
            "formats": list(meta.get("formats") or []),
            "aliases": dict(meta.get("name_aliases") or {}),
        },
    )


def unload(apps, schema_editor):
    apps.get_model("decklists", "Card").objects.all().delete()
    apps.get_model("decklists", "CardData").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("decklists", "0001_initial")]

    operations = [migrations.RunPython(load_snapshot, unload)]
