"""A Japanese name's reading (furigana): typed where the name is typed, kept with the player, and
what lists by name sort by (issue #18: "Japanese names by reading when given").

鈴木 (すずき) comes before 山田 (やまだ) by reading, after it by code point (鈴 U+9234, 山 U+5C71);
伊藤 (いとう) and 佐藤 (さとう) come first either way.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from django.urls import reverse

from documents.models import DocumentJob
from documents.services import document_render
from tests.factories import UserFactory
from tests.tournaments.factories import client_for as api_client_for
from tests.tournaments.pages.builders import client_for
from tournaments.models import Player, Team
from tournaments.registration.planner import PlayerEntry
from tournaments.registration.register import team_register
from tournaments.services.events import tournament_create
from tournaments.services.rounds import round_pair, round_publish

pytestmark = pytest.mark.django_db

READINGS = {
    "山田 太郎": "やまだ たろう",
    "伊藤 花子": "いとう はなこ",
    "佐藤 健": "サトウ ケン",
    "鈴木 一郎": "すずき いちろう",
}
BY_READING = ["伊藤 花子", "佐藤 健", "鈴木 一郎", "山田 太郎"]
BY_CODE_POINT = ["伊藤 花子", "佐藤 健", "山田 太郎", "鈴木 一郎"]


@pytest.fixture
def organizer():
    return UserFactory(is_staff=True)


@pytest.fixture
def tokyo(organizer):
    return tournament_create(actor=organizer, name="東京 2HG", language="ja", swiss_rounds=3)


def _register(tournament, organizer, teams: dict[str, list[str]], *, readings: bool = True) -> None:
    for index, (name, players) in enumerate(teams.items()):
        entries = [
            PlayerEntry(
                name=player,
                wizards_id=f"p{index}{seat}@tokyo.example.org",
                name_reading=READINGS[player] if readings else "",
            )
            for seat, player in enumerate(players)
        ]
        team_register(tournament=tournament, actor=organizer, name=name, players=entries)


def _published(tournament, organizer, *, readings: bool = True):
    _register(
        tournament,
        organizer,
        {"東": ["山田 太郎", "伊藤 花子"], "西": ["佐藤 健", "鈴木 一郎"]},
        readings=readings,
    )
    return round_publish(round_row=round_pair(tournament=tournament, actor=organizer), actor=organizer)


def _in_order(text: str, names: list[str]) -> bool:
    positions = [text.find(name) for name in names]
    return -1 not in positions and positions == sorted(positions)


def test_the_manage_form_takes_a_reading_without_javascript(organizer, tokyo):
    response = client_for(organizer).post(
        reverse("tournament-team-add", args=[tokyo.id]),
        {
            "name": "東",
            "player_0_name": "山田 太郎",
            "player_0_name_reading": "ﾔﾏﾀﾞ ﾀﾛｳ",
            "player_0_wizards_id": "yamada@tokyo.example.org",
            "player_1_name": "Ann Lee",
            "player_1_wizards_id": "ann@tokyo.example.org",
        },
    )

    assert response.status_code == 302
    players = Team.objects.get(tournament=tokyo, name="東").players.order_by("position")
    assert [(p.name, p.name_reading) for p in players] == [("山田 太郎", "ヤマダ タロウ"), ("Ann Lee", "")]


def test_a_reading_in_kanji_is_refused_on_its_field(organizer, tokyo):
    response = client_for(organizer).post(
        reverse("tournament-team-add", args=[tokyo.id]),
        {
            "name": "東",
            "player_0_name": "山田 太郎",
            "player_0_name_reading": "山田",
            "player_0_wizards_id": "yamada@tokyo.example.org",
            "player_1_name": "Ann Lee",
            "player_1_wizards_id": "ann@tokyo.example.org",
        },
    )

    assert response.status_code == 400
    assert response.context["team_form"].errors["player_0_name_reading"] == [
        "a name's reading is written in kana or Latin letters, not 山"
    ]
    assert not Team.objects.filter(tournament=tokyo).exists()


def test_the_team_edit_page_corrects_a_reading(organizer, tokyo):
    _register(tokyo, organizer, {"東": ["山田 太郎", "伊藤 花子"]}, readings=False)
    first, second = Player.objects.filter(tournament=tokyo).order_by("position")
    url = reverse("tournament-team-edit", args=[tokyo.id, first.team_id])
    page = client_for(organizer).get(url)
    assert f'name="player_{first.id}_name_reading"' in page.text

    response = client_for(organizer).post(
        url,
        {
            "name": "東",
            f"player_{first.id}_name": first.name,
            f"player_{first.id}_name_reading": "Yamada Tarō",
            f"player_{first.id}_wizards_id": first.wizards_id,
            f"player_{second.id}_name": second.name,
            f"player_{second.id}_name_reading": "いとう  はなこ",
            f"player_{second.id}_wizards_id": second.wizards_id,
        },
    )

    assert response.status_code == 302
    assert [p.name_reading for p in Player.objects.filter(tournament=tokyo).order_by("position")] == [
        "Yamada Tarō",
        "いとう はなこ",
    ]


def test_the_api_takes_and_gives_back_a_reading(organizer, tokyo):
    api = api_client_for(organizer)
    base = f"/api/v1/tournaments/{tokyo.pk}/teams/"
    body = {
        "name": "東",
        "players": [
            {"name": "山田 太郎", "name_reading": "やまだ たろう", "wizards_id": "yamada@tokyo.example.org"},
            {"name": "Ann Lee", "wizards_id": "ann@tokyo.example.org"},
        ],
    }

    created = api.post(base, body, format="json")

    assert created.status_code == 201, created.json()
    assert [(p["name"], p["name_reading"]) for p in created.json()["players"]] == [
        ("山田 太郎", "やまだ たろう"),
        ("Ann Lee", ""),
    ]
    read = api.get(f"{base}{created.json()['id']}/").json()
    assert [p["name_reading"] for p in read["players"]] == ["やまだ たろう", ""]

    body["name"] = "西"
    body["players"][0].update(name_reading="山田", wizards_id="other@tokyo.example.org")
    body["players"][1].update(wizards_id="other2@tokyo.example.org")
    refused = api.post(base, body, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"] == [
        {
            "field": "players[0].name_reading",
            "message": "a name's reading is written in kana or Latin letters, not 山",
        }
    ]


def test_pairings_by_name_pages_sort_japanese_names_by_reading(client, organizer, tokyo):
    _published(tokyo, organizer)

    by_name = client.get(reverse("tournament-pairings", args=[tokyo.id]), {"names": "S-Z"})
    projector = client.get(reverse("tournament-pairings-projector", args=[tokyo.id]))

    assert [row.player.name for row in by_name.context["name_rows"]] == BY_READING
    assert _in_order(by_name.text, BY_READING)
    assert [row.player.name for row in projector.context["rows"]] == BY_READING


def test_without_readings_japanese_names_sort_by_code_point(client, organizer, tokyo):
    _published(tokyo, organizer, readings=False)

    by_name = client.get(reverse("tournament-pairings", args=[tokyo.id]), {"names": "S-Z"})

    assert [row.player.name for row in by_name.context["name_rows"]] == BY_CODE_POINT


def test_the_printed_pairings_by_name_sort_by_reading(organizer, tokyo, tmp_path, settings):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    round_obj = _published(tokyo, organizer)
    job = document_render(
        job_id=DocumentJob.objects.create(kind="pairings_by_name", tournament=tokyo, round=round_obj).id
    )
    assert job.status == "done", job.error
    path = tmp_path / "by-name.pdf"
    with job.file.open("rb") as handle:
        path.write_bytes(handle.read())
    pdftotext = shutil.which("pdftotext")
    if pdftotext is None:
        pytest.fail("pdftotext is not installed: apt-get install poppler-utils")

    text = subprocess.run([pdftotext, str(path), "-"], check=True, capture_output=True, text=True).stdout

    assert _in_order(text, BY_READING), text


def test_players_give_their_reading_when_they_create_a_team_and_join_it(tokyo):
    captain, mate = UserFactory(), UserFactory()
    created = client_for(captain).post(
        reverse("tournament-me-team", args=[tokyo.id]),
        {
            "team_name": "東",
            "player_name": "山田 太郎",
            "player_name_reading": "やまだ たろう",
            "wizards_id": "yamada@tokyo.example.org",
        },
    )
    team = Team.objects.get(tournament=tokyo, name="東")
    join_page = client_for(mate).get(reverse("team-join", args=[team.join_code]))

    joined = client_for(mate).post(
        reverse("team-join", args=[team.join_code]),
        {
            "answer": "accept",
            "player_name": "伊藤 花子",
            "player_name_reading": "イトウ ハナコ",
            "wizards_id": "ito@tokyo.example.org",
        },
    )

    assert created.status_code == 302 and joined.status_code == 302
    assert 'name="player_name_reading"' in join_page.text
    assert [(p.name, p.name_reading) for p in team.players.order_by("position")] == [
        ("山田 太郎", "やまだ たろう"),
        ("伊藤 花子", "イトウ ハナコ"),
    ]


def test_accepting_by_api_takes_a_reading_and_refuses_one_in_kanji(organizer, tokyo):
    captain, mate = UserFactory(), UserFactory()
    team = team_register(
        tournament=tokyo,
        actor=captain,
        name="東",
        players=[PlayerEntry(name="Cap", wizards_id="cap@tokyo.example.org", username=captain.username)],
    )
    url = f"/api/v1/invitations/{team.join_code}/accept/"

    refused = api_client_for(mate).post(url, {"name": "佐藤 健", "name_reading": "佐藤"}, format="json")
    accepted = api_client_for(mate).post(
        url, {"name": "佐藤 健", "name_reading": "さとう けん"}, format="json"
    )

    assert refused.status_code == 400
    assert refused.json()["errors"] == [
        {"field": "name_reading", "message": "a name's reading is written in kana or Latin letters, not 佐"}
    ]
    assert accepted.status_code in (200, 201), accepted.json()
    assert Player.objects.get(user=mate).name_reading == "さとう けん"


def test_a_player_who_gives_no_reading_keeps_last_events_for_the_same_name(organizer, tokyo):
    mate = UserFactory()
    osaka = tournament_create(actor=organizer, name="大阪 2HG", language="ja", swiss_rounds=3)
    for event, name, reading in ((tokyo, "佐藤 健", "さとう けん"), (osaka, "佐藤 健", "")):
        captain = UserFactory()
        team = team_register(
            tournament=event,
            actor=captain,
            name="東",
            players=[
                PlayerEntry(name="Cap", wizards_id=f"cap{event.pk}@x.example.org", username=captain.username)
            ],
        )
        api_client_for(mate).post(
            f"/api/v1/invitations/{team.join_code}/accept/",
            {"name": name, "name_reading": reading},
            format="json",
        )

    assert Player.objects.get(user=mate, tournament=osaka).name_reading == "さとう けん"


def test_a_reading_given_in_the_partner_pool_goes_with_the_player_onto_a_team(organizer, tokyo):
    from tournaments.models import PoolEntry
    from tournaments.services.pool import pool_form_team_by_hand

    first, second = UserFactory(), UserFactory()
    for user, name, reading in ((first, "鈴木 一郎", "すずき いちろう"), (second, "Ann Lee", "")):
        joined = client_for(user).post(
            reverse("tournament-pool-join", args=[tokyo.id]),
            {
                "player_name": name,
                "player_name_reading": reading,
                "wizards_id": f"{user.username}@x.example.org",
            },
        )
        assert joined.status_code == 302
    me_page = client_for(first).get(reverse("tournament-me", args=[tokyo.id]))

    team = pool_form_team_by_hand(
        tournament=tokyo, actor=organizer, entry_ids=list(PoolEntry.objects.values_list("pk", flat=True))
    )

    # The "Invite" button beside a pool member posts the name and reading given to the pool.
    assert '<input type="hidden" name="player_name" value="鈴木 一郎">' in me_page.text
    assert '<input type="hidden" name="player_name_reading" value="すずき いちろう">' in me_page.text
    assert {(p.name, p.name_reading) for p in team.players.all()} == {
        ("鈴木 一郎", "すずき いちろう"),
        ("Ann Lee", ""),
    }
