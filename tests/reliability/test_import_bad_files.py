"""``import_event`` with a damaged or hostile file: one line from the command naming the place in
the file, never a traceback, and nothing changed (issue 12, "Inputs that still give 500")."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError

from tests.reliability.test_export_import import build_event, delete_event, export, import_file
from tournaments.models import Team, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def document(django_db_setup, django_db_blocker) -> dict:
    """One exported event, built once; each test damages its own copy."""
    with django_db_blocker.unblock():
        from django.db import transaction

        with transaction.atomic():
            tournament = build_event()
            exported = export(tournament.pk)
            transaction.set_rollback(True)
    return exported


def refused(tmp_path, text: str) -> str:
    path = tmp_path / "event.json"
    path.write_text(text, encoding="utf-8")
    counts = (Tournament.objects.count(), get_user_model().objects.count(), Team.objects.count())
    with pytest.raises(CommandError) as error:
        import_file(path)
    assert (Tournament.objects.count(), get_user_model().objects.count(), Team.objects.count()) == counts
    message = str(error.value)
    assert "\n" not in message
    return message


def damaged(document: dict, change) -> str:
    copy = json.loads(json.dumps(document))
    change(copy)
    return json.dumps(copy)


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d["tournament"].update(round_minutes=40000), "tournament.round_minutes"),
        (lambda d: d["tournament"].update(swiss_rounds=10**30), "tournament.swiss_rounds"),
        (lambda d: d["tournament"].update(seed=-(10**30)), "tournament.seed"),
        (lambda d: d["rounds"][0].update(number=10**12), "rounds[0].number"),
        (lambda d: d["penalties"][0].update(day=40000), "penalties[0].day"),
    ],
)
def test_a_number_past_its_column_is_refused_naming_it(tmp_path, document, change, where):
    message = refused(tmp_path, damaged(document, change))

    assert f"{where}: must be between" in message


def test_a_team_paired_against_itself_is_refused(tmp_path, document):
    def same_team(d):
        table = next(m for m in d["rounds"][0]["matches"] if m["team_b"] is not None)
        table["team_b"] = table["team_a"]

    message = refused(tmp_path, damaged(document, same_team))

    assert "rounds[0].matches[" in message and "a team cannot play itself" in message


@pytest.mark.parametrize(("bad", "what"), [("\x00", "a NUL character"), ("\ud800", "a lone surrogate")])
def test_a_name_with_a_character_no_database_stores_is_refused(tmp_path, document, bad, what):
    text = damaged(document, lambda d: d["teams"][0].update(name=f"Team{bad}One"))

    message = refused(tmp_path, text)

    assert message.endswith(f"teams[0].name: contains {what}")


def test_a_deeply_nested_file_is_refused(tmp_path):
    message = refused(tmp_path, "[" * 100_000 + "]" * 100_000)

    assert "nested too deeply" in message


def test_the_damaged_file_is_imported_once_repaired(tmp_path, document):
    delete_event(
        Tournament.objects.get(name=document["tournament"]["name"])
    ) if Tournament.objects.exists() else None
    path = tmp_path / "event.json"
    path.write_text(json.dumps(document))

    new_id, _ = import_file(path)

    assert export(new_id) == document
