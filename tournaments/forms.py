"""HTML forms for the event pages.

Forms only check the shape of the input (required, types, lengths); every tournament rule is
checked by the service the view calls, whose ``DomainError.errors`` are mapped back onto fields
with ``add_domain_errors`` so the user sees each problem next to the input that caused it.
"""

from __future__ import annotations

from django import forms

from common.errors import DomainError
from common.numbers import column_bounds
from tournaments.domain.event import MAX_AWARDED_BYES
from tournaments.enums import (
    Format,
    LateEntryMissedRounds,
    PenaltyPolicy,
    PercentageFloor,
    PlayoffPlayDraw,
    Rel,
    StaffRole,
    UdcMode,
)
from tournaments.models import Tournament
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


TOP_CUT_CHOICES = [("", "From the MTR chart"), (0, "No cut"), (2, "Top 2"), (4, "Top 4"), (8, "Top 8")]


def _optional_choice(choices, **kwargs) -> forms.TypedChoiceField:
    """A select whose empty value means "the default" (``None``, which the service fills in)."""
    return forms.TypedChoiceField(choices=choices, required=False, empty_value=None, **kwargs)


class TournamentCreateForm(forms.Form):
    """A new event. Everything but the name is optional; the defaults shown are the service's."""

    name = forms.CharField(max_length=200)
    date = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(max_length=200, required=False)
    format = forms.ChoiceField(choices=Format.choices, initial=Format.MODERN)
    rel = forms.ChoiceField(label="REL", choices=Rel.choices, initial=Rel.REGULAR)
    team_size = forms.IntegerField(
        initial=2,
        **column_bounds(Tournament, "team_size", min_value=1),
        help_text="2 for Two-Headed Giant; 1 for an individual event.",
    )
    round_minutes = forms.IntegerField(
        initial=50,
        **column_bounds(Tournament, "round_minutes", min_value=1),
        help_text="At least 40 (MTR Appendix B).",
    )
    games_per_match = forms.IntegerField(
        required=False,
        **column_bounds(Tournament, "games_per_match", min_value=1),
        help_text="Empty: 1 for a team event (a 2HG match is one game), 3 for an individual event.",
    )
    swiss_rounds = forms.IntegerField(
        label="Swiss rounds",
        required=False,
        **column_bounds(Tournament, "swiss_rounds", min_value=0),
        help_text="Empty: from the MTR chart by team count.",
    )
    top_cut = _optional_choice(TOP_CUT_CHOICES, coerce=int, help_text="Fixed once round 1 is paired.")
    penalty_policy = _optional_choice(PenaltyPolicy.choices, initial=PenaltyPolicy.MATCH_POINT)
    udc_mode = _optional_choice(UdcMode.choices, label="Unified Deck Construction", initial=UdcMode.MTR)


class TournamentSettingsForm(forms.Form):
    """The event's settings as the organizer changes them (``tournament_update`` checks the rules).

    Fields the event can no longer change are shown disabled: the structure once round 1 is
    paired, the team size also once a team is registered.
    """

    name = forms.CharField(max_length=200)
    date = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    venue = forms.CharField(max_length=200, required=False)
    format = forms.ChoiceField(choices=Format.choices)
    rel = forms.ChoiceField(label="REL", choices=Rel.choices)
    team_size = forms.IntegerField(**column_bounds(Tournament, "team_size", min_value=1))
    games_per_match = forms.IntegerField(**column_bounds(Tournament, "games_per_match", min_value=1))
    round_minutes = forms.IntegerField(
        **column_bounds(Tournament, "round_minutes", min_value=1), help_text="At least 40 (MTR Appendix B)."
    )
    swiss_rounds = forms.IntegerField(
        label="Swiss rounds",
        required=False,
        **column_bounds(Tournament, "swiss_rounds", min_value=0),
        help_text="Empty: from the MTR chart by team count.",
    )
    top_cut = _optional_choice(TOP_CUT_CHOICES, coerce=int)
    tiebreakers = forms.CharField(
        required=False,
        help_text="In order, separated by commas, from match_points, omw, gw, ogw. Empty: the default.",
    )
    percentage_floor = forms.ChoiceField(choices=PercentageFloor.choices)
    penalty_policy = forms.ChoiceField(choices=PenaltyPolicy.choices)
    udc_mode = forms.ChoiceField(label="Unified Deck Construction", choices=UdcMode.choices)
    late_entry_missed_rounds = forms.ChoiceField(
        label="Late entry: missed rounds count as", choices=LateEntryMissedRounds.choices
    )
    late_entry_open = forms.BooleanField(
        label="Late entry open",
        required=False,
        help_text="Untick to refuse new teams once round 1 is paired.",
    )
    playoff_play_draw = forms.ChoiceField(label="Playoff play/draw", choices=PlayoffPlayDraw.choices)
    booster_draft_playoff = forms.BooleanField(
        label="Booster Draft playoff",
        required=False,
        help_text="Limited: the Top 8 draft, then seat 1v5, 2v6, 3v7, 4v8 (9-16 teams: 4 Swiss rounds).",
    )
    cross_pod_pairing = forms.BooleanField(
        label="Cross-pod pairing",
        required=False,
        help_text="Booster Draft at Regular REL: pair across pods instead of within them, as announced.",
    )
    decklist_deadline = forms.DateTimeField(
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"],
    )
    decklists_published = forms.BooleanField(
        required=False, help_text="Show every list on the event page once the event is finished."
    )

    STRUCTURE = (
        "format",
        "team_size",
        "games_per_match",
        "swiss_rounds",
        "top_cut",
        "tiebreakers",
        "booster_draft_playoff",
        "cross_pod_pairing",
    )

    def __init__(self, *args, tournament, structure_fixed: bool, team_size_fixed: bool, **kwargs):
        initial = {name: getattr(tournament, name) for name in self.base_fields}
        initial["tiebreakers"] = ", ".join(tournament.tiebreakers)
        super().__init__(*args, initial=initial, **kwargs)
        fixed = set(self.STRUCTURE) if structure_fixed else set()
        if team_size_fixed:
            fixed.add("team_size")
        for name in fixed:
            self.fields[name].disabled = True
            self.fields[name].help_text = "Fixed: " + (
                "round 1 is paired." if structure_fixed else "teams are registered."
            )

    def clean_tiebreakers(self) -> list[str]:
        return self.cleaned_data["tiebreakers"].replace(",", " ").split()

    def changes(self) -> dict:
        """The values to hand to ``tournament_update``: every field the organizer may still edit."""
        return {name: value for name, value in self.cleaned_data.items() if not self.fields[name].disabled}


class TeamRegisterForm(forms.Form):
    """A team name and one name / Wizards Account row per member; the row count is the event's team size.

    The optional account username links a player to a login so the player page can find them.
    """

    name = forms.CharField(label="Team name", max_length=100)
    awarded_byes = forms.IntegerField(
        label="Awarded byes (rounds, before round 1)",
        min_value=0,
        max_value=MAX_AWARDED_BYES,
        initial=0,
        required=False,
    )

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


class MatchResultForm(forms.Form):
    """One table's result as the scorekeeper enters it on the manage page (works without JS).

    ``result`` names the winner (``a``, ``b``) or a ``draw`` (0-0-1, a time draw) or an
    intentional draw (``id``, 0-0-3, MTR 2.5); the winner gets the games needed to win the match.
    ``version`` is the match version the page showed, so a result entered by someone else in the
    meantime is not overwritten (409). ``reason`` is needed only to change a confirmed result.
    """

    RESULT_CHOICES = [
        ("a", "Left team wins"),
        ("b", "Right team wins"),
        ("draw", "Draw"),
        ("id", "Intentional draw"),
    ]

    result = forms.ChoiceField(choices=RESULT_CHOICES)
    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    reason = forms.CharField(max_length=300, required=False)

    def games(self, games_to_win: int) -> dict[str, int]:
        """The game record the chosen result stands for (rules summary 1.5 and 6.2)."""
        a_wins, b_wins, draws = {
            "a": (games_to_win, 0, 0),
            "b": (0, games_to_win, 0),
            "draw": (0, 0, 1),
            "id": (0, 0, 3),
        }[self.cleaned_data["result"]]
        return {"team_a_wins": a_wins, "team_b_wins": b_wins, "draws": draws}


def result_choice(*, team_a_wins: int, team_b_wins: int, draws: int, has_result: bool) -> str:
    """The ``MatchResultForm.result`` value a stored result shows as ("" before any report)."""
    if not has_result:
        return ""
    if team_a_wins > team_b_wins:
        return "a"
    if team_b_wins > team_a_wins:
        return "b"
    return "id" if draws >= 3 else "draw"


class StaffAddForm(forms.Form):
    """Give an account a role in the event (or change the role it has): the settings page's staff section."""

    ROLE_CHOICES = [
        (StaffRole.HEAD_JUDGE, "Head judge"),
        (StaffRole.JUDGE, "Judge"),
        (StaffRole.SCOREKEEPER, "Scorekeeper"),
    ]

    username = forms.CharField(label="Username or e-mail", max_length=254)
    role = forms.ChoiceField(choices=ROLE_CHOICES, initial=StaffRole.JUDGE)


class TeamsImportForm(forms.Form):
    csv = forms.CharField(
        label="Teams, one a line",
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
        help_text="team name, player name, Wizards Account, player name, Wizards Account "
        "(a name and account for each player; a spreadsheet saved as CSV works too).",
    )


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


class PodsSeatForm(forms.Form):
    """Booster Draft: which draft of the event to seat (1 for the first)."""

    draft = forms.IntegerField(min_value=1, max_value=20)
