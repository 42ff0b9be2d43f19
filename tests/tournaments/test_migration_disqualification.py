"""Migration 0018 gives each team already disqualified its Disqualification record, with the drop
it had before the DQ read from its latest ``team_disqualify`` audit entry (where reinstating used
to read it), so reinstating a team disqualified before the upgrade still gives its drop back."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tournaments.models import Disqualification

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournaments", "0017_day_two_cut")]
AFTER = [("tournaments", "0018_disqualification_record")]


@pytest.fixture(autouse=True)
def every_app_migrated_after():
    """Going back unapplies the other apps' migrations that depend on the later ones (event_io's
    mirrors, the penalties' messages): the next test in this process needs their tables again."""
    yield
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_teams_already_disqualified_get_their_record_from_the_audit():
    apps = _migrate(BEFORE)
    organizer = apps.get_model("auth", "User").objects.create(username="old-organizer")
    tournament = apps.get_model("tournaments", "Tournament").objects.create(
        name="Old event", seed=1, created_by=organizer
    )
    Team = apps.get_model("tournaments", "Team")
    AuditEntry = apps.get_model("tournaments", "AuditEntry")
    had_dropped = Team.objects.create(
        tournament=tournament, name="Left, then DQ", dropped_after_round=2, disqualified=True
    )
    was_playing = Team.objects.create(
        tournament=tournament, name="DQ while playing", dropped_after_round=3, disqualified=True
    )
    Team.objects.create(tournament=tournament, name="Still playing")
    for team, before in ((had_dropped, 1), (was_playing, None)):
        AuditEntry.objects.create(
            tournament=tournament,
            action="team_disqualify",
            object_type="team",
            object_id=str(team.pk),
            before={"dropped_after_round": before, "disqualified": False},
        )

    _migrate(AFTER)
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    records = {
        record.team_id: (record.dropped_after_round_before, record.drop_reason_before)
        for record in Disqualification.objects.all()
    }
    assert records == {had_dropped.pk: (1, ""), was_playing.pk: (None, "")}
