"""Team names are unique in an event as usernames are unique on the site: ignoring case, width
(fullwidth letters) and look-alike letters (issue 24, point 4)."""

from __future__ import annotations

import pytest

from common.lookalike import lookalike_of
from tests.tournaments.factories import client_for, event_with_teams, register_team
from tournaments.models import Team
from tournaments.registration.desk import team_update

pytestmark = pytest.mark.django_db


def _register(tournament, name: str):
    return client_for(tournament.created_by).post(
        f"/api/v1/tournaments/{tournament.pk}/teams/",
        {
            "name": name,
            "players": [
                {"name": f"{name} {seat}", "wizards_id": f"{seat}-{len(name)}-{ord(name[0])}@x.example"}
                for seat in ("a", "b")
            ],
        },
        format="json",
    )


@pytest.mark.parametrize(
    ("lookalike", "said"),
    [
        ("Ｇｏｂｌｉｎｓ", "looks like the existing 'Goblins'"),  # fullwidth
        ("Gоblins", "looks like the existing 'Goblins'"),  # Cyrillic о
        ("GOBLINS", "a team named 'GOBLINS' is already registered"),  # case
        ("  Goblins ", "a team named 'Goblins' is already registered"),  # spaces
    ],
)
def test_a_name_that_reads_as_a_registered_team_is_refused(lookalike, said):
    tournament = event_with_teams(0)
    register_team(tournament, "Goblins", actor=tournament.created_by)
    response = _register(tournament, lookalike)
    assert response.status_code == 400, response.json()
    message = next(e["message"] for e in response.json()["errors"] if e["field"] == "name")
    assert said in message
    assert Team.objects.filter(tournament=tournament).count() == 1


def test_the_refusal_says_looks_like_as_sign_up_does():
    tournament = event_with_teams(0)
    register_team(tournament, "Goblins", actor=tournament.created_by)
    detail = _register(tournament, "Ｇｏｂｌｉｎｓ").json()["detail"]
    assert "the team name 'Ｇｏｂｌｉｎｓ' looks like the existing 'Goblins'" in detail


def test_distinct_names_still_register_and_the_rule_spans_one_event_only():
    tournament = event_with_teams(0)
    register_team(tournament, "Goblins", actor=tournament.created_by)
    assert _register(tournament, "Goblin Kings").status_code == 201
    other = event_with_teams(0)
    assert _register(other, "Ｇｏｂｌｉｎｓ").status_code == 201


def test_a_rename_to_a_lookalike_is_refused_but_keeping_ones_own_name_is_not():
    tournament = event_with_teams(0)
    register_team(tournament, "Goblins", actor=tournament.created_by)
    elves = register_team(tournament, "Elves", actor=tournament.created_by)
    from common.errors import DomainError

    with pytest.raises(DomainError) as refused:
        team_update(
            team=elves, actor=tournament.created_by, name="Ｇｏｂｌｉｎｓ", players=[], fixed_table=None
        )
    assert "looks like the existing 'Goblins'" in str(refused.value.errors)
    renamed = team_update(team=elves, actor=tournament.created_by, name="ELVES", players=[], fixed_table=None)
    assert renamed.name == "ELVES"


@pytest.mark.parametrize(
    ("name", "existing", "expected"),
    [
        ("MILL", ["mill"], "mill"),  # meets only through the case fold
        ("paypaI", ["paypal"], "paypal"),  # capital I read as l: meets only as typed
        ("Scunthorpe Giants", ["Scunthorpe Gnats"], None),
    ],
)
def test_lookalike_keys(name, existing, expected):
    assert lookalike_of(name, existing) == expected


def _page_client(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def test_the_desk_s_registration_form_refuses_a_lookalike():
    tournament = event_with_teams(0)
    register_team(tournament, "Goblins", actor=tournament.created_by)
    form = {"name": "Ｇｏｂｌｉｎｓ", "awarded_byes": "0"}
    for index in range(tournament.team_size):
        form |= {
            f"player_{index}_name": f"Desk {index}",
            f"player_{index}_wizards_id": f"desk{index}@x.example",
        }
    response = _page_client(tournament.created_by).post(f"/events/{tournament.pk}/teams/", form)
    assert response.status_code == 400
    assert "looks like the existing &#x27;Goblins&#x27;" in response.content.decode()
    assert Team.objects.filter(tournament=tournament).count() == 1


@pytest.mark.parametrize(
    "lines",
    [
        ["Ｇｏｂｌｉｎｓ,Ann A,ann@x.example,Bo B,bo@x.example"],
        ["Elves,Ann A,ann@x.example,Bo B,bo@x.example", "ＥＬＶＥＳ,Cy C,cy@x.example,Di D,di@x.example"],
    ],
    ids=["beside a registered team", "beside another line"],
)
def test_a_csv_import_refuses_a_lookalike_and_saves_nothing(lines):
    tournament = event_with_teams(0)
    register_team(tournament, "Goblins", actor=tournament.created_by)
    response = _page_client(tournament.created_by).post(
        f"/events/{tournament.pk}/teams/import/", {"csv": "\n".join(lines)}
    )
    assert response.status_code == 400
    assert "looks like the existing" in response.content.decode()
    assert Team.objects.filter(tournament=tournament).count() == 1


def test_a_player_creating_a_team_under_a_lookalike_is_refused():
    from tests.factories import UserFactory

    tournament = event_with_teams(0)
    register_team(tournament, "Goblins", actor=tournament.created_by)
    response = _page_client(UserFactory()).post(
        f"/events/{tournament.pk}/me/team/",
        {"team_name": "Ｇｏｂｌｉｎｓ", "player_name": "Pat Page", "wizards_id": "pat@x.example"},
        follow=True,
    )
    assert "looks like the existing &#x27;Goblins&#x27;" in response.content.decode()
    assert Team.objects.filter(tournament=tournament).count() == 1
