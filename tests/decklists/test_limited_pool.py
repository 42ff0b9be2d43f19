"""Limited 2HG: a team registers its Sealed/Draft pool and both decks are checked against it.

The pool is made of real Pauper commons and uncommons (names taken from the July 2026
MTGO Pauper Challenge lists in ``tests/fixtures/decklists``): 40 cards twice, 10 once,
six Chain Lightning (no 4-copy limit in Limited) and one Forest opened in a booster.
"""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

from tests.decklists.conftest import Event
from tests.factories import RoundFactory
from tournaments.models import AuditEntry

TWICE = [
    "Burning-Tree Emissary",
    "Clockwork Percussionist",
    "End the Festivities",
    "Experimental Synthesizer",
    "Galvanic Blast",
    "Goblin Bushwhacker",
    "Goblin Tomb Raider",
    "Lightning Bolt",
    "Rally at the Hornburg",
    "Voldaren Epicure",
    "Wrenn's Resolve",
    "Blood Fountain",
    "Cast Down",
    "Cleansing Wildfire",
    "Eviscerator's Insight",
    "Fanatical Offering",
    "Ichor Wellspring",
    "Krark-Clan Shaman",
    "Lembas",
    "Makeshift Munitions",
    "Nihil Spellbomb",
    "Nyxborn Hydra",
    "Pulse of Murasa",
    "Refurbished Familiar",
    "Snuff Out",
    "Toxin Analysis",
    "Writhing Chrysalis",
    "Bitter Reunion",
    "Journey to Nowhere",
    "Malevolent Rumble",
    "Prismatic Strands",
    "Pursue the Past",
    "Sacred Cat",
    "Shattered Acolyte",
    "Sneaky Snacker",
    "Thraben Charm",
    "Archaeomancer",
    "Ephemerate",
    "Ghostly Flicker",
    "Glorious Gale",
]
ONCE = [
    "God-Pharaoh's Faithful",
    "Meeting of Minds",
    "Mulldrifter",
    "Negate",
    "Preordain",
    "Sea Gate Oracle",
    "Snap",
    "Sunscape Familiar",
    "Kenku Artificer",
    "Myr Enforcer",
]
POOL_TEXT = (
    "\n".join(
        [f"2 {name}" for name in TWICE] + [f"1 {name}" for name in ONCE] + ["6 Chain Lightning", "1 Forest"]
    )
    + "\n"
)
DECK_A = "6 Chain Lightning\n" + "".join(f"1 {name}\n" for name in TWICE[:17]) + "17 Mountain\n"
"""40 cards: all six Chain Lightning, one each of the first 17 doubles, 17 Mountains."""
DECK_B = "".join(f"1 {name}\n" for name in TWICE[:23]) + "17 Island\n"
"""40 cards: one each of the first 23 doubles, 17 Islands."""


def pool_url(tournament, team) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/teams/{team.pk}/pool/"


def team_url(tournament, team) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/teams/{team.pk}/decklists/"


def submit_url(tournament) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/decklists/"


@pytest.fixture
def sealed(event: Event) -> Event:
    event.tournament.format = "sealed"
    event.tournament.save(update_fields=["format"])
    return event


def register_and_submit(event: Event, client_for, deck_a: str = DECK_A, deck_b: str = DECK_B) -> dict:
    """The pool and both decks, each sent by its own player; returns the team verdict."""
    pool = client_for(event.player_user).post(
        pool_url(event.tournament, event.team), {"text": POOL_TEXT}, format="json"
    )
    assert pool.status_code == 201, pool.data
    for user, player, text in ((event.player_user, event.a, deck_a), (event.teammate_user, event.b, deck_b)):
        response = client_for(user).post(
            submit_url(event.tournament), {"player": player.pk, "text": text}, format="json"
        )
        assert response.status_code == 201, response.data
    return client_for(event.player_user).get(team_url(event.tournament, event.team)).data


def both_names(event: Event) -> str:
    """The two players as the domain lists them: sorted by their labels."""
    return ", ".join(p.name for p in sorted((event.a, event.b), key=lambda p: f"⟨{p.pk}⟩"))


def test_registering_a_pool_answers_its_cards_and_the_sealed_booster_default(sealed, client_for):
    response = client_for(sealed.player_user).post(
        pool_url(sealed.tournament, sealed.team), {"text": POOL_TEXT}, format="json"
    )

    assert response.status_code == 201
    expected = sorted(
        [{"count": 2, "name": name} for name in TWICE]
        + [{"count": 1, "name": name} for name in ONCE]
        + [{"count": 6, "name": "Chain Lightning"}, {"count": 1, "name": "Forest"}],
        key=lambda row: row["name"],
    )
    assert response.data == {
        "id": sealed.team.pool.pk,
        "version": 1,
        "valid": True,
        "boosters": 8,
        "errors": [],
        "cards": expected,
    }
    assert sum(row["count"] for row in response.data["cards"]) == 97


def test_draft_pool_defaults_to_six_boosters_and_an_explicit_count_is_kept(sealed, client_for):
    sealed.tournament.format = "draft"
    sealed.tournament.save(update_fields=["format"])
    client = client_for(sealed.teammate_user)

    default = client.post(pool_url(sealed.tournament, sealed.team), {"text": POOL_TEXT}, format="json")
    explicit = client.post(
        pool_url(sealed.tournament, sealed.team), {"text": POOL_TEXT, "boosters": 12}, format="json"
    )

    assert (default.data["version"], default.data["boosters"]) == (1, 6)
    assert (explicit.data["version"], explicit.data["boosters"]) == (2, 12)


def test_zero_boosters_is_a_400(sealed, client_for):
    response = client_for(sealed.player_user).post(
        pool_url(sealed.tournament, sealed.team), {"text": POOL_TEXT, "boosters": 0}, format="json"
    )
    assert response.status_code == 400


def test_two_decks_from_the_pool_are_legal_and_leave_the_exact_shared_sideboard(sealed, client_for):
    body = register_and_submit(sealed, client_for)

    assert body["errors"] == []
    assert body["valid"] is True
    assert body["pool"]["version"] == 1
    expected = sorted(
        [{"count": 1, "name": name} for name in TWICE[17:23]]
        + [{"count": 2, "name": name} for name in TWICE[23:]]
        + [{"count": 1, "name": name} for name in ONCE]
        + [{"count": 1, "name": "Forest"}],
        key=lambda row: row["name"],
    )
    assert body["shared_sideboard"] == expected
    assert sum(row["count"] for row in body["shared_sideboard"]) == 97 - 23 - 23


def test_a_card_not_in_the_pool_is_named_with_its_player(sealed, client_for):
    deck_b = DECK_B.replace("17 Island", "16 Island\n1 Counterspell")

    body = register_and_submit(sealed, client_for, deck_b=deck_b)

    assert body["valid"] is False
    assert body["errors"] == [
        {
            "code": "NOT_IN_POOL",
            "card": "Counterspell",
            "players": [sealed.b.pk],
            "message": f"{sealed.b.name}: Counterspell is not in the team's pool.",
        }
    ]


def test_both_players_using_the_last_copy_is_over_the_pool_count(sealed, client_for):
    deck_a = DECK_A.replace("17 Mountain", "16 Mountain\n1 Mulldrifter")
    deck_b = DECK_B.replace("17 Island", "16 Island\n1 Mulldrifter")

    body = register_and_submit(sealed, client_for, deck_a=deck_a, deck_b=deck_b)

    assert body["errors"] == [
        {
            "code": "OVER_POOL_COUNT",
            "card": "Mulldrifter",
            "players": sorted([sealed.a.pk, sealed.b.pk]),
            "message": f"{both_names(sealed)}: 2 copies of Mulldrifter in the team's decks; the pool has 1.",
        }
    ]
    assert {"count": 1, "name": "Mulldrifter"} not in body["shared_sideboard"]


def test_no_four_copy_limit_but_the_pools_count_still_caps(sealed, client_for):
    deck_b = DECK_B.replace("17 Island", "16 Island\n1 Chain Lightning")

    body = register_and_submit(sealed, client_for, deck_b=deck_b)

    assert body["errors"] == [
        {
            "code": "OVER_POOL_COUNT",
            "card": "Chain Lightning",
            "players": sorted([sealed.a.pk, sealed.b.pk]),
            "message": f"{both_names(sealed)}: 7 copies of Chain Lightning in the team's decks; the pool has 6.",
        }
    ]


@pytest.mark.parametrize("basic", ["Wastes", "Snow-Covered Forest"])
def test_only_the_five_basic_land_types_may_be_added(sealed, client_for, basic):
    deck_a = DECK_A.replace("17 Mountain", f"17 {basic}")

    body = register_and_submit(sealed, client_for, deck_a=deck_a)

    assert body["errors"] == [
        {
            "code": "NOT_IN_POOL",
            "card": basic,
            "players": [sealed.a.pk],
            "message": f"{sealed.a.name}: {basic} is not in the team's pool.",
        }
    ]


def test_decks_without_a_registered_pool_get_a_team_level_error(sealed, client_for):
    for user, player, text in (
        (sealed.player_user, sealed.a, DECK_A),
        (sealed.teammate_user, sealed.b, DECK_B),
    ):
        client_for(user).post(
            submit_url(sealed.tournament), {"player": player.pk, "text": text}, format="json"
        )

    body = client_for(sealed.player_user).get(team_url(sealed.tournament, sealed.team)).data

    assert body["valid"] is False
    assert body["pool"] is None
    assert body["shared_sideboard"] == []
    assert body["errors"] == [
        {
            "code": "POOL_MISSING",
            "card": None,
            "players": [],
            "message": "The team has not registered its pool.",
        }
    ]


def test_pool_with_a_typo_gets_a_line_error_and_blocks_the_pool_check(sealed, client_for):
    text = POOL_TEXT.replace("1 Mulldrifter", "1 Mulldrifer")
    line = text.splitlines().index("1 Mulldrifer") + 1

    response = client_for(sealed.player_user).post(
        pool_url(sealed.tournament, sealed.team), {"text": text}, format="json"
    )
    body = client_for(sealed.player_user).get(team_url(sealed.tournament, sealed.team)).data

    assert response.status_code == 201
    assert (response.data["valid"], response.data["cards"]) == (False, [])
    [error] = response.data["errors"]
    assert (error["line"], error["code"], error["card"]) == (line, "UNKNOWN_CARD", "Mulldrifer")
    assert error["suggestions"][0] == "Mulldrifter"
    assert [e["code"] for e in body["errors"]] == ["POOL_INVALID", "DECKLIST_MISSING", "DECKLIST_MISSING"]


def test_preview_shows_pool_errors_while_typing(sealed, client_for):
    client_for(sealed.player_user).post(
        pool_url(sealed.tournament, sealed.team), {"text": POOL_TEXT}, format="json"
    )
    client_for(sealed.teammate_user).post(
        submit_url(sealed.tournament), {"player": sealed.b.pk, "text": DECK_B}, format="json"
    )

    response = client_for(sealed.player_user).post(
        f"{submit_url(sealed.tournament)}preview/",
        {"player": sealed.a.pk, "text": DECK_A.replace("17 Mountain", "16 Mountain\n1 Counterspell")},
        format="json",
    )

    assert response.data["valid"] is True
    assert [(e["code"], e["card"], e["players"]) for e in response.data["team_errors"]] == [
        ("NOT_IN_POOL", "Counterspell", [sealed.a.pk])
    ]


def test_a_constructed_event_has_no_pool(event, client_for):
    response = client_for(event.player_user).post(
        pool_url(event.tournament, event.team), {"text": POOL_TEXT}, format="json"
    )

    assert response.status_code == 400
    assert (
        response.data["detail"] == "Only Sealed and Draft events register a team pool; this event is Modern."
    )
    assert (
        client_for(event.player_user).get(team_url(event.tournament, event.team)).data["shared_sideboard"]
        == []
    )


@pytest.mark.parametrize(
    "who, post_status, get_status",
    [
        ("player_user", 201, 200),
        ("teammate_user", 201, 200),
        ("other_user", 403, 403),
        ("organizer", 201, 200),
        ("judge", 201, 200),
        ("scorekeeper", 201, 200),
        (None, 403, 403),
    ],
)
def test_who_may_register_and_read_a_teams_pool(sealed, client_for, who, post_status, get_status):
    client_for(sealed.player_user).post(
        pool_url(sealed.tournament, sealed.team), {"text": "1 Negate"}, format="json"
    )
    client = client_for(getattr(sealed, who) if who else None)

    posted = client.post(pool_url(sealed.tournament, sealed.team), {"text": POOL_TEXT}, format="json")
    read = client.get(pool_url(sealed.tournament, sealed.team))

    assert (posted.status_code, read.status_code) == (post_status, get_status)


def test_reading_a_pool_gives_the_current_version_and_every_version(sealed, client_for):
    client = client_for(sealed.player_user)
    assert client.get(pool_url(sealed.tournament, sealed.team)).status_code == 404
    client.post(pool_url(sealed.tournament, sealed.team), {"text": "1 Negate"}, format="json")
    client.post(pool_url(sealed.tournament, sealed.team), {"text": "2 Negate\n1 Snap"}, format="json")

    body = client.get(pool_url(sealed.tournament, sealed.team)).data

    assert (body["id"], body["team"]) == (sealed.team.pool.pk, sealed.team.pk)
    assert body["current"] == {
        "id": sealed.team.pool.pk,
        "version": 2,
        "valid": True,
        "boosters": 8,
        "cards": [{"count": 2, "name": "Negate"}, {"count": 1, "name": "Snap"}],
        "errors": [],
    }
    assert [(v["number"], v["text"], v["submitted_by"]) for v in body["versions"]] == [
        (1, "1 Negate", sealed.player_user.username),
        (2, "2 Negate\n1 Snap", sealed.player_user.username),
    ]


def test_staff_registering_for_a_team_is_audited(sealed, client_for):
    client_for(sealed.scorekeeper).post(
        pool_url(sealed.tournament, sealed.team), {"text": "1 Negate"}, format="json"
    )

    entry = AuditEntry.objects.get(action="pool_register_for_team")
    assert (entry.actor, entry.before, entry.after) == (
        sealed.scorekeeper,
        None,
        {"version": 1, "valid": True, "boosters": 8, "team": sealed.team.pk},
    )


def test_pool_locks_at_the_deadline_judge_corrects_with_reason(sealed, client_for):
    player = client_for(sealed.player_user)
    player.post(pool_url(sealed.tournament, sealed.team), {"text": "1 Negate"}, format="json")
    sealed.tournament.decklist_deadline = timezone.now() - datetime.timedelta(minutes=1)
    sealed.tournament.save(update_fields=["decklist_deadline"])
    judge = client_for(sealed.judge)

    late = player.post(pool_url(sealed.tournament, sealed.team), {"text": "2 Negate"}, format="json")
    no_reason = judge.post(pool_url(sealed.tournament, sealed.team), {"text": "2 Negate"}, format="json")
    scorekeeper = client_for(sealed.scorekeeper).post(
        pool_url(sealed.tournament, sealed.team), {"text": "2 Negate", "reason": "x"}, format="json"
    )
    fixed = judge.post(
        pool_url(sealed.tournament, sealed.team),
        {"text": "2 Negate", "reason": "Second Negate was left off the sheet"},
        format="json",
    )

    assert late.status_code == 409
    assert late.data["detail"] == (
        "Decklists are locked: the decklist deadline has passed. Ask a judge to correct the pool."
    )
    assert no_reason.status_code == 400
    assert no_reason.data["errors"] == [{"field": "reason", "message": "required after the deadline"}]
    assert scorekeeper.status_code == 409
    assert (fixed.status_code, fixed.data["version"]) == (201, 2)
    entry = AuditEntry.objects.get(action="pool_change_after_deadline")
    assert (entry.actor, entry.reason, entry.before, entry.after) == (
        sealed.judge,
        "Second Negate was left off the sheet",
        {"version": 1, "valid": True, "boosters": 8},
        {"version": 2, "valid": True, "boosters": 8, "team": sealed.team.pk},
    )


def test_pairing_round_one_locks_the_pool_when_no_deadline_is_set(sealed, client_for):
    RoundFactory(tournament=sealed.tournament)

    response = client_for(sealed.player_user).post(
        pool_url(sealed.tournament, sealed.team), {"text": "1 Negate"}, format="json"
    )

    assert response.status_code == 409


@pytest.mark.parametrize("lists", [0, 2])
def test_limited_team_view_costs_one_query_more_for_the_pool(
    sealed, client_for, django_assert_num_queries, lists
):
    client_for(sealed.player_user).post(
        pool_url(sealed.tournament, sealed.team), {"text": POOL_TEXT}, format="json"
    )
    for user, player, text in (
        (sealed.player_user, sealed.a, DECK_A),
        (sealed.teammate_user, sealed.b, DECK_B),
    )[:lists]:
        client_for(user).post(
            submit_url(sealed.tournament), {"player": player.pk, "text": text}, format="json"
        )
    client = client_for(sealed.organizer)

    with django_assert_num_queries(6):
        response = client.get(team_url(sealed.tournament, sealed.team))

    assert len(response.data["shared_sideboard"]) == (50 + 2 if lists == 0 else 40 - 17 + 10 + 1)


def test_player_page_has_the_pool_box_above_the_deck_box_and_shows_the_shared_sideboard(sealed, client_for):
    register_and_submit(sealed, client_for)
    client = Client()
    client.force_login(sealed.player_user)

    text = client.get(f"/events/{sealed.tournament.pk}/decklists/").content.decode()

    assert text.index('id="pool-text"') < text.index('id="decklist-text"')
    assert f'name="pool" spellcheck="false">{escape(POOL_TEXT)}</textarea>' in text
    assert 'name="boosters" type="number" min="1" max="99" value="8"' in text
    sideboard = text[text.index('id="shared-sideboard"') :]
    sideboard = sideboard[: sideboard.index("</article>")]
    assert sideboard.count("<li>") == 34
    assert f"<li>2 {escape(TWICE[-1])}</li>" in sideboard and "<li>1 Forest</li>" in sideboard


def test_player_page_without_a_pool_says_so_and_a_locked_event_has_no_pool_box(sealed):
    client = Client()
    client.force_login(sealed.teammate_user)
    page = client.get(f"/events/{sealed.tournament.pk}/decklists/").content.decode()
    assert 'id="pool-text"' in page and "No pool registered." in page

    sealed.tournament.decklist_deadline = timezone.now() - datetime.timedelta(hours=1)
    sealed.tournament.save(update_fields=["decklist_deadline"])
    locked = client.get(f"/events/{sealed.tournament.pk}/decklists/").content.decode()
    assert 'id="pool-text"' not in locked and "No pool registered." in locked
    client.force_login(sealed.judge)
    judge = client.get(
        f"/events/{sealed.tournament.pk}/decklists/judge/?team={sealed.team.pk}"
    ).content.decode()
    assert "The team has not registered its pool." in judge and 'id="shared-sideboard"' in judge


def test_constructed_player_page_has_no_pool(event):
    client = Client()
    client.force_login(event.player_user)
    text = client.get(f"/events/{event.tournament.pk}/decklists/").content.decode()
    assert 'id="pool-text"' not in text and 'id="shared-sideboard"' not in text
