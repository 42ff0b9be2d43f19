"""Deck checks (findings → penalties, the MTR 2.6 extension) and the decklist pages."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.utils import timezone

from common.errors import ConflictError, DomainError
from decklists.models import DeckCheck
from decklists.services import (
    deck_check_finding_record,
    deck_check_finding_to_penalty,
    deck_check_finish,
    deck_check_start,
    decklist_submit,
)
from tests.decklists.realdata import mtgo_text
from tests.factories import MatchFactory, RoundFactory
from tournaments.models import AuditEntry, TimeExtension

T0 = datetime.datetime(2026, 7, 18, 10, 0, tzinfo=datetime.UTC)


@pytest.fixture
def table(event):
    """The event's two teams at table 1 of round 1, lists registered before pairing."""
    for player, text in (
        (event.a, "4 Lightning Bolt\n56 Mountain"),
        (event.b, "4 Counterspell\n56 Island"),
        (event.other, "4 Lightning Bolt\n56 Mountain"),
    ):
        decklist_submit(tournament=event.tournament, actor=event.organizer, player=player, text=text)
    event_round = RoundFactory(tournament=event.tournament)
    return MatchFactory(round=event_round, table=1, team_a=event.team, team_b=event.other_team)


def test_finishing_a_deck_check_extends_the_table_by_its_length_rounded_up_then_three(event, table):
    """MTR 2.6: 6 min 10 s is a 7-minute extension for the check, plus 3 minutes to shuffle."""
    check = deck_check_start(match=table, actor=event.judge, at=T0)
    finished = deck_check_finish(
        deck_check=check, actor=event.judge, at=T0 + datetime.timedelta(minutes=6, seconds=10)
    )
    assert (finished.extension.minutes, finished.extension.reason) == (
        7,
        "deck check: 6 min 10 s, rounded up to 7 min (MTR 2.6)",
    )
    rows = list(TimeExtension.objects.filter(match=table).order_by("id").values_list("minutes", "reason"))
    assert rows == [
        (7, "deck check: 6 min 10 s, rounded up to 7 min (MTR 2.6)"),
        (3, "deck check: 3 min to shuffle and present (MTR 2.6)"),
    ]
    with pytest.raises(ConflictError):
        deck_check_finish(deck_check=check, actor=event.judge)
    assert TimeExtension.objects.filter(match=table).count() == 2


def test_a_check_of_exactly_six_minutes_gives_six(event, table):
    check = deck_check_start(match=table, actor=event.judge, at=T0)
    finished = deck_check_finish(deck_check=check, actor=event.judge, at=T0 + datetime.timedelta(minutes=6))
    assert finished.extension.minutes == 6


def test_a_check_finished_after_the_result_still_finishes_without_extension(event, table):
    check = deck_check_start(match=table, actor=event.judge, at=T0)
    table.result_kind = "played"
    table.team_a_wins = 1
    table.save()
    finished = deck_check_finish(deck_check=check, actor=event.judge, at=T0 + datetime.timedelta(minutes=4))
    assert (finished.finished_at, finished.extension) == (T0 + datetime.timedelta(minutes=4), None)
    assert TimeExtension.objects.filter(match=table).count() == 0
    entry = AuditEntry.objects.get(action="deck_check_finish")
    assert entry.reason == "no time extension: table 1 has already reported its result"


def test_one_open_deck_check_per_table(event, table):
    deck_check_start(match=table, actor=event.judge, at=T0)
    with pytest.raises(ConflictError):
        deck_check_start(match=table, actor=event.judge, at=T0)


def test_finding_becomes_a_decklist_problem_found_during_the_deck_check(event, table):
    check = deck_check_start(match=table, actor=event.judge, at=T0)
    finding = deck_check_finding_record(
        deck_check=check, actor=event.judge, player=event.a, kind="missing", card="Lightning Bolt", count=1
    )
    penalty = deck_check_finding_to_penalty(finding=finding, actor=event.judge, infraction="TE-DLP")
    finding.refresh_from_db()
    assert finding.penalty == penalty
    assert (penalty.infraction, penalty.player, penalty.context) == (
        "TE-DLP",
        event.a,
        {"found_during_deck_check": True},
    )
    assert penalty.description == "Deck check at table 1: missing from the deck: 1 Lightning Bolt"
    with pytest.raises(ConflictError):
        deck_check_finding_to_penalty(finding=finding, actor=event.judge, infraction="TE-DP")
    assert AuditEntry.objects.filter(action="deck_check_finding").count() == 1


def test_finding_refuses_other_infractions_and_players_away_from_the_table(event, table, db):
    check = deck_check_start(match=table, actor=event.judge, at=T0)
    finding = deck_check_finding_record(
        deck_check=check, actor=event.judge, player=event.b, kind="extra", card="Counterspell"
    )
    with pytest.raises(DomainError):
        deck_check_finding_to_penalty(finding=finding, actor=event.judge, infraction="TE-SP")
    with pytest.raises(DomainError):
        deck_check_finding_record(
            deck_check=check, actor=event.judge, player=event.b, kind="lost", card="Island"
        )


def test_deck_check_page_runs_a_whole_check(event, table):
    client = Client()
    client.force_login(event.judge)
    url = f"/events/{event.tournament.pk}/deckchecks/{table.pk}/"
    page = client.get(url)
    assert page.status_code == 200
    assert b"Start deck check" in page.content
    client.post(url, {"action": "start"})
    client.post(
        url,
        {"action": "finding", "player": event.b.pk, "kind": "missing", "card": "Counterspell", "count": "2"},
    )
    check = DeckCheck.objects.get(match=table)
    finding = check.findings.get()
    client.post(url, {"action": "penalty", "finding": finding.pk, "infraction": "TE-DP"})
    client.post(url, {"action": "finish"})
    page = client.get(url)
    text = page.content.decode()
    assert "Penalty recorded: TE-DP Warning." in text
    assert '<td data-label="Penalty">TE-DP Warning</td>' in text.replace("\n", "").replace("  ", "")
    minutes = DeckCheck.objects.get(pk=check.pk).extension.minutes
    assert f"Table 1 extended by {minutes} + 3 minutes" in text
    assert re.search(rf"Extension given: \+{minutes} \+ 3 min\.", text)
    assert text.count("<article") == 4


@pytest.mark.parametrize("who, status", [("judge", 200), ("scorekeeper", 403), ("player_user", 403)])
def test_deck_check_page_is_for_judges(event, table, who, status):
    client = Client()
    client.force_login(getattr(event, who))
    assert client.get(f"/events/{event.tournament.pk}/deckchecks/{table.pk}/").status_code == status


def test_player_page_shows_paste_box_and_highlights_the_teams_conflict(event):
    decklist_submit(
        tournament=event.tournament,
        actor=event.player_user,
        player=event.a,
        text="4 Lightning Bolt\n56 Mountain",
    )
    decklist_submit(
        tournament=event.tournament,
        actor=event.teammate_user,
        player=event.b,
        text="4 Lightning Bolt\n56 Mountain",
    )
    client = Client()
    client.force_login(event.player_user)
    page = client.get(f"/events/{event.tournament.pk}/decklists/")
    text = page.content.decode()
    assert page.status_code == 200
    assert 'id="decklist-text"' in text and "4 Lightning Bolt\n56 Mountain</textarea>" in text
    assert text.count('class="conflict"') == 2
    assert "is in the decks of" in text


def test_player_page_locked_after_deadline_has_no_paste_box(event):
    event.tournament.decklist_deadline = timezone.now() - datetime.timedelta(hours=1)
    event.tournament.save()
    client = Client()
    client.force_login(event.player_user)
    text = client.get(f"/events/{event.tournament.pk}/decklists/").content.decode()
    assert "Decklists are locked" in text and 'id="decklist-text"' not in text


def test_judge_overview_lists_every_team_and_opens_one(event):
    decklist_submit(tournament=event.tournament, actor=event.judge, player=event.a, text="4 Lightnig Bolt")
    client = Client()
    client.force_login(event.judge)
    page = client.get(f"/events/{event.tournament.pk}/decklists/judge/?team={event.team.pk}")
    text = page.content.decode()
    assert page.status_code == 200
    assert event.team.name in text and event.other_team.name in text
    assert (
        "<li>Line 1: «4 Lightnig Bolt» — unknown card &#x27;Lightnig Bolt&#x27; (did you mean "
        "&#x27;Lightning Bolt&#x27; or &#x27;Lightning Colt&#x27; or &#x27;Lightning Blast&#x27;?).</li>"
    ) in text
    client.force_login(event.other_user)
    assert client.get(f"/events/{event.tournament.pk}/decklists/judge/").status_code == 403


def test_player_saves_a_list_with_the_plain_form_and_reads_the_check_on_the_reloaded_page(event, records):
    """JavaScript off: the paste box posts to the page, which stores the version and says what the
    check found; the reloaded page shows the line errors."""
    real = next(r for r in records if r["format"] == "modern")
    text = mtgo_text(real).replace(real["main"][0][1], real["main"][0][1] + "x", 1)
    client = Client()
    client.force_login(event.player_user)
    url = f"/events/{event.tournament.pk}/decklists/"
    answer = client.post(url, {"save": "list", "text": text}, follow=True)
    page = answer.content.decode()
    assert answer.redirect_chain == [(url, 302)]
    assert event.a.decklist.current.number == 1 and event.a.decklist.current.text == text
    assert "Saved your list (version 1, " in page and "problem" in page
    assert f"Line 1: «{real['main'][0][0]} {real['main'][0][1]}x»" in page


@pytest.mark.parametrize(
    ("day", "banned"), [(datetime.date(2026, 5, 17), False), (datetime.date(2026, 5, 18), True)]
)
def test_every_page_that_checks_a_list_checks_it_on_the_events_date(event, day, banned):
    """Phlage was banned in Modern on 2026-05-18: the player's plain-form save, the player's page,
    the judges' overview and team view, and the deck check page all say so from that day only."""
    event.tournament.format = "modern"
    event.tournament.date = day
    event.tournament.save()
    ban = "Phlage, Titan of Fire&#x27;s Fury: banned in Modern since 2026-05-18."
    player = Client()
    player.force_login(event.player_user)
    judge = Client()
    judge.force_login(event.judge)
    base = f"/events/{event.tournament.pk}"

    saved = player.post(
        f"{base}/decklists/",
        {"save": "list", "text": "4 Phlage, Titan of Fire's Fury\n56 Mountain\n"},
        follow=True,
    ).content.decode()
    decklist_submit(
        tournament=event.tournament, actor=event.judge, player=event.b, text="4 Llanowar Elves\n56 Forest"
    )
    match = MatchFactory(round=RoundFactory(tournament=event.tournament), table=1, team_a=event.team)
    pages = {
        "player": player.get(f"{base}/decklists/").content.decode(),
        "judge team": judge.get(f"{base}/decklists/judge/?team={event.team.pk}").content.decode(),
        "deck check": judge.get(f"{base}/deckchecks/{match.pk}/").content.decode(),
    }
    overview = judge.get(f"{base}/decklists/judge/").content.decode()
    [team_row] = re.findall(
        rf"<tr>\s*<td class=\"team-name\" dir=\"auto\">{event.team.name}</td>.*?</tr>", overview, re.S
    )

    assert ("Saved your list (version 1, 1 problem)" in saved) is banned
    assert ("Saved your list (version 1, legal)" in saved) is not banned
    assert {name: ban in page for name, page in pages.items()} == dict.fromkeys(pages, banned)
    assert ("1 problem" in team_row) is banned and ("legal" in team_row) is not banned
