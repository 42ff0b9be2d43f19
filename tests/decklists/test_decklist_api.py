"""Decklist API: real lists submitted as teams, errors for bad input, the deadline lock, who sees what."""

from __future__ import annotations

import datetime
import json
from itertools import combinations
from pathlib import Path

import pytest
from django.utils import timezone

from decklists.domain import BAN_HISTORY_PATH, CardIndex
from tests.decklists.realdata import real_decklists
from tests.factories import TeamFactory, TournamentFactory
from tournaments.models import AuditEntry, Player

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

LINE_CODES = {
    "PARSE_EMPTY",
    "PARSE_TOO_LONG",
    "PARSE_TOO_MANY_LINES",
    "PARSE_INVALID_CHARACTER",
    "PARSE_MISSING_COUNT",
    "PARSE_BAD_COUNT",
    "PARSE_COUNT_TOO_LARGE",
    "PARSE_MISSING_NAME",
    "PARSE_BAD_CSV",
    "PARSE_NO_CARDS",
    "UNKNOWN_CARD",
    "AMBIGUOUS_CARD",
}


def submit_url(tournament) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/decklists/"


def team_url(tournament, team) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/teams/{team.pk}/decklists/"


def main_text(record) -> str:
    """The main deck only, as MTGO prints it: 2HG Constructed has no sideboard."""
    return "\n".join(f"{count} {name}" for count, name in record["main"]) + "\n"


def canonical_non_basics(record, index: CardIndex) -> dict[str, int]:
    """Independent of the UDC code: resolve names, drop cards whose type line says Basic."""
    counts: dict[str, int] = {}
    for count, name in record["main"]:
        card = index.get(name)
        assert card is not None, name
        if "Basic" in card.type_line.split(" // ")[0].split("—")[0].split():
            continue
        counts[card.name] = counts.get(card.name, 0) + count
    return counts


def by_format(fmt: str) -> list[dict]:
    return [r for r in real_decklists() if r["format"] == fmt]


@pytest.mark.parametrize("fmt", ["modern", "pioneer", "pauper"])
def test_real_lists_as_teams_parse_cleanly_and_udc_equals_set_intersection(fmt, client_for, index, db):
    records = by_format(fmt)
    tournament = TournamentFactory(format=fmt)
    staff = tournament.created_by
    from tests.factories import StaffFactory

    StaffFactory(tournament=tournament, user=staff, role="organizer")
    client = client_for(staff)
    for first, second in zip(records[0::2], records[1::2], strict=True):
        team = TeamFactory(tournament=tournament)
        a, b = team.players.order_by("position")
        for player, record in ((a, first), (b, second)):
            response = client.post(
                submit_url(tournament), {"player": player.pk, "text": main_text(record)}, format="json"
            )
            assert response.status_code == 201, response.data
            assert [e for e in response.data["errors"] if e["code"] in LINE_CODES] == []
            assert sum(c["count"] for c in response.data["cards"]) == sum(n for n, _ in record["main"])
        verdict = client.get(team_url(tournament, team)).data
        shared = sorted(set(canonical_non_basics(first, index)) & set(canonical_non_basics(second, index)))
        udc = sorted(e["card"] for e in verdict["errors"] if e["code"] == "UDC_SHARED_CARD")
        assert udc == shared, (first["source"]["deck_url"], second["source"]["deck_url"])
        assert all(
            e["players"] == sorted([a.pk, b.pk]) for e in verdict["errors"] if e["code"] == "UDC_SHARED_CARD"
        )
        assert verdict["udc_applied"] is True


def test_real_lists_legacy4_udc_equals_combined_count_check(client_for, index, db):
    records = by_format("modern")[:40]
    tournament = TournamentFactory(udc_mode="legacy4")
    from tests.factories import StaffFactory

    StaffFactory(tournament=tournament, user=tournament.created_by, role="organizer")
    client = client_for(tournament.created_by)
    checked = 0
    for first, second in combinations(records[:12], 2):
        team = TeamFactory(tournament=tournament)
        a, b = team.players.order_by("position")
        for player, record in ((a, first), (b, second)):
            client.post(
                submit_url(tournament), {"player": player.pk, "text": main_text(record)}, format="json"
            )
        verdict = client.get(team_url(tournament, team)).data
        one, two = canonical_non_basics(first, index), canonical_non_basics(second, index)
        expected = sorted(
            name
            for name in set(one) & set(two)
            if one[name] + two[name] > (index.get(name).max_copies or 10**9)
            and index.get(name).legality("modern") != "restricted"
        )
        got = sorted(e["card"] for e in verdict["errors"] if e["code"] == "UDC_OVER_4_COMBINED")
        assert got == expected
        checked += 1
    assert checked == 66


def test_submit_answers_the_documented_shape(event, client_for):
    text = "4 Lightning Bolt\n56 Mountain\n"
    response = client_for(event.player_user).post(
        submit_url(event.tournament), {"player": event.a.pk, "text": text}
    )
    assert response.status_code == 201
    assert response.data == {
        "id": event.a.decklist.pk,
        "version": 1,
        "valid": True,
        "errors": [],
        "cards": [
            {"count": 4, "name": "Lightning Bolt", "section": "main"},
            {"count": 56, "name": "Mountain", "section": "main"},
        ],
    }


def test_misspelled_name_gets_line_numbered_error_with_suggestion(event, client_for):
    text = "56 Mountain\n4 Lightnig Bolt\n"
    response = client_for(event.player_user).post(
        submit_url(event.tournament), {"player": event.a.pk, "text": text}
    )
    assert response.status_code == 201
    assert response.data["valid"] is False
    [error] = response.data["errors"]
    assert (error["line"], error["code"], error["card"]) == (2, "UNKNOWN_CARD", "Lightnig Bolt")
    assert error["suggestions"][0] == "Lightning Bolt"
    assert "did you mean 'Lightning Bolt'" in error["message"]


def test_every_line_error_carries_the_text_of_its_line_in_every_answer(event, client_for):
    text = "56 Mountain\n\n4   Lightnig Bolt\n"
    client = client_for(event.player_user)

    submitted = client.post(submit_url(event.tournament), {"player": event.a.pk, "text": text}).data
    previewed = client.post(
        f"{submit_url(event.tournament)}preview/", {"player": event.a.pk, "text": text}
    ).data
    team = client.get(team_url(event.tournament, event.team)).data
    detail = client.get(f"{submit_url(event.tournament)}{submitted['id']}/").data

    row = {
        "line": 3,
        "line_text": "4 Lightnig Bolt",
        "code": "UNKNOWN_CARD",
        "message": (
            "Line 3: unknown card 'Lightnig Bolt' "
            "(did you mean 'Lightning Bolt' or 'Lightning Colt' or 'Lightning Blast'?)."
        ),
        "card": "Lightnig Bolt",
        "suggestions": ["Lightning Bolt", "Lightning Colt", "Lightning Blast"],
    }
    assert submitted["errors"] == [row]
    assert previewed["errors"] == [row]
    assert team["decklists"][0]["errors"] == [row]
    assert detail["versions"][0]["errors"] == [row]
    [stored] = Player.objects.get(pk=event.a.pk).decklist.current.errors
    assert {key: value for key, value in stored.items() if key != "i18n"} == row
    assert stored["i18n"]["msgid"] == "Line %(line)s: %(problem)s"  # what translates it when read


def test_deck_level_error_carries_the_text_of_the_cards_first_line(event, client_for):
    text = "52 Mountain\n8 Lightning Bolt\n"
    response = client_for(event.player_user).post(
        submit_url(event.tournament), {"player": event.a.pk, "text": text}
    )
    [error] = response.data["errors"]
    assert (error["line"], error["line_text"], error["code"]) == (2, "8 Lightning Bolt", "TOO_MANY_COPIES")


def test_a_4900_character_line_comes_back_cut_to_200_characters(event, client_for):
    long_line = "4 " + "Lightning Bolt " * 326
    response = client_for(event.player_user).post(
        submit_url(event.tournament), {"player": event.a.pk, "text": f"56 Mountain\n{long_line}\n"}
    )

    assert response.status_code == 201
    [error] = response.data["errors"]
    assert error["line"] == 2
    assert error["line_text"] == long_line.strip()[:200] + "…"
    assert len(error["message"]) < 300
    assert long_line.strip()[:201] not in error["message"]
    assert error["card"] == long_line.strip()[2:202] + "…"


def test_deck_level_error_points_at_the_cards_line(event, client_for):
    text = "52 Mountain\n8 Lightning Bolt\n"
    response = client_for(event.player_user).post(
        submit_url(event.tournament), {"player": event.a.pk, "text": text}
    )
    [error] = response.data["errors"]
    assert (error["line"], error["code"]) == (2, "TOO_MANY_COPIES")
    assert (
        error["message"] == "Team 0 A: 8 copies of Lightning Bolt; the normal limit is 4."
        or "8 copies" in error["message"]
    )
    assert event.a.name in error["message"]


@pytest.mark.parametrize(
    "text, code",
    [
        ("", "PARSE_EMPTY"),
        ("lorem ipsum dolor sit amet\n", "PARSE_MISSING_COUNT"),
        ("4\n", "PARSE_MISSING_NAME"),
        ("-3 Lightning Bolt\n", "PARSE_BAD_COUNT"),
        ("999999999999999999999 Island\n", "PARSE_COUNT_TOO_LARGE"),
        ("4 Lightning Bolt\x07\n", "PARSE_INVALID_CHARACTER"),
        (bytes(range(1, 256)).decode("latin-1"), "PARSE_INVALID_CHARACTER"),
        ("\n".join(["1 Island"] * 600), "PARSE_TOO_MANY_LINES"),
    ],
)
def test_garbage_is_stored_with_errors_not_a_500(event, client_for, text, code):
    response = client_for(event.player_user).post(
        submit_url(event.tournament), {"player": event.a.pk, "text": text}
    )
    assert response.status_code == 201
    assert response.data["valid"] is False
    assert code in {e["code"] for e in response.data["errors"]}


@pytest.mark.parametrize(
    "text, code",
    [
        ("4 Island\n" * 3000, "PARSE_TOO_LONG"),
        ("4 Island\\u0000\\u0000\\u0001binary", "PARSE_INVALID_CHARACTER"),
        ("4 Island \\ud800", "PARSE_INVALID_CHARACTER"),
    ],
)
def test_oversized_or_binary_text_is_a_400_naming_the_problem(event, client_for, text, code):
    escaped = text.replace("\n", "\\n")
    body = f'{{"player": {event.a.pk}, "text": "{escaped}"}}'
    response = client_for(event.player_user).post(
        submit_url(event.tournament), body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.data["errors"][0].get("code", "text") in (code, "text")
    assert response.data["errors"][0].get("field", "text") == "text"
    assert not Player.objects.filter(decklist__isnull=False).exists()


def test_malformed_body_is_a_400(event, client_for):
    client = client_for(event.player_user)
    response = client.post(submit_url(event.tournament), {"player": "x", "text": ["4 Island"]}, format="json")
    assert response.status_code == 400
    assert {e["field"] for e in response.data["errors"]} == {"player", "text"}


def test_player_is_locked_out_after_the_deadline_judge_corrects_with_reason(event, client_for):
    client = client_for(event.player_user)
    assert (
        client.post(submit_url(event.tournament), {"player": event.a.pk, "text": "60 Island"}).status_code
        == 201
    )
    event.tournament.decklist_deadline = timezone.now() - datetime.timedelta(minutes=1)
    event.tournament.save()

    late = client.post(submit_url(event.tournament), {"player": event.a.pk, "text": "60 Mountain"})
    assert late.status_code == 409
    judge = client_for(event.judge)
    no_reason = judge.post(submit_url(event.tournament), {"player": event.a.pk, "text": "60 Mountain"})
    assert no_reason.status_code == 400
    assert no_reason.data["errors"] == [{"field": "reason", "message": "required after the deadline"}]
    scorekeeper = client_for(event.scorekeeper)
    assert (
        scorekeeper.post(
            submit_url(event.tournament), {"player": event.a.pk, "text": "60 Mountain", "reason": "x"}
        ).status_code
        == 409
    )

    fixed = judge.post(
        submit_url(event.tournament),
        {"player": event.a.pk, "text": "60 Mountain", "reason": "Player registered Islands by mistake"},
    )
    assert fixed.status_code == 201
    assert fixed.data["version"] == 2
    entry = AuditEntry.objects.get(action="decklist_change_after_deadline")
    assert (entry.actor, entry.reason, entry.before, entry.after) == (
        event.judge,
        "Player registered Islands by mistake",
        {"version": 1, "valid": True},
        {"version": 2, "valid": True, "player": event.a.pk},
    )
    detail = judge.get(f"{submit_url(event.tournament)}{fixed.data['id']}/")
    assert [(v["number"], v["text"], v["reason"]) for v in detail.data["versions"]] == [
        (1, "60 Island", ""),
        (2, "60 Mountain", "Player registered Islands by mistake"),
    ]


def test_pairing_round_one_locks_lists_when_no_deadline_is_set(event, client_for):
    from tests.factories import RoundFactory

    RoundFactory(tournament=event.tournament)
    response = client_for(event.player_user).post(
        submit_url(event.tournament), {"player": event.a.pk, "text": "60 Island"}
    )
    assert response.status_code == 409


@pytest.mark.parametrize(
    "who, status",
    [("player_user", 201), ("teammate_user", 403), ("other_user", 403), ("scorekeeper", 201), ("judge", 201)],
)
def test_who_may_submit_a_players_list(event, client_for, who, status):
    response = client_for(getattr(event, who)).post(
        submit_url(event.tournament), {"player": event.a.pk, "text": "60 Island"}
    )
    assert response.status_code == status


def test_anonymous_may_not_submit(event, client_for):
    response = client_for(None).post(
        submit_url(event.tournament), {"player": event.a.pk, "text": "60 Island"}
    )
    assert response.status_code in (401, 403)


@pytest.mark.parametrize(
    "who, status",
    [
        ("player_user", 200),
        ("teammate_user", 200),
        ("other_user", 403),
        ("organizer", 200),
        ("judge", 200),
        (None, 403),
    ],
)
def test_who_may_read_a_teams_lists(event, client_for, who, status):
    client_for(event.player_user).post(
        submit_url(event.tournament), {"player": event.a.pk, "text": "60 Island"}
    )
    user = getattr(event, who) if who else None
    assert client_for(user).get(team_url(event.tournament, event.team)).status_code == status
    decklist_id = event.a.decklist.pk
    assert client_for(user).get(f"{submit_url(event.tournament)}{decklist_id}/").status_code == status


def test_published_lists_are_public_after_the_event_only(event, client_for):
    client_for(event.player_user).post(
        submit_url(event.tournament), {"player": event.a.pk, "text": "60 Island"}
    )
    event.tournament.decklists_published = True
    event.tournament.save()
    assert client_for(None).get(team_url(event.tournament, event.team)).status_code == 403
    event.tournament.status = "finished"
    event.tournament.save()
    assert client_for(None).get(team_url(event.tournament, event.team)).status_code == 200


def test_team_view_reports_missing_list_and_udc_conflict_by_player_id(event, client_for):
    client_for(event.player_user).post(
        submit_url(event.tournament), {"player": event.a.pk, "text": "4 Lightning Bolt\n56 Mountain"}
    )
    body = client_for(event.player_user).get(team_url(event.tournament, event.team)).data
    assert body["valid"] is False
    assert body["errors"] == [
        {
            "code": "DECKLIST_MISSING",
            "card": None,
            "players": [event.b.pk],
            "message": f"{event.b.name} has not submitted a decklist.",
        }
    ]
    client_for(event.teammate_user).post(
        submit_url(event.tournament), {"player": event.b.pk, "text": "4 Lightning Bolt\n56 Mountain"}
    )
    body = client_for(event.player_user).get(team_url(event.tournament, event.team)).data
    [error] = body["errors"]
    assert (error["code"], error["card"], error["players"]) == (
        "UDC_SHARED_CARD",
        "Lightning Bolt",
        sorted([event.a.pk, event.b.pk]),
    )
    assert event.a.name in error["message"] and event.b.name in error["message"]
    assert [(d["player"], d["version"], d["valid"]) for d in body["decklists"]] == [
        (event.a.pk, 1, True),
        (event.b.pk, 1, True),
    ]


def test_preview_checks_without_saving_and_shows_the_teams_conflicts(event, client_for):
    client_for(event.teammate_user).post(
        submit_url(event.tournament), {"player": event.b.pk, "text": "4 Lightning Bolt\n56 Mountain"}
    )
    response = client_for(event.player_user).post(
        f"{submit_url(event.tournament)}preview/",
        {"player": event.a.pk, "text": "4 Lightning Bolt\n4 Lava Spike\n52 Mountain\n1 Lightnig Helix"},
    )
    assert response.status_code == 200
    assert [(e["line"], e["code"]) for e in response.data["errors"]] == [(4, "UNKNOWN_CARD")]
    assert response.data["errors"][0]["suggestions"][0] == "Lightning Helix"
    response = client_for(event.player_user).post(
        f"{submit_url(event.tournament)}preview/",
        {"player": event.a.pk, "text": "4 Lightning Bolt\n4 Lava Spike\n52 Mountain"},
    )
    assert [(e["code"], e["card"]) for e in response.data["team_errors"]] == [
        ("UDC_SHARED_CARD", "Lightning Bolt")
    ]
    assert not hasattr(Player.objects.get(pk=event.a.pk), "decklist")


def test_preview_is_for_the_events_players_and_staff(event, client_for, db):
    outsider = TeamFactory().players.first()
    from tests.factories import UserFactory

    stranger = UserFactory()
    Player.objects.filter(pk=outsider.pk).update(user=stranger)
    url = f"{submit_url(event.tournament)}preview/"
    assert client_for(stranger).post(url, {"text": "4 Island"}).status_code == 403
    assert (
        client_for(event.other_user).post(url, {"text": "4 Island", "player": event.a.pk}).status_code == 403
    )
    assert client_for(event.judge).post(url, {"text": "4 Island", "player": event.a.pk}).status_code == 200


@pytest.mark.parametrize("lists", [1, 3])
def test_team_lists_query_count_does_not_grow_with_lists(client_for, django_assert_num_queries, db, lists):
    tournament = TournamentFactory(team_size=3)
    from tests.factories import StaffFactory

    StaffFactory(tournament=tournament, user=tournament.created_by, role="organizer")
    team = TeamFactory(tournament=tournament)
    client = client_for(tournament.created_by)
    for player, text in zip(
        team.players.order_by("position")[:lists],
        ["4 Lightning Bolt\n56 Mountain", "4 Counterspell\n56 Island", "4 Swords to Plowshares\n56 Plains"],
        strict=False,
    ):
        client.post(submit_url(tournament), {"player": player.pk, "text": text})
    with django_assert_num_queries(5):
        response = client.get(team_url(tournament, team))
    assert len([d for d in response.data["decklists"] if d["id"]]) == lists


@pytest.mark.parametrize(
    ("event_date", "codes"),
    [(datetime.date(2026, 8, 9), []), (datetime.date(2026, 8, 10), ["BANNED"]), (None, ["BANNED"])],
)
def test_a_list_is_checked_against_the_lists_in_force_on_the_events_date(
    event, client_for, event_date, codes
):
    """Badgermole Cub was banned in Standard on 2026-08-10 (the snapshot's history); an event
    without a date is checked against today's lists."""
    event.tournament.format = "standard"
    event.tournament.date = event_date
    event.tournament.save()

    response = client_for(event.player_user).post(
        submit_url(event.tournament), {"player": event.a.pk, "text": "4 Badgermole Cub\n56 Forest\n"}
    )

    assert response.status_code == 201
    assert [e["code"] for e in response.data["errors"]] == codes
    assert response.data["valid"] is (codes == [])


# The issue's cards, each in its format: every change the shipped history records for them.
PROBED_CARDS = {
    ("modern", "Phlage, Titan of Fire's Fury"),
    ("modern", "Violent Outburst"),
    ("modern", "Umezawa's Jitte"),
    ("legacy", "Candelabra of Tawnos"),
    ("pioneer", "Cori-Steel Cutter"),
    ("pauper", "Bonder's Ornament"),
}


def _probed_changes() -> list[tuple[str, str, datetime.date, str, str]]:
    """(format, card, day of the change, status the day before, status from that day) for every
    change of PROBED_CARDS in decklists/data/banlist-history.json, read independently of the
    code under test (the data README's §4 rule: before a card's first change, what it replaced)."""
    changes = json.loads(BAN_HISTORY_PATH.read_text(encoding="utf-8"))["changes"]
    probes = []
    for format_id, card in sorted(PROBED_CARDS):
        mine = sorted(
            (c for c in changes if (c["format"], c["card"]) == (format_id, card)), key=lambda c: c["date"]
        )
        before = "banned" if mine[0]["status"] == "legal" else "legal"
        for change in mine:
            probes.append(
                (format_id, card, datetime.date.fromisoformat(change["date"]), before, change["status"])
            )
            before = change["status"]
    return probes


PROBES = _probed_changes()


def test_the_probes_cover_every_change_of_the_issues_cards():
    """Violent Outburst's 2025 ban and Bonder's Ornament's 2022 ban as well as the 2026 changes."""
    assert len(PROBES) == 8
    assert {(f, c, str(d)) for f, c, d, _, _ in PROBES} >= {
        ("modern", "Violent Outburst", "2025-03-11"),
        ("pauper", "Bonder's Ornament", "2022-01-21"),
    }


@pytest.mark.parametrize(
    ("format_id", "card", "change", "status_before", "status_from"),
    PROBES,
    ids=[f"{f}-{c}-{d}" for f, c, d, _, _ in PROBES],
)
def test_a_list_is_flagged_banned_exactly_while_the_shipped_history_bans_its_card(
    event, client_for, format_id, card, change, status_before, status_from
):
    """The day before and the day of each change, through the API: the live preview, the
    submission's answer and the team's view; a refusal by a dated ban names it ("banned in Modern since 2026-05-18")."""
    event.tournament.format = format_id
    for day, status in ((change - datetime.timedelta(days=1), status_before), (change, status_from)):
        event.tournament.date = day
        event.tournament.save()
        client = client_for(event.player_user)

        text = f"4 {card}\n56 Mountain\n"
        preview = client.post(f"{submit_url(event.tournament)}preview/", {"player": event.a.pk, "text": text})
        response = client.post(submit_url(event.tournament), {"player": event.a.pk, "text": text})
        team = client.get(team_url(event.tournament, event.team)).data

        expected = ["BANNED"] if status == "banned" else []
        assert [e["code"] for e in preview.data["errors"]] == expected, day
        assert response.status_code == 201, response.data
        assert [e["code"] for e in response.data["errors"]] == expected, day
        assert [e["code"] for e in team["errors"] if e["code"] != "DECKLIST_MISSING"] == expected, day
        if status == "banned" and day == change:
            [error] = response.data["errors"]
            assert f"{card}: banned in {format_id.capitalize()} since {change}." in error["message"]


@pytest.mark.parametrize(
    ("submitted_on", "checked_on", "codes"),
    [
        (datetime.date(2026, 5, 18), datetime.date(2026, 5, 17), []),
        (datetime.date(2026, 5, 17), datetime.date(2026, 5, 18), ["BANNED"]),
    ],
)
def test_a_list_shown_after_the_event_date_moved_is_checked_on_the_new_date(
    event, client_for, submitted_on, checked_on, codes
):
    """The organizer corrects the event's date after a list came in: the team's view says of each
    list what the lists in force on the new date say, as its team verdict does."""
    event.tournament.format = "modern"
    event.tournament.date = submitted_on
    event.tournament.save()
    client = client_for(event.player_user)
    client.post(
        submit_url(event.tournament),
        {"player": event.a.pk, "text": "4 Phlage, Titan of Fire's Fury\n56 Mountain\n"},
    )
    event.tournament.date = checked_on
    event.tournament.save()

    team = client.get(team_url(event.tournament, event.team)).data

    [row] = [r for r in team["decklists"] if r["player"] == event.a.pk]
    assert [e["code"] for e in row["errors"]] == codes
    assert row["valid"] is (codes == [])
    assert [e["code"] for e in team["errors"] if e["code"] != "DECKLIST_MISSING"] == codes


def test_the_lists_of_a_real_premodern_event_are_legal_through_the_api_on_its_date(client_for, db):
    """Premodern is a format an event may have (played unsanctioned, MTR 3.2): the 21 lists of the
    real Premodern event in tests/fixtures, each submitted on that event's date, have no refusal."""
    from tests.factories import StaffFactory

    real = json.loads((FIXTURES / "events" / "melee-450124.json").read_text(encoding="utf-8"))
    tournament = TournamentFactory(format="premodern", date=datetime.date.fromisoformat(real["date"][:10]))
    StaffFactory(tournament=tournament, user=tournament.created_by, role="organizer")
    client = client_for(tournament.created_by)
    assert client.get(f"/api/v1/tournaments/{tournament.pk}/").data["format"] == "premodern"
    refused = {}
    for name, record in real["decklists"].items():
        player = TeamFactory(tournament=tournament).players.order_by("position").first()
        response = client.post(submit_url(tournament), {"player": player.pk, "text": main_text(record)})
        assert response.status_code == 201, response.data
        if response.data["errors"]:
            refused[name] = [e["message"] for e in response.data["errors"]]
    assert len(real["decklists"]) == 21
    assert refused == {}
