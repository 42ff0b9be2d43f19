"""Migration 0009 turns each stored result into the report rows that give it, and drops the saved
pre-penalty copy: after it, every match's result columns equal the recomputation from its rows."""

from __future__ import annotations

import pytest

from tests.migrations import migrate_to, migrate_to_latest
from tournaments.models import Match
from tournaments.selectors import match_result_state, result_columns

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("every_app_migrated_after")]

BEFORE = [("tournaments", "0008_team_name_unique_ignoring_case")]
AFTER = [("tournaments", "0009_result_reports")]


def test_stored_results_become_report_rows_that_give_them_back():
    apps = migrate_to(BEFORE)
    organizer = apps.get_model("auth", "User").objects.create(username="old-organizer")
    tournament = apps.get_model("tournaments", "Tournament").objects.create(
        name="Old event", seed=1, created_by=organizer
    )
    Team = apps.get_model("tournaments", "Team")
    teams = [Team.objects.create(tournament=tournament, name=f"Team {n}") for n in range(8)]
    round_row = apps.get_model("tournaments", "Round").objects.create(tournament=tournament, number=1, seed=1)
    OldMatch = apps.get_model("tournaments", "Match")

    def match(table, **values):
        return OldMatch.objects.create(
            round=round_row, table=table, team_a=teams[2 * table - 2], team_b=teams[2 * table - 1], **values
        ).pk

    staff = match(1, result_kind="played", team_a_wins=1, confirmed=True, version=2)
    players = match(2, result_kind="played", draws=3, confirmed=True, reported_side="B", version=3)
    waiting = match(3, result_kind="played", team_b_wins=1, reported_side="A", version=2)
    penalty = match(
        4,
        result_kind="penalty_loss",
        team_b_wins=1,
        confirmed=True,
        version=4,
        pre_penalty_result={
            "result_kind": "played",
            "team_a_wins": 1,
            "confirmed": True,
            "reported_side": "",
        },
    )

    migrate_to(AFTER)
    migrate_to_latest()

    sources = {  # read with today's models, so the schema is migrated to the latest first
        pk: list(Match.objects.get(pk=pk).reports.values_list("source", "side"))
        for pk in (staff, players, waiting, penalty)
    }
    assert sources == {
        staff: [("staff", "")],
        players: [("player", "A"), ("player", "B")],
        waiting: [("player", "A")],
        penalty: [("staff", ""), ("penalty", "A")],
    }
    for row in Match.objects.select_related("round__tournament"):
        assert result_columns(match_result_state(row)) == {
            field: getattr(row, field) for field in result_columns(match_result_state(row))
        }, row.table
