"""A day-2 round's printed standings list only the teams that advanced at the cut."""

from __future__ import annotations

import pytest

from documents import builders
from tests.documents.test_final_standings import play_swiss
from tests.tournaments.factories import event_with_teams
from tournaments.models import Tournament
from tournaments.standings import standings_for

pytestmark = pytest.mark.django_db


def test_day_two_standings_sheets_list_the_day_two_teams_and_day_one_sheets_everyone():
    tournament = event_with_teams(8, swiss_rounds=3, top_cut=0)
    Tournament.objects.filter(pk=tournament.pk).update(day_two={"after_round": 1, "min_match_points": 3})
    tournament.refresh_from_db()
    play_swiss(tournament, tournament.created_by)
    advanced = [line.team_name for line in standings_for(tournament) if not line.eliminated]
    assert len(advanced) == 4

    day_two = builders.standings(tournament, tournament.rounds.get(number=3), "A4")
    day_one = builders.standings(tournament, tournament.rounds.get(number=1), "A4")

    printed = [line for page in day_two["pages"] for line in page["team"].split("\n")]
    assert printed == advanced
    assert sum(len(page["team"].split("\n")) for page in day_one["pages"]) == 8
