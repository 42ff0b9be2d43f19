"""Export and restore: a complete event survives ``export_event`` → ``import_event`` unchanged.

The event is built through the services as staff would run it, exported, deleted with the accounts
made for it, imported, and exported again: the two documents must be equal, and the standings and
audit trail read from the imported rows must equal the originals.
"""

from __future__ import annotations

import dataclasses
import datetime
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from clock.services import (
    match_time_call,
    match_turn_complete,
    round_pause,
    round_resume,
    round_start,
    time_extension_grant,
)
from decklists.models import DeckCheck, DecklistVersion
from decklists.services import (
    deck_check_finding_record,
    deck_check_finding_to_penalty,
    deck_check_finish,
    deck_check_start,
    decklist_submit,
)
from penalties.models import Penalty
from penalties.reviews import penalty_overturn
from penalties.services import penalty_issue
from tests.decklists.realdata import mtgo_text, real_decklists
from tests.factories import UserFactory
from tests.tournaments.factories import add_staff, register_team
from tournaments.enums import StaffRole
from tournaments.models import AuditEntry, KeepApart, Match, Team, Tournament
from tournaments.registration.planner import PlayerEntry
from tournaments.registration.register import team_register
from tournaments.services.events import tournament_create
from tournaments.services.manual_pairing import round_pair_manual
from tournaments.services.participation import team_disqualify, team_drop
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_pair, round_publish
from tournaments.standings import standings_for

pytestmark = pytest.mark.django_db

T0 = datetime.datetime(2026, 7, 18, 10, 0, tzinfo=datetime.UTC)


def minutes(count: float) -> datetime.datetime:
    return T0 + datetime.timedelta(minutes=count)


def report(match: Match, actor, a: int, b: int, draws: int = 0, reason: str = "") -> Match:
    match.refresh_from_db()
    return match_result_report(
        match=match,
        actor=actor,
        team_a_wins=a,
        team_b_wins=b,
        draws=draws,
        version=match.version,
        reason=reason,
    )


def build_event() -> Tournament:
    """Two Swiss rounds with everything the export must carry (see the module docstring)."""
    organizer = UserFactory()
    tournament = tournament_create(
        actor=organizer,
        name="Export 2HG",
        date=datetime.date(2026, 7, 18),
        venue="Hall 2",
        rel="competitive",
        swiss_rounds=3,
        top_cut=0,
        decklist_deadline=datetime.datetime(2099, 1, 1, tzinfo=datetime.UTC),
    )
    head_judge = add_staff(tournament, StaffRole.HEAD_JUDGE)
    judge = add_staff(tournament, StaffRole.JUDGE)
    scorekeeper = add_staff(tournament, StaffRole.SCOREKEEPER)
    teams = [
        register_team(
            tournament, f"Team {n}", actor=organizer, usernames=(UserFactory().username,) if n < 3 else ()
        )
        for n in range(1, 6)
    ]
    KeepApart.objects.create(tournament=tournament, team_a=teams[0], team_b=teams[1], reason="family")
    decks = iter(real_decklists())
    for team in teams:
        for player in team.players.order_by("position"):
            first, second = next(decks), next(decks)
            decklist_submit(tournament=tournament, actor=organizer, player=player, text=mtgo_text(first))
            decklist_submit(
                tournament=tournament, actor=head_judge, player=player, text=mtgo_text(second), reason="swap"
            )

    first_round = round_pair(tournament=tournament, actor=organizer)
    round_publish(round_row=first_round, actor=organizer)
    tables = list(Match.objects.filter(round=first_round, table__isnull=False).order_by("table"))
    seated_a = list(tables[0].team_a.players.order_by("-position").values_list("pk", flat=True))
    seated_b = list(tables[0].team_b.players.order_by("position").values_list("pk", flat=True))
    Match.objects.filter(pk=tables[0].pk).update(seats={"A": seated_a, "B": seated_b})
    round_start(round_row=first_round, actor=judge, at=T0)
    round_pause(round_row=first_round, actor=judge, at=minutes(10))
    round_resume(round_row=first_round, actor=judge, at=minutes(15))
    check = deck_check_start(match=tables[0], actor=judge, at=minutes(20))
    checked = tables[0].team_a.players.order_by("position").first()
    finding = deck_check_finding_record(
        deck_check=check, actor=judge, player=checked, kind="missing", card="Lightning Bolt"
    )
    deck_check_finding_to_penalty(finding=finding, actor=judge, infraction="TE-DLP")
    deck_check_finish(deck_check=check, actor=judge, at=minutes(27))
    time_extension_grant(match=tables[1], actor=judge, minutes=4, reason="ruling")
    match_time_call(match=tables[1], actor=judge, active_team="A", at=minutes(60))
    match_turn_complete(match=tables[1], actor=judge)
    report(tables[0], scorekeeper, 1, 0)
    report(tables[1], scorekeeper, 0, 1)
    report(tables[1], scorekeeper, 1, 0, reason="the slip was read the wrong way round")
    slow = penalty_issue(
        tournament=tournament,
        actor=judge,
        player=tables[1].team_b.players.first(),
        round_row=first_round,
        infraction="TE-SP",
        description="slow",
    )
    penalty_overturn(penalty=slow, actor=head_judge, reason="video shows normal pace")
    penalty_issue(
        tournament=tournament,
        actor=head_judge,
        player=tables[1].team_a.players.first(),
        round_row=first_round,
        infraction="TE-T",
        description="arrived three minutes late",
        penalty="warning",
        deviation_reason="the store's door was still locked",
    )

    penalty_issue(
        tournament=tournament,
        actor=judge,
        player=tables[0].team_a.players.first(),
        round_row=first_round,
        infraction="GPE-GRV",
        description="missed a trigger",
    )
    register_team(tournament, "Late Team", actor=organizer)
    dropped = tables[0].team_b
    team_drop(team=dropped, actor=organizer, reason="went home")
    active = [
        team.pk
        for team in Team.objects.filter(tournament=tournament, dropped_after_round=None).order_by("pk")
    ]
    second_round = round_pair_manual(
        tournament=tournament,
        actor=organizer,
        reason="keep the feature table",
        matches=[(active[0], active[1]), (active[2], active[3]), (active[4], None)],
    )
    round_publish(round_row=second_round, actor=organizer)
    draw, disqualified = Match.objects.filter(round=second_round, table__isnull=False).order_by("table")
    report(draw, scorekeeper, 0, 0, draws=1)
    team_disqualify(team=disqualified.team_b, actor=head_judge, reason="cheating")
    return tournament


def export(tournament_id: int) -> dict:
    out = io.StringIO()
    call_command("export_event", str(tournament_id), stdout=out)
    return json.loads(out.getvalue())


def standings(tournament: Tournament) -> list[dict]:
    return [{**dataclasses.asdict(line), "team_id": None} for line in standings_for(tournament)]


def delete_event(tournament: Tournament) -> None:
    """Remove the event and the accounts of its players, as if the file went to another server."""
    player_users = list(get_user_model().objects.filter(players__tournament=tournament))
    DeckCheck.objects.filter(tournament=tournament).delete()
    Penalty.objects.filter(tournament=tournament).delete()
    Match.objects.filter(round__tournament=tournament).delete()
    tournament.delete()
    for user in player_users:
        user.delete()


def import_file(path, *args) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("import_event", str(path), *args, stdout=out, stderr=err)
    return int(out.getvalue()), err.getvalue()


def test_export_import_export_gives_the_same_document(tmp_path):
    tournament = build_event()
    before = export(tournament.pk)
    expected_standings = standings(tournament)
    audit_count = AuditEntry.objects.filter(tournament=tournament).count()
    path = tmp_path / "event.json"
    call_command("export_event", str(tournament.pk), "--output", str(path))
    delete_event(tournament)

    new_id, messages = import_file(path)

    imported = Tournament.objects.get(pk=new_id)
    assert export(new_id) == before
    assert standings(imported) == expected_standings
    assert AuditEntry.objects.filter(tournament=imported).count() == audit_count
    assert "without a usable password" in messages
    assert (
        not get_user_model()
        .objects.get(username=before["teams"][0]["players"][0]["user"])
        .has_usable_password()
    )
    assert DecklistVersion.objects.filter(decklist__tournament=imported).count() == 20


def test_the_document_carries_what_the_event_recorded():
    document = export(build_event().pk)

    rounds = {entry["number"]: entry for entry in document["rounds"]}
    assert [pause["paused_at"] for pause in rounds[1]["pauses"]] == ["2026-07-18T10:10:00+00:00"]
    assert rounds[2]["manual_reason"] == "keep the feature table"
    kinds = sorted(match["result_kind"] for match in rounds[1]["matches"] + rounds[2]["matches"])
    assert kinds.count("bye") == 2 and "missed_round_loss" in kinds and "penalty_loss" in kinds
    assert {(p["deviated"], p["overturned"]) for p in document["penalties"]} >= {(True, False), (False, True)}
    assert [finding["penalty"] for finding in document["deck_checks"][0]["findings"]] == [0]
    assert document["deck_checks"][0]["extension"] == 0
    assert document["keep_apart"] == [{"team_a": "Team 1", "team_b": "Team 2", "reason": "family"}]
    assert {entry["role"] for entry in document["staff"]} == {
        "organizer",
        "head_judge",
        "judge",
        "scorekeeper",
    }
    teams = {team["name"]: [player["wizards_id"] for player in team["players"]] for team in document["teams"]}
    table = rounds[1]["matches"][0]
    assert table["seats"] == {"A": teams[table["team_a"]][::-1], "B": teams[table["team_b"]]}
    offered = [wid for penalty in document["penalties"] for wid in penalty["offer_ftmgs_to"]]
    assert offered and set(offered) <= {wid for players in teams.values() for wid in players}
    assert any("team #" in line for line in rounds[1]["explanation"]["lines"])


def test_importing_next_to_the_original_needs_a_new_name(tmp_path):
    tournament = build_event()
    path = tmp_path / "event.json"
    call_command("export_event", str(tournament.pk), "--output", str(path))

    with pytest.raises(CommandError, match="tournament.name: an event named 'Export 2HG'"):
        import_file(path)
    new_id, _ = import_file(path, "--rename", "Export 2HG (copy)")

    assert {**export(new_id), "tournament": None} == {**export(tournament.pk), "tournament": None}


def test_a_truncated_file_is_refused_and_changes_nothing(tmp_path):
    tournament = build_event()
    text = io.StringIO()
    call_command("export_event", str(tournament.pk), stdout=text)
    delete_event(tournament)
    path = tmp_path / "event.json"
    path.write_text(text.getvalue()[: len(text.getvalue()) // 2])
    counts = (Tournament.objects.count(), get_user_model().objects.count())

    with pytest.raises(CommandError, match="not valid JSON"):
        import_file(path)

    assert (Tournament.objects.count(), get_user_model().objects.count()) == counts


def test_a_file_broken_deep_inside_is_refused_by_path_and_changes_nothing(tmp_path):
    tournament = build_event()
    document = export(tournament.pk)
    delete_event(tournament)
    del document["teams"][3]["players"][1]["wizards_id"]
    path = tmp_path / "event.json"
    path.write_text(json.dumps(document))
    counts = (Tournament.objects.count(), get_user_model().objects.count(), Team.objects.count())

    with pytest.raises(CommandError, match=r"teams\[3\]\.players\[1\]\.wizards_id: missing"):
        import_file(path)

    assert (Tournament.objects.count(), get_user_model().objects.count(), Team.objects.count()) == counts


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"version": 2}, "version: this toolkit reads version 1, the file is version 2"),
        ({"format": "something-else"}, "format: expected 'twohg-event'"),
    ],
)
def test_another_format_or_version_is_refused(tmp_path, change, message):
    path = tmp_path / "event.json"
    path.write_text(json.dumps({"format": "twohg-event", "version": 1, **change}))

    with pytest.raises(CommandError, match=message):
        import_file(path)

    assert Tournament.objects.count() == 0


def test_a_draft_events_pods_and_match_pods_survive_export_and_import(tmp_path):
    from tests.tournaments.factories import event_with_teams
    from tournaments.models import DraftPod
    from tournaments.services.pods import pods_seat
    from tournaments.services.rounds import round_pair

    tournament = event_with_teams(8, format="draft", rel="regular", swiss_rounds=3, top_cut=0)
    pods_seat(tournament=tournament, actor=tournament.created_by, draft=1)
    round_pair(tournament=tournament, actor=tournament.created_by)
    before = export(tournament.pk)
    names = dict(tournament.teams.values_list("id", "name"))
    pods_by_name = [[names[t] for t in pod.team_ids] for pod in DraftPod.objects.order_by("number")]
    path = tmp_path / "draft.json"
    path.write_text(json.dumps(before))
    delete_event(tournament)

    new_id, _ = import_file(path)

    assert export(new_id) == before
    imported = Tournament.objects.get(pk=new_id)
    new_names = dict(imported.teams.values_list("id", "name"))
    stored = DraftPod.objects.filter(tournament=imported).order_by("number")
    assert [[new_names[t] for t in pod.team_ids] for pod in stored] == pods_by_name
    assert {m.pod for m in Match.objects.filter(round__tournament=imported)} == {1, 2}
    delete_event(imported)

    older = json.loads(json.dumps(before))
    del older["pods"], older["tournament"]["booster_draft_playoff"], older["tournament"]["cross_pod_pairing"]
    for round_node in older["rounds"]:
        for match in round_node["matches"]:
            del match["pod"]
    path.write_text(json.dumps(older))
    older_id, _ = import_file(path)
    assert DraftPod.objects.filter(tournament_id=older_id).count() == 0
    assert {m.pod for m in Match.objects.filter(round__tournament_id=older_id)} == {None}


def test_awarded_byes_travel_with_the_team_and_older_files_have_none(tmp_path):
    tournament = tournament_create(actor=UserFactory(), name="Premier 2HG", swiss_rounds=3, top_cut=0)
    holder = register_team(tournament, "Team Holder", actor=tournament.created_by)
    register_team(tournament, "Team Plain", actor=tournament.created_by)
    Team.objects.filter(pk=holder.pk).update(awarded_byes=3)
    document = export(tournament.pk)
    assert {team["name"]: team["awarded_byes"] for team in document["teams"]} == {
        "Team Holder": 3,
        "Team Plain": 0,
    }
    delete_event(tournament)
    path = tmp_path / "event.json"

    path.write_text(json.dumps(document))
    new_id, _ = import_file(path)
    assert dict(Team.objects.filter(tournament_id=new_id).values_list("name", "awarded_byes")) == {
        "Team Holder": 3,
        "Team Plain": 0,
    }
    Tournament.objects.get(pk=new_id).delete()

    older = json.loads(json.dumps(document))
    for team in older["teams"]:
        del team["awarded_byes"]
    path.write_text(json.dumps(older))
    new_id, _ = import_file(path)
    assert set(Team.objects.filter(tournament_id=new_id).values_list("awarded_byes", flat=True)) == {0}
    Tournament.objects.get(pk=new_id).delete()

    document["teams"][0]["awarded_byes"] = 4
    path.write_text(json.dumps(document))
    with pytest.raises(CommandError, match=r"teams\[0\]\.awarded_byes: 0 to 3 rounds, got 4"):
        import_file(path)


def test_a_player_who_joined_without_a_wizards_account_and_a_check_in_travel(tmp_path):
    """A teammate who accepted a join code before giving a Wizards Account is named by their
    login in the document; a team's check-in time travels with it."""
    from tournaments.registration.player import invitation_accept

    tournament = tournament_create(actor=UserFactory(), name="Invited 2HG", swiss_rounds=3, top_cut=0)
    captain, mate = UserFactory(), UserFactory()
    team = team_register(
        tournament=tournament,
        actor=captain,
        name="Dual Wield",
        players=[PlayerEntry(name="Cap", wizards_id="cap@wotc.example", username=captain.username)],
    )
    invitation_accept(code=team.join_code, actor=mate)
    register_team(tournament, "Team Plain", actor=tournament.created_by)
    Team.objects.filter(pk=team.pk).update(
        checked_in_at=datetime.datetime(2026, 11, 20, 9, 30, tzinfo=datetime.UTC)
    )
    document = export(tournament.pk)
    delete_event(tournament)
    path = tmp_path / "event.json"
    path.write_text(json.dumps(document))
    new_id, _ = import_file(path)
    moved = Team.objects.get(tournament_id=new_id, name="Dual Wield")
    assert [(p.name, p.wizards_id, p.user.username) for p in moved.players.order_by("position")] == [
        ("Cap", "cap@wotc.example", captain.username),
        (mate.username, "", mate.username),
    ]
    assert moved.checked_in_at == datetime.datetime(2026, 11, 20, 9, 30, tzinfo=datetime.UTC)
    assert export(new_id)["teams"] == document["teams"]


def test_a_players_name_reading_travels_and_older_files_have_none(tmp_path):
    tournament = tournament_create(actor=UserFactory(), name="Tokyo 2HG", swiss_rounds=3, top_cut=0)
    team_register(
        tournament=tournament,
        actor=tournament.created_by,
        name="東京",
        players=[
            PlayerEntry(name="山田 太郎", wizards_id="yamada@wotc.example", name_reading="やまだ たろう"),
            PlayerEntry(name="Ann Lee", wizards_id="ann@wotc.example"),
        ],
    )
    document = export(tournament.pk)
    assert [p["name_reading"] for p in document["teams"][0]["players"]] == ["やまだ たろう", ""]
    delete_event(tournament)
    path = tmp_path / "event.json"
    path.write_text(json.dumps(document))
    new_id, _ = import_file(path)
    assert export(new_id)["teams"] == document["teams"]
    Tournament.objects.get(pk=new_id).delete()

    for player in document["teams"][0]["players"]:
        del player["name_reading"]
    path.write_text(json.dumps(document))
    new_id, _ = import_file(path)
    assert set(Team.objects.get(tournament_id=new_id).players.values_list("name_reading", flat=True)) == {""}


def test_the_cut_to_day_two_travels_and_older_files_have_none(tmp_path):
    tournament = tournament_create(
        actor=UserFactory(),
        name="Two-day 2HG",
        swiss_rounds=6,
        top_cut=8,
        day_two={"after_round": 3, "min_match_points": 6},
        day_two_tiebreakers="frozen",
    )
    document = export(tournament.pk)
    assert (document["tournament"]["day_two"], document["tournament"]["day_two_tiebreakers"]) == (
        {"after_round": 3, "min_match_points": 6},
        "frozen",
    )
    delete_event(tournament)
    path = tmp_path / "event.json"

    path.write_text(json.dumps(document))
    new_id, _ = import_file(path)
    imported = Tournament.objects.get(pk=new_id)
    assert (imported.day_two, imported.day_two_tiebreakers) == (
        {"after_round": 3, "min_match_points": 6},
        "frozen",
    )
    imported.delete()

    older = json.loads(json.dumps(document))
    del older["tournament"]["day_two"], older["tournament"]["day_two_tiebreakers"]
    path.write_text(json.dumps(older))
    new_id, _ = import_file(path)
    assert Tournament.objects.filter(pk=new_id).values_list("day_two", "day_two_tiebreakers").get() == (
        None,
        "mtr",
    )
    Tournament.objects.get(pk=new_id).delete()

    document["tournament"]["day_two"] = {"after_round": 6, "min_match_points": 6}
    path.write_text(json.dumps(document))
    with pytest.raises(
        CommandError, match=r"tournament\.day_two: after_round must be before the last Swiss round"
    ):
        import_file(path)
