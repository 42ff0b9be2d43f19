"""Value sets of the penalties core.

The event's REL and penalty policy are event settings, defined once in
``tournaments.domain.choices`` and re-exported here: a stored value passes straight in
(``Rel("competitive")``, ``PenaltyPolicy("match_point")``).
"""

from __future__ import annotations

from enum import StrEnum

from common.translatable import N_
from tournaments.domain.choices import PenaltyPolicy as PenaltyPolicy
from tournaments.domain.choices import Rel as Rel


class Penalty(StrEnum):
    """Penalties a decision can carry [IPG 1.1], plus the 2009 guide's match point penalty."""

    NO_PENALTY = "no_penalty"
    WARNING = "warning"
    GAME_LOSS = "game_loss"
    MATCH_LOSS = "match_loss"
    MATCH_POINT = "match_point"
    DISQUALIFICATION = "disqualification"

    @property
    def label(self) -> N_:
        """The IPG's English name, marked so a page shows the official translation (docs/decisions.md)."""
        return _PENALTY_LABELS[self]


_PENALTY_LABELS = {
    Penalty.NO_PENALTY: N_("No Penalty"),
    Penalty.WARNING: N_("Warning"),
    Penalty.GAME_LOSS: N_("Game Loss"),
    Penalty.MATCH_LOSS: N_("Match Loss"),
    Penalty.MATCH_POINT: N_("one match point penalty"),
    Penalty.DISQUALIFICATION: N_("Disqualification"),
}


class InfractionCategory(StrEnum):
    """The three IPG families: Game Play Error (§2), Tournament Error (§3), Unsporting Conduct (§4)."""

    GPE = "GPE"
    TE = "TE"
    USC = "USC"


class TeamEffect(StrEnum):
    """What a penalty on one player does to the team [MTR 8.2, CR 810.8a].

    ``LOSE_MATCH``: the match result goes against the team (a Game Loss ends the single game).
    ``MATCH_POINT``: the team's match points drop by one. ``DISQUALIFY_TEAM``: the team loses the
    current match, is dropped and leaves the standings.
    """

    NONE = "none"
    LOSE_MATCH = "lose_match"
    MATCH_POINT = "match_point"
    DISQUALIFY_TEAM = "disqualify_team"


class DeckProblemUpgrade(StrEnum):
    """The four conditions that raise a Deck Problem from Warning to Game Loss [IPG 3.5; rules §4.6]."""

    INVALID_COUNT_AT_PRESENTATION_OR_CHECK = "invalid_count_at_presentation_or_check"
    BELOW_MINIMUM_AFTER_SIDEBOARDING = "below_minimum_after_sideboarding"
    OPPONENT_ACTED_ON_SIDEBOARD_CARD = "opponent_acted_on_sideboard_card"
    EXTRA_COPIES_PLAYED = "extra_copies_played"

    @property
    def label(self) -> N_:
        return _DECK_PROBLEM_LABELS[self]


_DECK_PROBLEM_LABELS = {
    DeckProblemUpgrade.INVALID_COUNT_AT_PRESENTATION_OR_CHECK: N_(
        "fewer cards than registered or a larger sideboard, found at presentation or a deck check"
    ),
    DeckProblemUpgrade.BELOW_MINIMUM_AFTER_SIDEBOARDING: N_("below the format minimum after sideboarding"),
    DeckProblemUpgrade.OPPONENT_ACTED_ON_SIDEBOARD_CARD: N_(
        "the opponent may have acted on a sideboard card"
    ),
    DeckProblemUpgrade.EXTRA_COPIES_PLAYED: N_("more copies of a main-deck card played than registered"),
}
