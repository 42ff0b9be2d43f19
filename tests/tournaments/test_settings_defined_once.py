"""The event's settings are listed once (tournaments.domain.settings.SETTINGS) and their value sets
defined once (tournaments.domain.choices): the update API, the output, the settings page, the
services and the model's choices all agree with them, so a setting added in one place and not
the others fails here.
"""

from __future__ import annotations

import pytest

from tournaments.api.serializers import TournamentOutputSerializer, TournamentUpdateInputSerializer
from tournaments.domain import choices
from tournaments.domain.settings import FIXED_ONCE_PAIRED, NULLABLE, SETTINGS
from tournaments.forms import TournamentSettingsForm
from tournaments.models import Match, Tournament
from tournaments.services.events import UPDATABLE_SETTINGS

CHOICE_FIELDS = {
    (Tournament, "format"): choices.Format,
    (Tournament, "rel"): choices.Rel,
    (Tournament, "percentage_floor"): choices.PercentageFloor,
    (Tournament, "penalty_policy"): choices.PenaltyPolicy,
    (Tournament, "udc_mode"): choices.UdcMode,
    (Tournament, "late_entry_missed_rounds"): choices.LateEntryMissedRounds,
    (Tournament, "playoff_play_draw"): choices.PlayoffPlayDraw,
    (Match, "active_team"): choices.TeamSide,
}


def test_every_way_to_change_the_settings_lists_the_same_settings() -> None:
    assert list(TournamentUpdateInputSerializer().fields) == list(SETTINGS)
    assert set(TournamentSettingsForm.base_fields) == set(SETTINGS)
    assert UPDATABLE_SETTINGS == set(SETTINGS)
    assert set(TournamentOutputSerializer().fields) == {"id", *SETTINGS, "status"}


def test_every_setting_is_a_column_of_the_event() -> None:
    columns = {field.name for field in Tournament._meta.concrete_fields}
    assert set(SETTINGS) - columns == set()
    assert (FIXED_ONCE_PAIRED | NULLABLE) - set(SETTINGS) == set()
    assert {name for name in NULLABLE if not Tournament._meta.get_field(name).null} == set()


@pytest.mark.parametrize(("field", "enum"), list(CHOICE_FIELDS.items()), ids=lambda v: str(v))
def test_each_choice_column_takes_the_domain_value_set(field, enum) -> None:
    model, name = field
    assert list(model._meta.get_field(name).choices) == enum.choices
    if model._meta.get_field(name).has_default():
        assert model._meta.get_field(name).default in enum.values
