"""The pure tournament core: no Django, plain values in and out, seed and clock passed in.

Swiss engine public API (the Django adapter calls only these):

* ``EventState`` / ``EventSettings``: everything recorded about an event, keyed by int team id.
* ``compute_standings(state, seed=...)`` -> list of ``StandingRow``.
* ``pair_round(state, round_number=..., seed=...)`` -> ``RoundPairing`` (tables + explanation).
* ``recommended_rounds(teams)`` (``chart_size`` counts awarded-bye holders) and the playoff bracket helpers.
"""

from tournaments.domain.errors import (
    PairingError,
    PlayoffError,
    ResultError,
    SettingsError,
    TournamentError,
)
from tournaments.domain.event import (
    DEFAULT_FLOOR,
    INDIVIDUAL_TIEBREAKERS,
    TEAM_TIEBREAKERS,
    EventSettings,
    EventState,
    Tiebreaker,
    parse_floor,
)
from tournaments.domain.pairing import (
    PairedDown,
    RoundPairing,
    TablePairing,
    pair_round,
)
from tournaments.domain.results import MatchResult, Outcome, ResultKind, games_to_win
from tournaments.domain.rounds import (
    PlayoffMatch,
    RoundPlan,
    chart_size,
    first_playoff_round,
    next_playoff_round,
    playoff_winner,
    recommended_rounds,
)
from tournaments.domain.standings import (
    StandingRow,
    TeamRecord,
    compute_standings,
    day_two_counts,
    day_two_eliminated,
    format_percentage,
    standings_order,
    tally,
    with_day_two_cut,
)

__all__ = [
    "DEFAULT_FLOOR",
    "INDIVIDUAL_TIEBREAKERS",
    "TEAM_TIEBREAKERS",
    "EventSettings",
    "EventState",
    "MatchResult",
    "Outcome",
    "PairedDown",
    "PairingError",
    "PlayoffError",
    "PlayoffMatch",
    "ResultError",
    "ResultKind",
    "RoundPairing",
    "RoundPlan",
    "SettingsError",
    "StandingRow",
    "TablePairing",
    "TeamRecord",
    "Tiebreaker",
    "TournamentError",
    "chart_size",
    "compute_standings",
    "day_two_counts",
    "day_two_eliminated",
    "first_playoff_round",
    "format_percentage",
    "games_to_win",
    "next_playoff_round",
    "pair_round",
    "parse_floor",
    "playoff_winner",
    "recommended_rounds",
    "standings_order",
    "with_day_two_cut",
    "tally",
]
