"""The judge page's form: only the shape of the data; the rules are the service's."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from common.numbers import column_bounds
from penalties.domain import CATALOGUE, DeckProblemUpgrade
from penalties.domain import Penalty as PenaltyKind
from penalties.models import Penalty
from penalties.services import CONTEXT_FLAGS

FLAG_LABELS = {
    "found_during_deck_check": gettext_lazy("Found during a deck check"),
    "game_cannot_continue": gettext_lazy("The game cannot physically continue"),
    "in_extra_turns": gettext_lazy("Match already in extra turns"),
    "between_matches": gettext_lazy(
        "Between matches: a Game or Match Loss goes to the team's next match (this round's match if "
        "no result is reported yet, else its first later match once paired)"
    ),
    "knowingly": gettext_lazy("The player knew it was against the rules"),
    "repeated_after_reminders": gettext_lazy(
        "Repeated after being told the next one is a Game Loss (Regular)"
    ),
    "trigger_detrimental": gettext_lazy("Trigger usually detrimental to its controller"),
    "illegal_face_down": gettext_lazy("Illegal face-down permanent"),
    "information_available_between_games": gettext_lazy("Information was available between games"),
    "marked_pattern_advantage": gettext_lazy("Pattern of markings gives substantial advantage"),
    "marked_no_replacements": gettext_lazy("No replacements: basic lands added"),
    "malicious_or_unremorseful": gettext_lazy("Malicious or without remorse"),
}


class PenaltyIssueForm(forms.Form):
    player = forms.IntegerField()
    infraction = forms.ChoiceField(choices=[(code, code) for code in CATALOGUE])
    description = forms.CharField(max_length=4000, widget=forms.Textarea(attrs={"rows": 3}))
    penalty = forms.ChoiceField(
        choices=[
            ("", gettext_lazy("As proposed")),
            *((kind.value, gettext_lazy(kind.label)) for kind in PenaltyKind),
        ],
        required=False,
    )
    deviation_reason = forms.CharField(max_length=2000, required=False)
    day = forms.IntegerField(**column_bounds(Penalty, "day", min_value=1), required=False)
    minutes_late = forms.FloatField(min_value=0, required=False)
    deck_problem_upgrade = forms.ChoiceField(
        choices=[("", "—"), *((value.value, gettext_lazy(value.label)) for value in DeckProblemUpgrade)],
        required=False,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in CONTEXT_FLAGS:
            self.fields[name] = forms.BooleanField(required=False, label=FLAG_LABELS[name])

    def context_values(self) -> dict:
        """The circumstances for the service, as the API passes them."""
        data = self.cleaned_data
        values = {name: data[name] for name in CONTEXT_FLAGS}
        values["minutes_late"] = data["minutes_late"]
        values["deck_problem_upgrade"] = data["deck_problem_upgrade"] or None
        return values
