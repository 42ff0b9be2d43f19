"""The decklist sheets carry each player's registered list (real MTGO lists), and the penalty report
carries deviations and appeals, as judges file them for the judge program."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest

from decklists.models import DecklistVersion
from decklists.services import decklist_submit
from documents import builders
from documents.services import document_render, document_request
from penalties.reviews import penalty_overturn
from penalties.services import penalty_issue
from tests.documents.conftest import build_event, pages_text, pdf_of
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "decklists"


def real_main_deck(name: str) -> list[tuple[int, str]]:
    """A real July 2026 MTGO list's main deck, counts summed per card as the data README says."""
    totals: dict[str, int] = {}
    for count, card in json.loads((FIXTURES / name).read_text())["main"]:
        totals[card] = totals.get(card, 0) + count
    return sorted(totals.items(), key=lambda item: item[0])


def mtgo_text(deck: list[tuple[str, int]]) -> str:
    return "\n".join(f"{count} {card}" for card, count in deck)


def render(tournament: Tournament, actor, kind: str) -> str:
    job = document_request(tournament=tournament, actor=actor, kind=kind)
    document_render(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == "done", job.error
    return "\n".join(pages_text(pdf_of(job)))


def test_decklist_sheets_list_every_registered_card_per_player():
    event = build_event(team_count=2)
    first_team = event.tournament.teams.order_by("name").first()
    seat_a, seat_b = first_team.players.order_by("position")
    decks = {seat_a: real_main_deck("modern_000.json"), seat_b: real_main_deck("modern_001.json")}
    for player, deck in decks.items():
        decklist_submit(
            tournament=event.tournament,
            actor=event.organizer,
            player=player,
            text=mtgo_text(deck),
            reason="Paper list typed in by the judge team",
        )

    text = render(event.tournament, event.organizer, "decklists")

    assert f"Decklist registration · {first_team.name}" in text
    for player, deck in decks.items():
        assert player.name in text
        assert player.wizards_id in text
        assert f"{player.name} · {sum(count for _, count in deck)} cards" in text
        for card, _count in deck[:8]:
            assert card.split(" // ")[0] in text, card
    other_team = event.tournament.teams.exclude(pk=first_team.pk).get()
    assert f"Decklist registration · {other_team.name}" in text
    assert text.count("No list registered.") == 2


def test_penalty_report_shows_deviations_and_appeals():
    event = build_event(team_count=2)
    Tournament.objects.filter(pk=event.tournament.pk).update(rel="competitive")
    event.tournament.refresh_from_db()
    slow, deviated = Player.objects.filter(tournament=event.tournament).order_by("team__name", "position")[:2]
    kept = penalty_issue(
        tournament=event.tournament,
        actor=event.organizer,
        player=slow,
        round_row=event.round,
        infraction="TE-SP",
        description="Took over a minute for each attack declaration",
    )
    appealed = penalty_issue(
        tournament=event.tournament,
        actor=event.organizer,
        player=deviated,
        round_row=event.round,
        infraction="GPE-GRV",
        description="Cast a sorcery during combat",
        penalty="no_penalty",
        deviation_reason="Opponent's misleading announcement caused it",
    )
    penalty_overturn(penalty=appealed, actor=event.organizer, reason="Appeal upheld: no violation happened")

    text = render(event.tournament, event.organizer, "penalties")

    assert "Penalty report · 2 penalties" in text
    assert "Took over a minute for each attack declaration" in text
    assert "Deviation by the head judge: Opponent's misleading announcement caused it" in text
    assert "Appeal: overturned" in text and "Appeal upheld: no violation happened" in text
    assert kept.player.wizards_id in text and deviated.wizards_id in text
    assert text.index("Took over a minute") < text.index("Cast a sorcery during combat")


def test_penalty_and_decklist_times_print_readably_in_the_event_time_zone(settings):
    settings.TIME_ZONE = "Europe/Berlin"
    event = build_event(team_count=2)
    player = Player.objects.filter(tournament=event.tournament).order_by("team__name", "position").first()
    penalty = penalty_issue(
        tournament=event.tournament,
        actor=event.organizer,
        player=player,
        round_row=event.round,
        infraction="TE-SP",
        description="Slow attacks",
    )
    decklist_submit(
        tournament=event.tournament,
        actor=event.organizer,
        player=player,
        text=mtgo_text(real_main_deck("modern_000.json")),
        reason="Paper list typed in by the judge team",
    )
    stored = datetime.datetime(2026, 11, 21, 10, 1, tzinfo=datetime.UTC)
    type(penalty).objects.filter(pk=penalty.pk).update(created_at=stored)
    DecklistVersion.objects.filter(decklist__player=player).update(created_at=stored)

    penalty_row = builders.penalties(event.tournament, None, "A4")["penalties"][0]
    sheets = builders.decklists(event.tournament, None, "A4")
    member = next(p for team in sheets["teams"] for p in team["players"] if p["name"] == player.name)
    text = render(event.tournament, event.organizer, "penalties")

    assert penalty_row["time"] == "21 Nov 2026 11:01"
    assert member["submitted_at"] == "21 Nov 2026 11:01"
    assert "21 Nov 2026 11:01" in text and "T10:01" not in text
