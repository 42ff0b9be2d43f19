import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tournaments.models import AuditEntry, Player, Staff, Team, Tournament

pytestmark = pytest.mark.django_db


def test_setup_demo_is_idempotent_and_home_lists_the_event(client, capsys):
    call_command("setup_demo")
    call_command("setup_demo")
    output = capsys.readouterr().out
    assert output.count("Demo organizer login: username 'organizer'") == 2
    assert output.count("Created demo event") == 1
    tournament = Tournament.objects.get()
    assert (tournament.team_size, tournament.games_per_match, tournament.tiebreakers) == (
        2,
        1,
        ["match_points", "omw"],
    )
    assert Team.objects.count() == 8
    assert Player.objects.count() == 16
    assert Staff.objects.get().user == get_user_model().objects.get(username="organizer")
    assert AuditEntry.objects.filter(action="team_register").count() == 8
    assert (tournament.swiss_rounds, tournament.top_cut, tournament.status) == (3, 4, "running")
    round_one = tournament.rounds.get()
    assert (round_one.number, round_one.phase) == (1, "published")
    assert sorted(round_one.matches.values_list("table", flat=True)) == [1, 2, 3, 4]
    response = client.get("/")
    assert response.status_code == 200
    assert "Demo Friday Night Two-Headed Giant" in response.content.decode()


def test_setup_demo_leaves_an_existing_database_alone():
    from tournaments.services.events import tournament_create

    user = get_user_model().objects.create_user("someone")
    tournament_create(actor=user, name="Real store event")
    call_command("setup_demo")
    assert list(Tournament.objects.values_list("name", flat=True)) == ["Real store event"]
    assert get_user_model().objects.filter(username="organizer").exists()


def test_setup_demo_does_not_print_a_password_that_was_changed(capsys):
    call_command("setup_demo")
    organizer = get_user_model().objects.get(username="organizer")
    organizer.set_password("a-private-password-now")
    organizer.save()
    capsys.readouterr()
    call_command("setup_demo")
    output = capsys.readouterr().out
    assert "2hg-demo-organizer" not in output
    assert "exists with a changed password" in output
    assert get_user_model().objects.get(username="organizer").check_password("a-private-password-now")
