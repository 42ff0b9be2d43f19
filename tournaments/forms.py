"""HTML forms for the event pages.

Forms only check the shape of the input (required, types, lengths); every tournament rule is
checked by the service the view calls, whose ``DomainError.errors`` are mapped back onto fields
with ``add_domain_errors`` so the user sees each problem next to the input that caused it.
"""

from __future__ import annotations

from django import forms

from common.errors import DomainError
from tournaments.enums import REL, Format
from tournaments.services.teams import PlayerEntry

SEAT_LABELS = "ABCD"


def add_domain_errors(form: forms.Form, error: DomainError, field_map: dict[str, str] | None = None) -> None:
    """Attach a service's per-field errors to the form; errors about no known field go to the top."""
    field_map = field_map or {}
    placed = False
    for item in error.errors:
        name = field_map.get(item.get("field", ""), item.get("field", ""))
        if name in form.fields:
            form.add_error(name, item["message"])
            placed = True
    if not placed:
        form.add_error(None, error.message)


class TournamentCreateForm(forms.Form):
    name = forms.CharField(max_length=200)
    date = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(max_length=200, required=False)
    format = forms.ChoiceField(choices=Format.choices, initial=Format.MODERN)
    rel = forms.ChoiceField(label="REL", choices=REL.choices, initial=REL.REGULAR)
    team_size = forms.IntegerField(
        initial=2, min_value=1, help_text="2 for Two-Headed Giant; 1 for an individual event."
    )
    round_minutes = forms.IntegerField(initial=50, min_value=1, help_text="At least 40 (MTR Appendix B).")


class TeamRegisterForm(forms.Form):
    """A team name and one name / Wizards Account row per member; the row count is the event's team size.

    The optional account username links a player to a login so the player page can find them.
    """

    name = forms.CharField(label="Team name", max_length=100)

    def __init__(self, *args, team_size: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.team_size = team_size
        for index in range(team_size):
            label = f"Player {SEAT_LABELS[index]}"
            self.fields[f"player_{index}_name"] = forms.CharField(label=f"{label} name", max_length=100)
            self.fields[f"player_{index}_wizards_id"] = forms.CharField(
                label=f"{label} Wizards Account", max_length=254
            )
            self.fields[f"player_{index}_username"] = forms.CharField(
                label=f"{label} login (optional)", max_length=150, required=False
            )

    def member_rows(self) -> list[tuple[str, list[forms.BoundField]]]:
        """(seat label, [name, Wizards id, login]) for each member, so the template lays them out as rows."""
        return [
            (
                SEAT_LABELS[index],
                [self[f"player_{index}_{part}"] for part in ("name", "wizards_id", "username")],
            )
            for index in range(self.team_size)
        ]

    def player_entries(self) -> list[PlayerEntry]:
        data = self.cleaned_data
        return [
            PlayerEntry(
                name=data[f"player_{index}_name"],
                wizards_id=data[f"player_{index}_wizards_id"],
                username=data[f"player_{index}_username"] or None,
            )
            for index in range(self.team_size)
        ]

    def domain_field_map(self) -> dict[str, str]:
        """The service names member fields ``players[0].name``; the form names them ``player_0_name``."""
        return {
            f"players[{index}].{part}": f"player_{index}_{part}"
            for index in range(self.team_size)
            for part in ("name", "wizards_id", "username")
        }


class ReasonForm(forms.Form):
    """A required reason, for drops and other actions that go into the audit log."""

    reason = forms.CharField(max_length=300)


class PrimaryPlayerForm(forms.Form):
    """Which of the team's players is primary (sits on the right) this match; ``players`` in the
    current seat order, so the current primary is preselected."""

    primary = forms.TypedChoiceField(label="We sit:", coerce=int)

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["primary"].choices = [(p.pk, p.name) for p in players]
        self.fields["primary"].initial = players[0].pk if players else None
