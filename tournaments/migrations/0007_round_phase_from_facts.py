"""A round's phase is derived from timestamps: ``status`` goes, ``finished_at`` (every result in) comes.

Rounds whose status said 'finished' get the time of their latest reported result (or their creation)
as ``finished_at``; 'paired' and 'published' were already told apart by ``published_at``.
"""

from django.db import migrations, models
from django.db.models import Max


def status_to_finished_at(apps, schema_editor):
    Round = apps.get_model("tournaments", "Round")
    for row in Round.objects.filter(status="finished").annotate(last_report=Max("matches__reported_at")):
        row.finished_at = row.last_report or row.created_at
        row.save(update_fields=["finished_at"])


def finished_at_to_status(apps, schema_editor):
    Round = apps.get_model("tournaments", "Round")
    Round.objects.filter(finished_at__isnull=False).update(status="finished")
    Round.objects.filter(finished_at__isnull=True, published_at__isnull=False).update(status="published")


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0006_booster_draft_pods"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="finished_at",
            field=models.DateTimeField(
                blank=True, help_text="When the last result came in; empty while any is missing.", null=True
            ),
        ),
        migrations.RunPython(status_to_finished_at, finished_at_to_status),
        migrations.RemoveField(
            model_name="round",
            name="status",
        ),
    ]
