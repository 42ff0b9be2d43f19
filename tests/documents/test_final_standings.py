"""Final standings after the playoff: the playoff decides places 1-4 (here a Top 4), everyone
else follows in Swiss order; printed by themselves when the final's result is confirmed."""

from __future__ import annotations

import pytest

from common.errors import DomainError
from documents import builders
from documents.enums import DocumentKind
from documents.models import DocumentJob
from documents.services import document_render, document_request
from tests.documents.conftest import pages_text, pdf_of
from tests.tournaments.factories import event_with_teams
from tournaments.models import Match, Tournament
from tournaments.services.cut import cut_build
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair
from tournaments.standings import standings_for

pytestmark = pytest.mark.django_db


def report(match: Match, actor, *, a_wins: bool) -> None:
    match.refresh_from_db()
    match_result_report(
        match=match,
        actor=actor,
        team_a_wins=1 if a_wins else 0,
        team_b_wins=0 if a_wins else 1,
        draws=0,
        version=match.version,
    )


def play_swiss(tournament: Tournament, actor) -> None:
    while True:
        round_obj = round_pair(tournament=tournament, actor=actor)
        for match in round_obj.matches.exclude(team_b=None):
            report(match, actor, a_wins=True)
        tournament.refresh_from_db()
        if round_obj.number == tournament.swiss_rounds:
            return


def test_the_final_prints_final_standings_with_playoff_places_then_swiss_order():
    tournament = event_with_teams(6, swiss_rounds=2, top_cut=4)
    organizer = tournament.created_by
    play_swiss(tournament, organizer)
    swiss = [line.team_id for line in standings_for(tournament)]
    seed = dict(enumerate(swiss, start=1))
    semifinals = cut_build(tournament=tournament, actor=organizer)
    slot_1, slot_2 = semifinals.matches.order_by("bracket_slot")
    assert (slot_1.team_a_id, slot_1.team_b_id, slot_2.team_a_id, slot_2.team_b_id) == (
        seed[1],
        seed[4],
        seed[2],
        seed[3],
    )
    report(slot_1, organizer, a_wins=False)  # seed 4 beats seed 1
    report(slot_2, organizer, a_wins=True)  # seed 2 beats seed 3
    with pytest.raises(DomainError, match="final standings once the final is finished"):
        document_request(
            tournament=tournament, actor=organizer, kind="standings", round_number=semifinals.number
        )
    final = round_pair(tournament=tournament, actor=organizer)
    assert not DocumentJob.objects.filter(round=final, kind=DocumentKind.STANDINGS).exists()

    (final_match,) = final.matches.all()
    report(final_match, organizer, a_wins=final_match.team_a_id == seed[2])  # seed 2 wins the event

    tournament.refresh_from_db()
    assert tournament.status == "finished"
    job = DocumentJob.objects.get(round=final, kind=DocumentKind.STANDINGS)
    assert job.requested_by is None
    context = builders.standings(tournament, final, "A4")
    places = [int(rank) for rank in context["pages"][0]["rank"].splitlines()]
    teams = context["pages"][0]["team"].splitlines()
    names = {line.team_id: line.team_name for line in standings_for(tournament)}
    assert places == [1, 2, 3, 4, 5, 6]
    assert teams == [names[seed[n]] for n in (2, 4, 1, 3, 5, 6)]
    assert context["final"] is True

    rendered = document_render(job_id=job.id)
    text = "\n".join(pages_text(pdf_of(rendered)))
    assert rendered.status == "done"
    assert "Final standings: playoff places, then Swiss order" in text
    assert text.index(names[seed[2]]) < text.index(names[seed[4]]) < text.index(names[seed[1]])
    requested = document_request(tournament=tournament, actor=organizer, kind="standings")
    assert requested.round_id == final.id


def test_standings_after_the_last_swiss_round_are_headed_final_once_every_result_is_in():
    """The heading reads the round's derived phase (every result in), not a stored status."""
    tournament = event_with_teams(6, swiss_rounds=2, top_cut=0)
    organizer = tournament.created_by
    play_swiss(tournament, organizer)
    last = tournament.rounds.get(number=2)

    assert builders.standings(tournament, last, "A4")["heading"] == "Final standings after round 2"


def test_the_final_standings_subtitle_fits_the_page_with_a_long_event_name_and_venue(tmp_path):
    """Issue 19: the subtitle ran off the page ("…(Swiss record, po"); the event name and venue
    now give way and the heading stays whole, on one line inside the margins."""
    import datetime

    from documents.textfit import fits

    tournament = event_with_teams(
        6,
        swiss_rounds=2,
        top_cut=4,
        name="Grand Prix Trial Two-Headed Giant Championship of the Northern Provinces",
        venue="Convention Centre Hall B, Upper Floor, Room 12",
        date=datetime.date(2026, 11, 21),
    )
    organizer = tournament.created_by
    play_swiss(tournament, organizer)
    semifinals = cut_build(tournament=tournament, actor=organizer)
    for match in semifinals.matches.all():
        report(match, organizer, a_wins=True)
    final = round_pair(tournament=tournament, actor=organizer)
    report(final.matches.get(), organizer, a_wins=True)

    for paper, width in (("A4", 194), ("letter", 199.9)):
        line = builders.standings(tournament, final, paper)["event_line"]
        assert line.endswith(" · Final standings: playoff places, then Swiss order")
        assert "2026-11-21" in line
        assert fits(line, width, 9)
        assert not fits(
            f"{tournament.name} · 2026-11-21 · {tournament.venue} · Final standings: playoff places, "
            "then Swiss order (Swiss record, points and tiebreakers)",
            width,
            9,
        )
