"""Result reports as rows: each match's result so far becomes the report rows that give it, and the
saved pre-penalty copy goes (a cleared penalty now restores by recomputing from the reports)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.utils import timezone

MIGRATED = "recorded before result reports were kept"


def _played_rows(snapshot, when):
    """The report rows that give a stored played result (none for any other kind)."""
    if snapshot.get("result_kind") != "played":
        return []
    counts = {key: snapshot.get(key, 0) for key in ("team_a_wins", "team_b_wins", "draws")}
    author = snapshot.get("reported_by")
    side = snapshot.get("reported_side") or ""
    if not side:
        return [dict(source="staff", side="", author_id=author, reason=MIGRATED, created_at=when, **counts)]
    rows = []
    if snapshot.get("confirmed"):
        other = "B" if side == "A" else "A"
        rows.append(dict(source="player", side=other, author_id=None, reason=MIGRATED, created_at=when, **counts))
    reason = MIGRATED
    if snapshot.get("disputed"):
        reason = MIGRATED + "; it was disputed, and the other team's report was not kept"
    rows.append(dict(source="player", side=side, author_id=author, reason=reason, created_at=when, **counts))
    return rows


def reports_from_results(apps, schema_editor):
    Match = apps.get_model("tournaments", "Match")
    ResultReport = apps.get_model("tournaments", "ResultReport")
    reports = []
    matches = Match.objects.filter(team_b__isnull=False).exclude(result_kind="pending")
    for match in matches.iterator():
        when = match.reported_at
        if when is None:  # the rows' time is the result's time: the cache keeps what they give
            when = timezone.now()
            Match.objects.filter(pk=match.pk).update(reported_at=when)
        current = {
            "result_kind": match.result_kind,
            "team_a_wins": match.team_a_wins,
            "team_b_wins": match.team_b_wins,
            "draws": match.draws,
            "confirmed": match.confirmed,
            "disputed": match.disputed,
            "reported_side": match.reported_side,
            "reported_by": match.reported_by_id,
        }
        if match.result_kind in ("penalty_loss", "double_loss"):
            rows = _played_rows(match.pre_penalty_result or {}, when)
            side = ""
            if match.result_kind == "penalty_loss":
                side = "A" if match.team_a_wins < match.team_b_wins else "B"
            rows.append(
                dict(source="penalty", side=side, author_id=match.reported_by_id, reason=MIGRATED, created_at=when)
            )
        else:
            rows = _played_rows(current, when)
        reports += [ResultReport(match_id=match.pk, match_version=match.version - 1, **row) for row in rows]
    ResultReport.objects.bulk_create(reports)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0008_team_name_unique_ignoring_case'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ResultReport',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('source', models.CharField(choices=[('player', 'Player of the match'), ('slip', 'Holder of the result slip'), ('staff', 'Scorekeeping staff'), ('penalty', 'Match Loss by penalty'), ('penalty_cleared', 'Penalty result cleared')], max_length=20)),
                ('side', models.CharField(blank=True, choices=[('A', 'Team A'), ('B', 'Team B')], help_text='The reporting team (player, slip); the losing team (penalty, empty: both).', max_length=1)),
                ('team_a_wins', models.PositiveSmallIntegerField(default=0)),
                ('team_b_wins', models.PositiveSmallIntegerField(default=0)),
                ('draws', models.PositiveSmallIntegerField(default=0)),
                ('match_version', models.PositiveIntegerField(help_text="The match's version the entry was made on.")),
                ('reason', models.TextField(blank=True)),
                ('created_at', models.DateTimeField()),
                ('author', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='reports', to='tournaments.match')),
            ],
            options={
                'ordering': ['match_id', 'id'],
            },
        ),
        migrations.RunPython(reports_from_results, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name='match',
            name='pre_penalty_result',
        ),
    ]
