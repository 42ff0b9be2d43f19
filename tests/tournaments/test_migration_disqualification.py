"""Migration 0018 gives each team already disqualified its Disqualification record, with the drop
it had before the DQ read from its latest ``team_disqualify`` audit entry (where reinstating used
to read it), so reinstating a team disqualified before the upgrade still gives its drop back."""

from __future__ import annotations

import pytest

from tests.migrations import migrate_to, migrate_to_latest
from tournaments.models import Disqualification

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("every_app_migrated_after")]

BEFORE = [("tournaments", "0017_day_two_cut")]
AFTER = [("tournaments", "0018_disqualification_record")]


def test_teams_already_disqualified_get_their_record_from_the_audit():
    apps = migrate_to(BEFORE)
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

    migrate_to(AFTER)
    migrate_to_latest()

    records = {
        record.team_id: (record.dropped_after_round_before, record.drop_reason_before)
        for record in Disqualification.objects.all()
    }
    assert records == {had_dropped.pk: (1, ""), was_playing.pk: (None, "")}
