"""Pairing, re-pairing, late entries, drops, disqualification and the one-round-at-a-time rule."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.test import Client

from common.errors import ConflictError, DomainError
from tests.tournaments.factories import client_for, event_with_teams, register_team
from tournaments.models import AuditEntry, Match, Round, Team
from tournaments.services.manual_pairing import round_pair_manual
from tournaments.services.participation import team_disqualify, team_drop
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_delete, round_pair, round_publish
from tournaments.standings import standings_for


def finish_round(round_obj: Round) -> None:
    """Team A wins every match still without a result."""
    for match in Match.objects.filter(round=round_obj, team_b__isnull=False, confirmed=False):
        match_result_report(
            match=match,
            actor=round_obj.tournament.created_by,
            team_a_wins=1,
            team_b_wins=0,
            draws=0,
            version=match.version,
        )


@pytest.mark.django_db
def test_round_one_fixes_the_chart_and_gives_one_bye():
    tournament = event_with_teams(9)
    round_obj = round_pair(tournament=tournament, actor=tournament.created_by)
    tournament.refresh_from_db()
    assert (tournament.swiss_rounds, tournament.top_cut, tournament.status) == (5, 4, "running")
    byes = Match.objects.filter(round=round_obj, team_b__isnull=True)
    assert [(m.result_kind, m.team_a_wins, m.confirmed) for m in byes] == [("bye", 1, True)]
    assert Match.objects.filter(round=round_obj, team_b__isnull=False).count() == 4
    assert AuditEntry.objects.filter(action="round_pair", object_id=str(round_obj.pk)).count() == 1


@pytest.mark.django_db
def test_second_pair_call_is_refused_while_results_are_missing():
    tournament = event_with_teams(8, swiss_rounds=3)
    client = client_for(tournament.created_by)
    first = client.post(f"/api/v1/tournaments/{tournament.pk}/rounds/", {}, format="json")
    second = client.post(f"/api/v1/tournaments/{tournament.pk}/rounds/", {}, format="json")
    assert (first.status_code, second.status_code) == (201, 409)
    assert Round.objects.filter(tournament=tournament).count() == 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_pair_calls_create_one_round():
    tournament = event_with_teams(8, swiss_rounds=3)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def pair() -> None:
        barrier.wait()
        try:
            round_pair(tournament=tournament, actor=tournament.created_by)
            outcomes.append("paired")
        except ConflictError:
            outcomes.append("409")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=pair) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["409", "paired"]
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert Match.objects.filter(round__tournament=tournament).count() == 4


@pytest.mark.django_db
def test_late_entry_gets_missed_round_losses_or_byes():
    tournament = event_with_teams(8, swiss_rounds=3)
    finish_round(round_pair(tournament=tournament, actor=tournament.created_by))
    finish_round(round_pair(tournament=tournament, actor=tournament.created_by))
    late = register_team(tournament, "Late", actor=tournament.created_by)
    assert late.registered_after_round == 2
    assert list(
        Match.objects.filter(team_a=late)
        .order_by("round__number")
        .values_list("round__number", "result_kind")
    ) == [(1, "missed_round_loss"), (2, "missed_round_loss")]
    row = next(line for line in standings_for(tournament) if line.team_id == late.pk)
    assert (row.match_points, row.losses, str(row.mw), str(row.omw)) == (0, 2, "0.3333", "0.3333")
    tournament.late_entry_missed_rounds = "bye"
    tournament.save()
    lucky = register_team(tournament, "Lucky", actor=tournament.created_by)
    row = next(line for line in standings_for(tournament) if line.team_id == lucky.pk)
    assert (row.match_points, row.byes, str(row.mw)) == (6, 2, "1.0000")


@pytest.mark.django_db
def test_a_missed_round_taken_as_a_bye_scores_like_the_rounds_own_bye_in_best_of_three():
    """One scored bye (Match.unopposed): the pairing's bye and a late entry's missed-round bye both
    win the games needed to win the match, 2 of 3 in an individual event."""
    tournament = event_with_teams(5, team_size=1, swiss_rounds=3, late_entry_missed_rounds="bye")
    first = round_pair(tournament=tournament, actor=tournament.created_by)
    late = register_team(tournament, "Late", actor=tournament.created_by)

    pairing_bye = Match.objects.exclude(team_a=late).get(round=first, team_b=None)
    missed = Match.objects.get(team_a=late)
    assert [(m.result_kind, m.team_a_wins, m.team_b_wins, m.confirmed) for m in (pairing_bye, missed)] == [
        ("bye", 2, 0, True),
        ("bye", 2, 0, True),
    ]


@pytest.mark.django_db
def test_drop_before_round_one_leaves_the_standings_and_after_pairing_takes_effect_next_round():
    tournament = event_with_teams(8, swiss_rounds=3)
    early, late = Team.objects.filter(tournament=tournament).order_by("id")[:2]
    assert team_drop(team=early, actor=tournament.created_by, reason="ill").dropped_after_round == 0
    first = round_pair(tournament=tournament, actor=tournament.created_by)
    assert not Match.objects.filter(round=first, team_a=early).exists()
    assert not Match.objects.filter(round=first, team_b=early).exists()
    assert team_drop(team=late, actor=tournament.created_by, reason="train").dropped_after_round == 1
    finish_round(first)
    second = round_pair(tournament=tournament, actor=tournament.created_by)
    in_round_two = set(Match.objects.filter(round=second).values_list("team_a_id", "team_b_id").distinct())
    assert late.pk not in {team for pair in in_round_two for team in pair}
    standings = {line.team_id: line for line in standings_for(tournament)}
    assert early.pk not in standings
    assert standings[late.pk].dropped is True
    assert AuditEntry.objects.filter(action="team_drop").count() == 2
    with pytest.raises(ConflictError):
        team_drop(team=late, actor=tournament.created_by, reason="again")


@pytest.mark.django_db
def test_disqualification_loses_the_current_match_and_leaves_the_standings():
    tournament = event_with_teams(4, swiss_rounds=3)
    round_obj = round_pair(tournament=tournament, actor=tournament.created_by)
    match = Match.objects.filter(round=round_obj).first()
    cheater = Team.objects.get(pk=match.team_a_id)
    team_disqualify(team=cheater, actor=tournament.created_by, reason="Cheating")
    match.refresh_from_db()
    assert (match.result_kind, match.team_a_wins, match.team_b_wins, match.confirmed) == (
        "penalty_loss",
        0,
        1,
        True,
    )
    cheater.refresh_from_db()
    assert (cheater.disqualified, cheater.dropped_after_round) == (True, 1)
    finish_round(round_obj)
    standings = standings_for(tournament)
    assert cheater.pk not in [line.team_id for line in standings]
    assert [line.rank for line in standings] == [1, 2, 3]
    assert next(line for line in standings if line.team_id == match.team_b_id).match_points == 3
    assert AuditEntry.objects.filter(action="team_disqualify", reason="Cheating").count() == 1


@pytest.mark.django_db
def test_round_with_a_result_cannot_be_repaired():
    tournament = event_with_teams(4, swiss_rounds=3)
    round_obj = round_pair(tournament=tournament, actor=tournament.created_by)
    match = Match.objects.filter(round=round_obj).first()
    match_result_report(
        match=match, actor=tournament.created_by, team_a_wins=1, team_b_wins=0, draws=0, version=1
    )
    with pytest.raises(ConflictError):
        round_delete(round_row=round_obj, actor=tournament.created_by)
    assert Round.objects.filter(pk=round_obj.pk).exists()


@pytest.mark.django_db
def test_repair_reproduces_the_stored_seed_and_status():
    tournament = event_with_teams(6, swiss_rounds=3)
    first = round_pair(tournament=tournament, actor=tournament.created_by)
    tables = list(Match.objects.filter(round=first).values_list("table", "team_a_id", "team_b_id"))
    round_delete(round_row=first, actor=tournament.created_by)
    tournament.refresh_from_db()
    assert tournament.status == "registration"
    again = round_pair(tournament=tournament, actor=tournament.created_by)
    assert again.seed == first.seed
    assert list(Match.objects.filter(round=again).values_list("table", "team_a_id", "team_b_id")) == tables
    entry = AuditEntry.objects.get(action="round_delete")
    assert entry.before["tables"] == [list(row) for row in tables]


@pytest.mark.django_db
@pytest.mark.parametrize("given", [2, 3])
def test_a_manual_round_may_give_several_byes_each_worth_three_points_and_audited(given):
    tournament = event_with_teams(4 + given, swiss_rounds=3)
    ids = list(Team.objects.filter(tournament=tournament).order_by("id").values_list("id", flat=True))
    matches = [
        {"team_a": ids[0], "team_b": ids[1]},
        {"team_a": ids[2], "team_b": ids[3]},
        *({"team_a": team, "team_b": None} for team in ids[4:]),
    ]

    response = client_for(tournament.created_by).post(
        f"/api/v1/tournaments/{tournament.pk}/rounds/",
        {"matches": matches, "reason": "three teams arrived after the round began"},
        format="json",
    )

    assert response.status_code == 201, response.json()
    assert [(m["table"], m["team_b"]) for m in response.json()["matches"]] == [
        (1, ids[1]),
        (2, ids[3]),
        *[(None, None)] * given,
    ]
    byes = Match.objects.filter(round__tournament=tournament, team_b__isnull=True)
    assert sorted((m.team_a_id, m.result_kind, m.confirmed) for m in byes) == [
        (team, "bye", True) for team in ids[4:]
    ]
    points = {row.team_id: row.match_points for row in standings_for(tournament)}
    assert [points[team] for team in ids[4:]] == [3] * given
    audit = AuditEntry.objects.get(action="round_pair_manual")
    assert audit.reason == "three teams arrived after the round began"
    assert [row for row in audit.after["tables"] if row[2] is None] == [
        [None, team, None] for team in ids[4:]
    ]
    round_publish(round_row=Round.objects.get(tournament=tournament, number=1), actor=tournament.created_by)
    page = Client().get(f"/events/{tournament.pk}/rounds/1/").content.decode()
    names = dict(Team.objects.filter(pk__in=ids[4:]).values_list("pk", "name"))
    rows = [row for row in page.split("<tr")[1:] if "Bye" in row]
    assert sorted(name for row in rows for name in names.values() if name in row) == sorted(names.values())
    organizer = Client()
    organizer.force_login(tournament.created_by)
    audit_page = organizer.get(f"/events/{tournament.pk}/audit/").content.decode()
    assert "Round 1 paired by hand" in audit_page
    assert "three teams arrived after the round began" in audit_page


@pytest.mark.django_db
def test_manual_pairing_needs_a_reason_and_every_active_team_once():
    tournament = event_with_teams(4, swiss_rounds=3)
    a, b, c, d = Team.objects.filter(tournament=tournament).order_by("id").values_list("id", flat=True)
    with pytest.raises(DomainError) as no_reason:
        round_pair_manual(
            tournament=tournament, actor=tournament.created_by, matches=[(a, b), (c, d)], reason=" "
        )
    assert no_reason.value.errors == [{"field": "reason", "message": "required"}]
    with pytest.raises(DomainError) as incomplete:
        round_pair_manual(
            tournament=tournament, actor=tournament.created_by, matches=[(a, b), (a, c)], reason="x"
        )
    names = dict(Team.objects.filter(tournament=tournament).values_list("id", "name"))
    assert incomplete.value.errors == [
        {"field": "matches[1].team_a", "match": 1, "message": f"{names[a]} is paired twice"},
        {"field": "matches", "message": f"not paired: {names[d]}"},
    ]
    assert incomplete.value.message == (
        f"Manual pairing refused: match 2: {names[a]} is paired twice; not paired: {names[d]}"
    )
    assert Round.objects.count() == 0


@pytest.mark.django_db
def test_the_apis_manual_pairing_refusal_names_teams_not_fields_or_ids():
    tournament = event_with_teams(4, swiss_rounds=3)
    a, b, c, d = Team.objects.filter(tournament=tournament).order_by("id")
    team_drop(team=d, actor=tournament.created_by, reason="left")
    response = client_for(tournament.created_by).post(
        f"/api/v1/tournaments/{tournament.pk}/rounds/",
        {"matches": [{"team_a": a.pk, "team_b": b.pk}, {"team_a": c.pk, "team_b": d.pk}], "reason": "x"},
        format="json",
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert f"match 2: {d.name} is not an active team of this event" in body
    assert "matches[" not in response.json()["detail"] and f"team {d.pk} " not in response.json()["detail"]
    assert Round.objects.count() == 0
