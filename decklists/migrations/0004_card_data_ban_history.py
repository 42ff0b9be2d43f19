"""Keep the banned/restricted list history with its dates (0005 fills it from the shipped file).

A table loaded from the shipped snapshot before this migration also gets the snapshot's two
derived-legality corrections (``SNAPSHOT_LEGALITY_CORRECTIONS``); a table refreshed from
Scryfall or MTGJSON keeps its rows (those sources carry real legalities).
"""

from django.db import migrations, models


def fill_ban_history(apps, schema_editor):
    from decklists.domain import SNAPSHOT_LEGALITY_CORRECTIONS

    Card = apps.get_model("decklists", "Card")
    CardData = apps.get_model("decklists", "CardData")
    state = CardData.objects.filter(pk=1).first()
    if state is None:
        return
    if state.source.startswith(("shipped snapshot", "snapshot:")):
        for (format_id, name), legality in SNAPSHOT_LEGALITY_CORRECTIONS.items():
            card = Card.objects.filter(name=name).first()
            if card is not None and card.legalities.get(format_id) != legality.value:
                card.legalities = {**card.legalities, format_id: legality.value}
                card.save(update_fields=["legalities"])
    state.revision += 1
    state.save()


class Migration(migrations.Migration):
    dependencies = [
        ("decklists", "0003_team_pool"),
    ]

    operations = [
        migrations.AddField(
            model_name="carddata",
            name="ban_history",
            field=models.JSONField(
                default=dict,
                help_text='Banned/restricted list changes with effective dates: {"pauper": [["2026-09-02", '
                '{"Narcomoeba": "banned"}]]}; decklists are checked against the lists in force on the '
                "event's date.",
            ),
        ),
        migrations.RunPython(fill_ban_history, migrations.RunPython.noop),
    ]
