"""Playoff result slips name the team that chooses to play or draw (MTR 9.3, docs/rules.md#play-or-draw
Playoffs), the same team as the public page; Swiss slips have no such line."""

from __future__ import annotations

import pytest

from documents.models import DocumentJob
from documents.services import document_render
from documents.slips import result_slips
from tests.documents.conftest import pages_text, pdf_of
from tests.tournaments.factories import event_with_teams
from tournaments.models import Match, Round, Tournament
from tournaments.services.cut import cut_build
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair
from tournaments.standings import play_draw_choosers, standings_for

pytestmark = pytest.mark.django_db


def _report_a_wins(match: Match, actor) -> None:
    match.refresh_from_db()
    match_result_report(
        match=match, actor=actor, team_a_wins=1, team_b_wins=0, draws=0, version=match.version
    )


def _at_the_cut(policy: str) -> tuple[Tournament, Round, Round]:
    """Eight teams, three Swiss rounds, the Top 4: (event, last Swiss round, semifinals)."""
    tournament = event_with_teams(8, swiss_rounds=3, top_cut=4, playoff_play_draw=policy)
    organizer = tournament.created_by
    for _ in range(3):
        swiss = round_pair(tournament=tournament, actor=organizer)
        for match in swiss.matches.exclude(team_b=None):
            _report_a_wins(match, organizer)
    semifinals = cut_build(tournament=tournament, actor=organizer)
    tournament.refresh_from_db()
    return tournament, swiss, semifinals


def _slips_text(tournament: Tournament, round_obj: Round) -> str:
    job = DocumentJob.objects.create(kind="result_slips", tournament=tournament, round=round_obj, paper="A4")
    document_render(job_id=job.id)
    job.refresh_from_db()
    assert job.status == "done", job.error
    return " ".join(" ".join(pages_text(pdf_of(job))).split())


def test_higher_seed_slips_name_the_better_ranked_team():
    tournament, _, semifinals = _at_the_cut("higher_seed")
    rank = {line.team_id: line.rank for line in standings_for(tournament, through_round=3)}
    matches = list(semifinals.matches.select_related("team_a", "team_b").order_by("bracket_slot"))

    context = result_slips(tournament, semifinals, "A4")
    text = _slips_text(tournament, semifinals)

    slips = {slip["table"]: slip for page in context["pages"] for slip in page["slips"]}
    for match in matches:
        better = min((match.team_a, match.team_b), key=lambda team: rank[team.id])
        assert slips[match.table]["chooser"] == f"Chooses play or draw: {better.name}"
        assert f"Chooses play or draw: {better.name}" in text
    assert text.count("Chooses play or draw") == len(matches)


def test_random_slips_name_the_same_team_as_the_selector():
    tournament, _, semifinals = _at_the_cut("random")
    choosers = play_draw_choosers(semifinals)
    names = dict(tournament.teams.values_list("id", "name"))

    text = _slips_text(tournament, semifinals)

    assert text.count("Chooses play or draw") == len(choosers) == 2
    for team_id in choosers.values():
        assert f"Chooses play or draw: {names[team_id]}" in text


def test_swiss_slips_have_no_chooser_line():
    tournament, swiss, _ = _at_the_cut("higher_seed")

    context = result_slips(tournament, swiss, "A4")

    assert all("chooser" not in slip for page in context["pages"] for slip in page["slips"])
    assert "Chooses play or draw" not in _slips_text(tournament, swiss)


@pytest.mark.parametrize(
    ("team_size", "tracker"),
    [
        (1, "0 ☐ active player 1 ☐ other 2 ☐ active 3 ☐ other 4 ☐ active 5 ☐ other Slow Play"),
        (2, "0 ☐ active team 1 ☐ other 2 ☐ active 3 ☐ other Slow Play"),
    ],
)
def test_slip_turn_tracker_has_the_events_additional_turns(team_size, tracker):
    """MTR 2.4: five additional turns in a one-versus-one event, three in 2HG."""
    tournament = event_with_teams(4, team_size=team_size, swiss_rounds=2, top_cut=0)
    swiss = round_pair(tournament=tournament, actor=tournament.created_by)

    text = _slips_text(tournament, swiss)

    assert f"End of round, turn: {tracker}" in text
