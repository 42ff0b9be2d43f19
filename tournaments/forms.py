"""HTML forms for the event pages.

Forms only check the shape of the input (required, types, lengths); every tournament rule is
checked by the service the view calls, whose ``DomainError.errors`` are mapped back onto fields
with ``add_domain_errors`` so the user sees each problem next to the input that caused it.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.db import models
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from common.errors import DomainError
from common.i18n import localize
from common.numbers import column_bounds
from tournaments.domain.event import MAX_AWARDED_BYES
from tournaments.domain.settings import SETTINGS, time_zone_choices
from tournaments.enums import (
    Format,
    Language,
    PenaltyPolicy,
    Rel,
    StaffRole,
    TeamSide,
    UdcMode,
)
from tournaments.models import Tournament
from tournaments.registration.planner import PlayerEntry

SEAT_LABELS = "ABCD"


def _translated(choices: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A setting's choices with their labels in the reader's language (the pure core marks them)."""
    return [(value, _(label)) for value, label in choices]


def add_domain_errors(form: forms.Form, error: DomainError, field_map: dict[str, str] | None = None) -> None:
    """Attach a service's per-field errors to the form; errors about no known field go to the top."""
    field_map = field_map or {}
    placed = False
    for item in error.errors:
        name = field_map.get(item.get("field", ""), item.get("field", ""))
        if name in form.fields:
            form.add_error(name, localize(item["message"]))
            placed = True
    if not placed:
        form.add_error(None, localize(error.message))


TOP_CUT_CHOICES = [
    ("", _("From the MTR chart")),
    (0, _("No cut")),
    (2, _("Top 2")),
    (4, _("Top 4")),
    (8, _("Top 8")),
]


def _optional_choice(choices, **kwargs) -> forms.TypedChoiceField:
    """A select whose empty value means "the default" (``None``, which the service fills in)."""
    return forms.TypedChoiceField(choices=choices, required=False, empty_value=None, **kwargs)


def _language_field() -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        label=_("Language"),
        choices=Language.choices,
        required=False,
        empty_value=None,
        help_text=_("Printed documents and the projector clock use this language."),
    )


def _time_zone_field() -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        label=_("Time zone"),
        choices=[(name, name) for name in time_zone_choices()],
        required=False,
        empty_value=None,
        help_text=_("Pages, documents and the clock show the event's local time."),
    )


class DayTwoWidget(forms.MultiWidget):
    """The cut to day 2 as two plain number boxes (works without JavaScript)."""

    def __init__(self) -> None:
        super().__init__(
            {
                "after_round": forms.NumberInput(
                    attrs={
                        "min": 1,
                        "inputmode": "numeric",
                        "placeholder": _("after round"),
                        "aria-label": _("Cut after round"),
                    }
                ),
                "min_match_points": forms.NumberInput(
                    attrs={
                        "min": 1,
                        "inputmode": "numeric",
                        "placeholder": _("match points to advance"),
                        "aria-label": _("Match points to advance"),
                    }
                ),
            }
        )

    def decompress(self, value):
        return [value.get("after_round"), value.get("min_match_points")] if value else [None, None]


class DayTwoField(forms.MultiValueField):
    """``{"after_round": R, "min_match_points": P}`` from its two boxes; both empty: no cut. The
    service checks the numbers against the event (``day_two_problems``)."""

    widget = DayTwoWidget

    def __init__(self, **kwargs) -> None:
        bounds = {"min_value": 1, "max_value": 1000}
        super().__init__(
            fields=(forms.IntegerField(**bounds), forms.IntegerField(**bounds)),
            require_all_fields=False,
            required=False,
            error_messages={
                "incomplete": _("Give both the round of the cut and the match points, or neither.")
            },
            **kwargs,
        )

    def compress(self, data_list):
        after, points = (list(data_list) + [None, None])[:2]
        if after is None and points is None:
            return None
        return {"after_round": after, "min_match_points": points}


class TournamentCreateForm(forms.Form):
    """A new event. Everything but the name is optional; the defaults shown are the service's,
    except the language, which starts as the organizer's own (a Japanese store prints in Japanese)."""

    name = forms.CharField(label=_("Name"), max_length=200)
    date = forms.DateField(label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    language = _language_field()
    time_zone = _time_zone_field()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        current = (get_language() or "en").lower()
        self.fields["language"].initial = current if current in Language.values else Language.EN
        self.fields["time_zone"].initial = settings.TIME_ZONE

    format = forms.ChoiceField(label=_("Format"), choices=_translated(Format.choices), initial=Format.MODERN)
    rel = forms.ChoiceField(label=_("REL"), choices=_translated(Rel.choices), initial=Rel.REGULAR)
    team_size = forms.IntegerField(
        label=_("Team size"),
        initial=2,
        **column_bounds(Tournament, "team_size", min_value=1),
        help_text=_("2 for Two-Headed Giant; 1 for an individual event."),
    )
    round_minutes = forms.IntegerField(
        label=_("Round minutes"),
        initial=50,
        **column_bounds(Tournament, "round_minutes", min_value=1),
        help_text=_("At least 40 (MTR Appendix B)."),
    )
    games_per_match = forms.IntegerField(
        label=_("Games per match"),
        required=False,
        **column_bounds(Tournament, "games_per_match", min_value=1),
        help_text=_("Empty: 1 for a team event (a 2HG match is one game), 3 for an individual event."),
    )
    swiss_rounds = forms.IntegerField(
        label=_("Swiss rounds"),
        required=False,
        **column_bounds(Tournament, "swiss_rounds", min_value=0),
        help_text=_("Empty: from the MTR chart by team count."),
    )
    top_cut = _optional_choice(
        TOP_CUT_CHOICES, coerce=int, label=_("Top cut"), help_text=_("Fixed once round 1 is paired.")
    )
    penalty_policy = _optional_choice(
        _translated(PenaltyPolicy.choices), label=_("Penalty policy"), initial=PenaltyPolicy.MATCH_POINT
    )
    udc_mode = _optional_choice(
        _translated(UdcMode.choices), label=_("Unified Deck Construction"), initial=UdcMode.MTR
    )


def _within_column(model_field, **kwargs) -> forms.Field | None:
    """A model field's form field, an integer bounded by what its PostgreSQL column holds
    (SQLite would take any integer, and 40,000 minutes must be a 400 on both)."""
    if isinstance(model_field, models.IntegerField):
        kwargs.update(column_bounds(model_field.model, model_field.name))
    return model_field.formfield(**kwargs)


class TournamentSettingsForm(forms.ModelForm):
    """The event's settings as the organizer changes them (``tournament_update`` checks the rules).

    The fields are the model's for ``SETTINGS`` (types, value sets, column ranges); only their
    words and widgets are written here. The form checks shape only and saves nothing: its
    ``changes()`` go to the service. Fields the event can no longer change are shown disabled:
    the structure once round 1 is paired, the team size also once a team is registered.
    """

    language = _language_field()
    time_zone = _time_zone_field()
    top_cut = _optional_choice(TOP_CUT_CHOICES, coerce=int, label=_("Top cut"))
    day_two = DayTwoField(
        label=_("Cut to day 2: after round, at least match points"),
        help_text=_(
            "After that round only the teams with at least that many match points play on; the others "
            "stay in the standings as not advanced. Swiss rounds count both days. Empty: no cut."
        ),
    )
    tiebreakers = forms.CharField(
        label=_("Tiebreakers"),
        required=False,
        help_text=_("In order, separated by commas, from match_points, omw, gw, ogw. Empty: the default."),
    )

    class Meta:
        model = Tournament
        fields = SETTINGS
        labels = {
            "name": _("Name"),
            "date": _("Date"),
            "venue": _("Venue"),
            "format": _("Format"),
            "rel": _("REL"),
            "team_size": _("Team size"),
            "games_per_match": _("Games per match"),
            "round_minutes": _("Round minutes"),
            "swiss_rounds": _("Swiss rounds"),
            "percentage_floor": _("Percentage floor"),
            "penalty_policy": _("Penalty policy"),
            "udc_mode": _("Unified Deck Construction"),
            "late_entry_missed_rounds": _("Late entry: missed rounds count as"),
            "late_entry_open": _("Late entry open"),
            "playoff_play_draw": _("Playoff play/draw"),
            "booster_draft_playoff": _("Booster Draft playoff"),
            "cross_pod_pairing": _("Cross-pod pairing"),
            "decklist_deadline": _("Decklist deadline"),
            "decklists_published": _("Decklists published"),
            "player_reporting": _("Player result reporting"),
            "check_in_required": _("Check-in required"),
            "day_two_tiebreakers": _("Tiebreakers of teams that did not advance"),
        }
        help_texts = {
            "check_in_required": _("Teams check in (on their phone, or here) before round 1 is paired."),
            "round_minutes": _("At least 40 (MTR Appendix B)."),
            "swiss_rounds": _("Empty: from the MTR chart by team count."),
            "late_entry_open": _("Untick to refuse new teams once round 1 is paired."),
            "booster_draft_playoff": _(
                "Limited: the Top 8 draft, then seat 1v5, 2v6, 3v7, 4v8 (9-16 teams: 4 Swiss rounds)."
            ),
            "cross_pod_pairing": _(
                "Booster Draft at Regular REL: pair across pods instead of within them, as announced."
            ),
            "decklists_published": _("Show every list on the event page once the event is finished."),
            "player_reporting": _(
                "Players report results on their phones and the other team confirms; off: paper slips "
                "only. A staff entry always wins."
            ),
        }
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "decklist_deadline": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
            ),
        }
        field_classes = {"decklist_deadline": forms.DateTimeField}
        formfield_callback = _within_column

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
        for name in (
            "format",
            "rel",
            "day_two_tiebreakers",
            "percentage_floor",
            "penalty_policy",
            "udc_mode",
            "late_entry_missed_rounds",
            "playoff_play_draw",
        ):
            field = self.fields[name]
            if isinstance(field, forms.ChoiceField):
                field.choices = _translated(list(field.choices))
        self.fields["day_two_tiebreakers"].required = False
        fixed = set(self.STRUCTURE) if structure_fixed else set()
        if team_size_fixed:
            fixed.add("team_size")
        for name in fixed:
            self.fields[name].disabled = True
            self.fields[name].help_text = (
                _("Fixed: round 1 is paired.") if structure_fixed else _("Fixed: teams are registered.")
            )

    def clean_day_two_tiebreakers(self) -> str:
        """A form posted without it (a page opened before the setting existed) keeps the value."""
        return self.cleaned_data["day_two_tiebreakers"] or self.initial["day_two_tiebreakers"]

    def clean_tiebreakers(self) -> list[str]:
        return self.cleaned_data["tiebreakers"].replace(",", " ").split()

    def changes(self) -> dict:
        """The values to hand to ``tournament_update``: every field the organizer may still edit."""
        return {name: value for name, value in self.cleaned_data.items() if not self.fields[name].disabled}


class TeamRegisterForm(forms.Form):
    """A team name and one name / Wizards Account row per member; the row count is the event's team size.

    The optional account username links a player to a login so the player page can find them.
    """

    MEMBER_PARTS = ("name", "name_reading", "wizards_id", "username")

    name = forms.CharField(label=_("Team name"), max_length=100)
    awarded_byes = forms.IntegerField(
        label=_("Awarded byes (rounds, before round 1)"),
        min_value=0,
        max_value=MAX_AWARDED_BYES,
        initial=0,
        required=False,
    )

    def __init__(self, *args, team_size: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.team_size = team_size
        for index in range(team_size):
            seat = {"seat": SEAT_LABELS[index]}
            self.fields[f"player_{index}_name"] = forms.CharField(
                label=_("Player %(seat)s name") % seat, max_length=100
            )
            self.fields[f"player_{index}_name_reading"] = forms.CharField(
                label=_("Player %(seat)s name reading (optional: kana or Latin letters)") % seat,
                max_length=100,
                required=False,
            )
            self.fields[f"player_{index}_wizards_id"] = forms.CharField(
                label=_("Player %(seat)s Wizards Account") % seat, max_length=254
            )
            self.fields[f"player_{index}_username"] = forms.CharField(
                label=_("Player %(seat)s login (optional)") % seat, max_length=150, required=False
            )

    def member_rows(self) -> list[tuple[str, list[forms.BoundField]]]:
        """(seat label, [name, reading, Wizards id, login]) for each member, so the template lays them out as rows."""
        return [
            (
                SEAT_LABELS[index],
                [self[f"player_{index}_{part}"] for part in self.MEMBER_PARTS],
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
                name_reading=data[f"player_{index}_name_reading"],
            )
            for index in range(self.team_size)
        ]

    def domain_field_map(self) -> dict[str, str]:
        """The service names member fields ``players[0].name``; the form names them ``player_0_name``."""
        return {
            f"players[{index}].{part}": f"player_{index}_{part}"
            for index in range(self.team_size)
            for part in self.MEMBER_PARTS
        }


class MatchResultForm(forms.Form):
    """One table's result as the scorekeeper enters it on the manage page (works without JS).

    ``result`` names the winner (``a``, ``b``) or a ``draw`` (0-0-1, a time draw) or an
    intentional draw (``id``, 0-0-3, MTR 2.5); the winner gets the games needed to win the match.
    ``version`` is the match version the page showed, so a result entered by someone else in the
    meantime is not overwritten (409). ``reason`` is needed only to change a confirmed result.
    """

    RESULT_CHOICES = [
        ("a", _("Left team wins")),
        ("b", _("Right team wins")),
        ("draw", _("Draw")),
        ("id", _("Intentional draw")),
    ]

    result = forms.ChoiceField(choices=RESULT_CHOICES)
    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    reason = forms.CharField(max_length=300, required=False)

    def games(self, games_to_win: int) -> dict[str, int]:
        """The game record the chosen result stands for (docs/rules.md#match-results, docs/rules.md#result-slips)."""
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
        (StaffRole.HEAD_JUDGE, _("Head judge")),
        (StaffRole.JUDGE, _("Judge")),
        (StaffRole.SCOREKEEPER, _("Scorekeeper")),
    ]

    username = forms.CharField(label=_("Username or e-mail"), max_length=254)
    role = forms.ChoiceField(label=_("Role"), choices=ROLE_CHOICES, initial=StaffRole.JUDGE)


class TeamsImportForm(forms.Form):
    csv = forms.CharField(
        label=_("Teams, one a line"),
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
        help_text=_(
            "team name, player name, Wizards Account, player name, Wizards Account "
            "(a name and account for each player, or a name, account and reading, the kana a "
            "Japanese name sorts by; a spreadsheet saved as CSV works too)."
        ),
    )


class ReasonForm(forms.Form):
    """A required reason, for drops and other actions that go into the audit log."""

    reason = forms.CharField(max_length=300)


class PrimaryPlayerForm(forms.Form):
    """Which of the team's players is primary (sits on the right) this match; ``players`` in the
    current seat order, so the current primary is preselected."""

    primary = forms.TypedChoiceField(label=_("We sit:"), coerce=int)

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["primary"].choices = [(p.pk, p.name) for p in players]
        self.fields["primary"].initial = players[0].pk if players else None


class PodsSeatForm(forms.Form):
    """Booster Draft: which draft of the event to seat (1 for the first), in the usual pods or in
    one pod of every team."""

    draft = forms.IntegerField(min_value=1, max_value=20)
    single_pod = forms.BooleanField(required=False)


class PlayerReportForm(forms.Form):
    """A team's report from a phone or from the slip's QR page (works without JS).

    ``result`` is from the reporting team's side: ``ours`` (we won), ``theirs`` (they won) or a
    ``draw``; ``draw_kind`` says which draw: a time draw 0-0-1 or an intentional draw 0-0-3
    (MTR 2.5). The winner gets the games needed to win, as on the manage page. ``side`` is asked
    only on the slip's page, where the reporter is not known.
    """

    RESULT_CHOICES = [("ours", _("We won")), ("theirs", _("They won")), ("draw", _("Draw"))]
    DRAW_CHOICES = [("time", _("Time draw (0-0-1)")), ("intentional", _("Intentional draw (0-0-3)"))]

    result = forms.ChoiceField(choices=RESULT_CHOICES)
    draw_kind = forms.ChoiceField(choices=DRAW_CHOICES, required=False)
    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    side = forms.ChoiceField(choices=TeamSide.choices, required=False)

    def games(self, side: str, games_to_win: int) -> dict[str, int]:
        """The game record, from team A's side, that the reporting team's choice stands for."""
        result = self.cleaned_data["result"]
        if result == "draw":
            draws = 3 if self.cleaned_data.get("draw_kind") == "intentional" else 1
            return {"team_a_wins": 0, "team_b_wins": 0, "draws": draws}
        a_won = (result == "ours") == (side == TeamSide.A)
        return {
            "team_a_wins": games_to_win if a_won else 0,
            "team_b_wins": 0 if a_won else games_to_win,
            "draws": 0,
        }


def report_choice(*, team_a_wins: int, team_b_wins: int, draws: int, side: str) -> tuple[str, str]:
    """The ``PlayerReportForm`` values (``result``, ``draw_kind``) a game record stands for, seen
    from team ``side``."""
    if team_a_wins == team_b_wins:
        return "draw", "intentional" if draws >= 3 else "time"
    a_won = team_a_wins > team_b_wins
    return ("ours" if a_won == (side == TeamSide.A) else "theirs"), ""
