"""A player's correction is a plain value: building one must not need the database."""

from tournaments.registration.desk import PlayerEdit


def test_a_player_edit_is_built_without_a_database_transaction():
    edit = PlayerEdit(player_id=7, name="Reid Duke", wizards_id="reid@example.com")

    assert isinstance(edit, PlayerEdit)
    assert (edit.player_id, edit.name, edit.name_reading) == (7, "Reid Duke", "")
