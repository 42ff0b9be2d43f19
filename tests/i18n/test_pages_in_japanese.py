"""A Japanese reader sees no English sentence from the catalogue: the judges' pages, the audit log
and the public pages of an event in play (a zone, a note and a statement, a deck check with a
finding, penalties with their explanations, one overturned, time called) and the manage page of a
Swiss round with a pair-down are rendered in Japanese, and every translated catalogue entry of
three words or more must not appear in English in what the page shows; nor may the IPG's penalty
names, which are shorter (docs/decisions.md "Translations and official terms")."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.utils import timezone, translation
from django.utils.translation import trans_real

from decklists.services import deck_check_finding_record, deck_check_start
from documents.builders import penalties as penalty_document
from floor.services.notes import note_add
from floor.services.zones import zone_create
from penalties.domain import Penalty as PenaltyKind
from penalties.reviews import penalty_overturn
from penalties.services import penalty_issue
from tests.floor.conftest import build_floor_event
from tests.tournaments.factories import event_with_teams
from tests.tournaments.pages.builders import client_for
from tournaments.models import Match
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair, round_publish

pytestmark = pytest.mark.django_db

#: Placeholders and markup inside a msgid: what is left between them is what a reader would see.
_SPLIT = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\{.*?\}\}|<[^>]+>|\n")


def english_sentences() -> set[str]:
    """The English fragments of every entry the Japanese catalogue translates, three words or more."""
    catalog = trans_real.translation("ja")._catalog
    fragments = set()
    for msgid, msgstr in catalog.items():
        if not isinstance(msgid, str) or not msgid or msgstr == msgid:
            continue
        for fragment in _SPLIT.split(msgid):
            fragment = " ".join(fragment.split()).strip(" .,:;·()")
            if len(re.findall(r"[A-Za-z]{2,}", fragment)) >= 3:
                fragments.add(fragment)
    return fragments


class _Visible(HTMLParser):
    """What a reader sees or hears: text outside scripts and styles, and the labelling attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template"):
            self._hidden += 1
        for name, value in attrs:
            if name in ("title", "aria-label", "placeholder", "alt") and value:
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template"):
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Visible()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def event_in_play():
    ev = build_floor_event()
    tournament = ev.tournament
    zone_create(tournament=tournament, actor=ev.organizer, name="Zone A", first_table=1, last_table=2)
    table = ev.matches[0]
    note_add(tournament=tournament, actor=ev.judge, text="Asked for a ruling", match=table)
    note_add(
        tournament=tournament,
        actor=ev.judge,
        text="I saw the card",
        kind="statement",
        given_by="Team 2 player",
        match=table,
    )
    check = deck_check_start(match=table, actor=ev.judge, at=timezone.now())
    deck_check_finding_record(
        deck_check=check,
        actor=ev.judge,
        player=ev.player_row(0),
        kind="missing",
        card="Lightning Bolt",
        count=1,
    )
    ev.issued = penalty_issue(
        tournament=tournament,
        actor=ev.judge,
        player=ev.player_row(2),
        round_row=ev.round,
        infraction="TE-SP",
        description="Took too long to attack",
    )
    penalty_issue(
        tournament=tournament,
        actor=ev.head_judge,
        player=ev.player_row(4),
        round_row=ev.round,
        infraction="TE-OA",
        description="Read notes during the game",
        context={"information_available_between_games": True},
    )
    overturned = penalty_issue(
        tournament=tournament,
        actor=ev.judge,
        player=ev.player_row(6),
        round_row=ev.round,
        infraction="GPE-HCE",
        description="Saw an extra card",
    )
    penalty_overturn(penalty=overturned, actor=ev.head_judge, reason="the card was already revealed")
    return ev


#: The IPG's penalty names in English: too short for the three-word rule, still English on a page.
PENALTY_NAMES = tuple(str(kind.label) for kind in PenaltyKind)


def swiss_round_with_a_pair_down():
    """Five teams: round 1 paired by the engine (a bye), two teams win; round 2 then has three teams
    on 3 points, so one of them is paired down, and the manage page explains why."""
    tournament = event_with_teams(5, swiss_rounds=3)
    first = round_pair(tournament=tournament, actor=tournament.created_by)
    round_publish(round_row=first, actor=tournament.created_by)
    for match in Match.objects.filter(round=first, team_b__isnull=False):
        match_result_report(
            match=match,
            actor=tournament.created_by,
            team_a_wins=1,
            team_b_wins=0,
            draws=0,
            version=match.version,
        )
    second = round_pair(tournament=tournament, actor=tournament.created_by)
    assert any("paired down" in line for line in second.explanation["lines"])
    return tournament


def pages(ev) -> list[tuple[object, str]]:
    t = ev.tournament.pk
    table = ev.matches[0]
    judge_pages = [
        f"/events/{t}/floor/calls/",
        f"/events/{t}/floor/end-of-round/?zone=",
        f"/events/{t}/floor/zones/",
        f"/events/{t}/floor/deck-checks/?round=1",
        f"/events/{t}/floor/notes/",
        f"/events/{t}/floor/notes/?match={table.pk}",
        f"/events/{t}/floor/head-judge/",
        f"/events/{t}/clock/judge/",
        f"/events/{t}/penalties/",
        f"/events/{t}/penalties/new/?round=1&issued={ev.issued.pk}",
        f"/events/{t}/penalties/player/{ev.player_row(4).pk}/",
        f"/events/{t}/decklists/judge/",
        f"/events/{t}/deckchecks/{table.pk}/",
    ]
    public_pages = [
        f"/events/{t}/",
        f"/events/{t}/?q=Team",
        f"/events/{t}/pairings/",
        f"/events/{t}/standings/",
        f"/events/{t}/rounds/1/",
        f"/events/{t}/teams/{ev.teams[0].pk}/",
    ]
    return (
        [(ev.head_judge, path) for path in judge_pages]
        + [(ev.organizer, f"/events/{t}/audit/"), (ev.organizer, f"/events/{t}/manage/")]
        + [(None, path) for path in public_pages]
    )


def test_judges_pages_audit_log_and_public_pages_show_no_english_sentence_in_japanese():
    ev = event_in_play()
    swiss = swiss_round_with_a_pair_down()
    sentences = english_sentences()
    assert len(sentences) > 300  # the catalogue was read
    found = {}
    shown = {}
    for user, path in [*pages(ev), (swiss.created_by, f"/events/{swiss.pk}/manage/")]:
        client = client_for(user) if user else Client()
        response = client.get(path, HTTP_ACCEPT_LANGUAGE="ja")
        assert response.status_code == 200, path
        text = visible_text(response.content.decode())
        shown[path] = text
        english = sorted(sentence for sentence in sentences if sentence in text)
        english += [name for name in PENALTY_NAMES if re.search(rf"\b{name}\b", text)]
        if english:
            found[path] = english
    assert found == {}
    t = ev.tournament.pk
    assert "競技、TE-SP (Slow Play): 警告" in shown[f"/events/{t}/penalties/"]
    assert "match_point 方針: ガイドの対象外 → ゲームの敗北" in shown[f"/events/{t}/penalties/"]
    assert "ヘッドジャッジが取り消し (the card was already revealed)" in shown[f"/events/{t}/audit/"]
    assert "懲罰: 警告" in shown[f"/events/{t}/audit/"]
    assert (
        "このテーブルはラウンド終了時に +2 ターン"
        in shown[f"/events/{t}/penalties/new/?round=1&issued={ev.issued.pk}"]
    )
    assert "手動で組み合わせ" in shown[f"/events/{t}/manage/"]
    assert "点以上のチームが奇数" in shown[f"/events/{swiss.pk}/manage/"]


def test_the_penalty_report_names_penalties_in_japanese():
    ev = event_in_play()
    with translation.override("ja"):
        rows = penalty_document(ev.tournament, None, "a4")["penalties"]
    assert [row["penalty"] for row in rows] == ["警告", "ゲームの敗北", "警告"]


def test_the_language_menu_names_each_language_in_itself():
    ev = build_floor_event(teams=2)
    html = Client().get(f"/events/{ev.tournament.pk}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    names = re.findall(r'<option value="([\w-]+)" lang="[\w-]+"(?: selected)?>([^<]+)</option>', html)
    assert dict(names) == {"en": "English", "es": "español", "pt-br": "Português Brasileiro", "ja": "日本語"}
