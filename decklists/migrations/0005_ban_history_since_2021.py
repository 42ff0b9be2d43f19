"""Load the dated banned/restricted list history shipped in ``decklists/data/banlist-history.json``.

The card snapshot's own history held only the changes after its card data (2026-07-03), so every
earlier change took today's status on every date (Phlage banned in Modern before 2026-05-18,
Violent Outburst banned after its unban). The shipped file holds every change since 2021-06-01
and Pauper's whole list; it replaces the stored history, in its new shape.
"""

from django.db import migrations, models


def load_history(apps, schema_editor):
    from decklists.domain import load_ban_history

    CardData = apps.get_model("decklists", "CardData")
    state = CardData.objects.filter(pk=1).first()
    if state is None:
        return
    state.ban_history = load_ban_history().to_json()
    state.revision += 1
    state.save()


class Migration(migrations.Migration):
    dependencies = [
        ("decklists", "0004_card_data_ban_history"),
    ]

    operations = [
        migrations.AlterField(
            model_name="carddata",
            name="ban_history",
            field=models.JSONField(
                default=dict,
                help_text='Banned/restricted list changes with effective dates: {"changes": [{"format": '
                '"modern", "date": "2026-05-18", "card": "Phlage, Titan of Fire\'s Fury", "status": '
                '"banned"}]}; decklists are checked against the lists in force on the event\'s date.',
            ),
        ),
        migrations.RunPython(load_history, migrations.RunPython.noop),
    ]
