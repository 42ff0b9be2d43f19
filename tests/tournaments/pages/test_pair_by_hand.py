"""The organizer pairs a round by hand on a page (a plain form): the engine's proposal filled in,
any number of byes, a reason; the refusals of ``round_pair_manual`` next to the tables they name."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories import UserFactory
from tests.tournaments.factories import add_staff, event_with_teams, register_team
from tournaments.enums import StaffRole
from tournaments.models import AuditEntry, Round, Team
from tournaments.services.manual_pairing import manual_pairing_draft
from tournaments.services.participation import team_drop
from tournaments.standings import standings_for

pytestmark = pytest.mark.django_db


def browser(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def page_url(tournament) -> str:
    return f"/events/{tournament.pk}/rounds/by-hand/"


def teams_of(tournament) -> list[Team]:
    return list(Team.objects.filter(tournament=tournament).order_by("name"))


def selected(html: str, select_id: str) -> list[str]:
    select = re.search(rf'<select id="{select_id}"[^>]*>(.*?)</select>', html, re.S)
    assert select, select_id
    return re.findall(r'<option value="(\d*)" selected>', select.group(1))


def test_the_form_lists_the_active_teams_with_the_engines_proposal_filled_in():
    tournament = event_with_teams(7, swiss_rounds=3)
    teams = teams_of(tournament)
    team_drop(team=teams[6], actor=tournament.created_by, reason="left early")
    manage = browser(tournament.created_by).get(f"/events/{tournament.pk}/manage/").content.decode()
    assert f'href="{page_url(tournament)}"' in manage and "Pair round 1 by hand" in manage

    response = browser(tournament.created_by).get(page_url(tournament))

    html = response.content.decode()
    assert response.status_code == 200
    assert "Pair round 1 by hand" in html
    for team in teams[:6]:
        assert f'<option value="{team.pk}"' in html and f"{team.name} (0 points)" in html
    assert teams[6].name not in html
    proposal = manual_pairing_draft(tournament).tables
    assert len(proposal) == 3 and all(b is not None for _a, b in proposal)
    for table, (a, b) in enumerate(proposal, start=1):
        assert selected(html, f"table-{table}-a") == [str(a)]
        assert selected(html, f"table-{table}-b") == [str(b)]
    assert selected(html, "table-4-a") == [] and selected(html, "table-5-a") == []
    assert 'name="reason"' in html and "— bye —" in html


def test_an_odd_team_out_is_proposed_a_bye():
    tournament = event_with_teams(5, swiss_rounds=3)
    html = browser(tournament.created_by).get(page_url(tournament)).content.decode()
    assert selected(html, "table-3-a") != [] and selected(html, "table-3-b") == []


def test_two_byes_by_hand_make_the_round_each_bye_three_points_and_the_reason_audited():
    tournament = event_with_teams(6, swiss_rounds=3)
    t = teams_of(tournament)
    organizer = browser(tournament.created_by)

    response = organizer.post(
        page_url(tournament),
        {
            "team_a": [t[0].pk, t[2].pk, t[4].pk, ""],
            "team_b": [t[1].pk, t[3].pk, "", ""],
            "byes": [t[5].pk],
            "reason": "two teams arrived after the round began",
        },
    )

    assert response.status_code == 302
    assert response["Location"] == f"/events/{tournament.pk}/rounds/1/"
    round_obj = Round.objects.get(tournament=tournament, number=1)
    assert round_obj.manual_reason == "two teams arrived after the round began"
    played = round_obj.matches.filter(team_b__isnull=False).order_by("table")
    assert [(m.table, m.team_a_id, m.team_b_id) for m in played] == [
        (1, t[0].pk, t[1].pk),
        (2, t[2].pk, t[3].pk),
    ]
    byes = round_obj.matches.filter(team_b__isnull=True).order_by("team_a__name")
    assert [(m.team_a_id, m.result_kind) for m in byes] == [(t[4].pk, "bye"), (t[5].pk, "bye")]
    points = {line.team_id: line.match_points for line in standings_for(tournament)}
    assert (points[t[4].pk], points[t[5].pk]) == (3, 3)
    audit = AuditEntry.objects.get(action="round_pair_manual")
    assert audit.reason == "two teams arrived after the round began"
    followed = organizer.get(response["Location"]).content.decode()
    assert "Round 1 paired by hand. Check it, then publish it from the manage page." in followed


def refused_post(tournament, case: str):
    t = teams_of(tournament)
    body = {
        "team_a": [t[0].pk, t[2].pk, t[4].pk],
        "team_b": [t[1].pk, t[3].pk, t[5].pk],
        "reason": "judge's request",
    }
    if case == "twice":
        body["team_b"] = [t[1].pk, t[0].pk, t[5].pk]
        body["byes"] = [t[3].pk]
    elif case == "dropped":
        team_drop(team=t[5], actor=tournament.created_by, reason="left")
    else:
        body["reason"] = "  "
    return browser(tournament.created_by).post(page_url(tournament), body)


@pytest.mark.parametrize(
    ("case", "where", "words"),
    [
        ("twice", "table-2-problems", "Team 01 is paired twice"),
        ("dropped", "table-3-problems", "Team 06 is not an active team of this event"),
        ("none", "reason-problem", "Give the reason for pairing this round by hand"),
    ],
)
def test_a_refused_pairing_says_so_next_to_its_table_and_saves_nothing(case, where, words):
    tournament = event_with_teams(6, swiss_rounds=3)

    response = refused_post(tournament, case)

    html = response.content.decode()
    assert response.status_code == 400
    assert "The pairing was not saved" in html
    problem = re.search(rf'id="{where}">(.*?)</(ul|p)>', html, re.S)
    assert problem and words in problem.group(1)
    assert "matches[" not in html and "team_a" not in html.split('id="pairing-refused"')[1].split("<form")[0]
    assert not Round.objects.filter(tournament=tournament).exists()
    assert not AuditEntry.objects.filter(action="round_pair_manual").exists()
    if case == "twice":
        assert selected(html, "table-2-b") == [str(teams_of(tournament)[0].pk)]


def test_a_team_left_out_is_named_at_the_top():
    tournament = event_with_teams(4, swiss_rounds=3)
    t = teams_of(tournament)
    response = browser(tournament.created_by).post(
        page_url(tournament), {"team_a": [t[0].pk], "team_b": [t[1].pk], "reason": "x"}
    )
    assert response.status_code == 400
    assert "not paired: Team 03, Team 04" in response.content.decode()


@pytest.mark.parametrize("who", ["anonymous", "player", "scorekeeper"])
def test_only_the_organizer_pairs_by_hand(who):
    tournament = event_with_teams(4, swiss_rounds=3)
    t = teams_of(tournament)
    user = None
    if who == "player":
        user = UserFactory()
        register_team(tournament, "Red Dawn", actor=tournament.created_by, usernames=(user.username,))
    elif who == "scorekeeper":
        user = add_staff(tournament, StaffRole.SCOREKEEPER)
    client = browser(user)
    body = {"team_a": [t[0].pk, t[2].pk], "team_b": [t[1].pk, t[3].pk], "reason": "x"}

    got, posted = client.get(page_url(tournament)), client.post(page_url(tournament), body)

    expected = 302 if who == "anonymous" else 403
    assert (got.status_code, posted.status_code) == (expected, expected)
    if who == "anonymous":
        assert "/login" in posted["Location"] or "accounts" in posted["Location"]
    assert not Round.objects.filter(tournament=tournament).exists()
    if who == "scorekeeper":
        manage = client.get(f"/events/{tournament.pk}/manage/").content.decode()
        assert "by hand" not in manage and 'id="pair-round"' in manage


@pytest.mark.parametrize(
    ("language", "title", "refusal"),
    [
        ("es", "Emparejar la ronda 1 a mano", "Team 01 está emparejado dos veces"),
        ("pt-br", "Parear a rodada 1 à mão", "Team 01 está pareada duas vezes"),
        ("ja", "第1ラウンドを手動で組む", "Team 01 が2回組まれています"),
    ],
)
def test_the_page_and_its_refusals_read_in_the_readers_language(language, title, refusal):
    tournament = event_with_teams(4, swiss_rounds=3)
    t = teams_of(tournament)
    organizer = browser(tournament.created_by)
    url = page_url(tournament)
    assert title in organizer.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    body = {"team_a": [t[0].pk, t[2].pk], "team_b": [t[1].pk, t[0].pk], "reason": "x"}
    refused = organizer.post(url, body, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert refusal in refused
