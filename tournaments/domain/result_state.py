"""A match's result as a small state machine: every report is kept, the result is derived.

What people submit about a match is a list of entries (a player's report for their team, a
scorekeeper's entry, a penalty that imposes a Match Loss, the clearing of that penalty after an
appeal). ``apply`` is the one transition: it takes the state and one entry and answers the next
state, or refuses the entry with a reason. ``derive`` folds stored entries from the start, so the
result is always what the entries give, and a cleared penalty restores by recomputation (the
reported part of the state is untouched while a penalty decides the match) instead of a saved
copy. Tabbycat keeps ballot submissions the same way.

Who confirms (docs/decisions.md "Result slips, players' phones and staff"): a staff entry is final
at once; a team's report waits for a signed-in player of the other team to report the same result
(confirmed) or a different one (disputed, staff decide). A report through a result slip proves
possession of the slip, not who holds it: it stands for one team at most and never confirms, so one
holder of a slip, on any number of devices, cannot make a result final. Changing a confirmed
result is a staff correction with a reason.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime

from common.translatable import N_
from tournaments.domain.choices import Choices, TeamSide
from tournaments.domain.errors import TournamentError
from tournaments.domain.results import ResultKind, games_to_win


class EntrySource(Choices):
    """Who made a result entry; the value set of ``ResultReport.source``."""

    PLAYER = "player", "Player of the match"
    SLIP = "slip", "Holder of the result slip"
    STAFF = "staff", "Scorekeeping staff"
    PENALTY = "penalty", "Match Loss by penalty"
    PENALTY_CLEARED = "penalty_cleared", "Penalty result cleared"


#: Entries made for one team of the match, which the other team must confirm.
TEAM_SOURCES = frozenset({EntrySource.PLAYER, EntrySource.SLIP})


class ResultRefused(TournamentError):
    """The entry cannot be applied to the match as it is now. ``field`` names the input at fault
    (``reason`` for a missing reason) or is empty for a conflict with the current state."""

    def __init__(self, message: str, *, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


@dataclass(frozen=True, slots=True)
class Entry:
    """One stored entry. Game counts are from team A's side. ``side``: the reporting team for a
    player or slip report; the losing team of a penalty (``None``: both teams, a double loss)."""

    source: EntrySource
    side: TeamSide | None = None
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    reason: str = ""
    author: int | None = None
    at: datetime | None = None

    @property
    def counts(self) -> tuple[int, int, int]:
        return (self.a_wins, self.b_wins, self.draws)


@dataclass(frozen=True, slots=True)
class Reported:
    """What the reports alone say: the part a cleared penalty comes back to."""

    kind: ResultKind = ResultKind.PENDING
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    confirmed: bool = False
    disputed: bool = False
    side: TeamSide | None = None
    author: int | None = None
    at: datetime | None = None
    by_slip: bool = False

    @property
    def counts(self) -> tuple[int, int, int]:
        return (self.a_wins, self.b_wins, self.draws)


@dataclass(frozen=True, slots=True)
class ResultState:
    """The reported part, and the penalty result that overrides it while one stands."""

    reported: Reported = Reported()
    penalty: Reported | None = None

    @property
    def result(self) -> Reported:
        """The match's result as everyone sees it (the penalty's while one stands)."""
        return self.penalty if self.penalty is not None else self.reported

    @property
    def by_penalty(self) -> bool:
        return self.penalty is not None


@dataclass(frozen=True, slots=True)
class Transition:
    """The next state, and the audit action the change calls for (empty: none)."""

    state: ResultState
    audit: str = ""


def apply(state: ResultState, entry: Entry, *, games_per_match: int = 1) -> Transition:
    """The one transition: ``entry`` applied to ``state``; raises ``ResultRefused`` if it cannot be."""
    if entry.source in TEAM_SOURCES:
        return _team_report(state, entry)
    if entry.source is EntrySource.STAFF:
        return _staff_entry(state, entry)
    if entry.source is EntrySource.PENALTY:
        return Transition(
            replace(state, penalty=_penalty_result(entry, games_per_match)), "match_penalty_result"
        )
    if not state.by_penalty:
        raise ResultRefused(N_("this match's result was not set by a penalty"))
    return Transition(replace(state, penalty=None), "match_penalty_result_clear")


def derive(entries: Iterable[Entry], *, games_per_match: int = 1) -> ResultState:
    """The state the stored entries give, applied in the order they were made. An entry the rules
    refuse is passed over: it was stored under an older rule (a slip that confirmed a report
    before slips stopped confirming), and the rules in force decide what it counts for."""
    state = ResultState()
    for entry in entries:
        try:
            state = apply(state, entry, games_per_match=games_per_match).state
        except ResultRefused:
            continue
    return state


def _played(
    entry: Entry, *, side: TeamSide | None = None, confirmed: bool = False, disputed: bool = False
) -> Reported:
    return Reported(
        ResultKind.PLAYED,
        entry.a_wins,
        entry.b_wins,
        entry.draws,
        confirmed=confirmed,
        disputed=disputed,
        side=side,
        author=entry.author,
        at=entry.at,
        by_slip=entry.source is EntrySource.SLIP,
    )


def _team_report(state: ResultState, entry: Entry) -> Transition:
    if entry.side is None:
        raise ResultRefused(N_("a player's report must say which team it is for"), field="side")
    if state.by_penalty:
        raise ResultRefused(N_("a penalty decided this match; a judge must clear the penalty first"))
    current = state.reported
    if current.confirmed:
        raise ResultRefused(N_("the result is already confirmed; ask a scorekeeper to change it"))
    other_reported = current.kind is ResultKind.PLAYED and current.side not in (None, entry.side)
    if entry.source is EntrySource.SLIP:
        _check_slip_report(current, entry, other_reported=other_reported)
    if not other_reported:
        return Transition(replace(state, reported=_played(entry, side=entry.side)))
    if current.counts == entry.counts:
        return Transition(replace(state, reported=_played(entry, side=entry.side, confirmed=True)))
    disputed = _played(entry, side=entry.side, disputed=True)
    return Transition(replace(state, reported=disputed), "match_result_disputed")


def _check_slip_report(current: Reported, entry: Entry, *, other_reported: bool) -> None:
    """A slip stands for one team at most and never confirms: refused are a slip report for the
    other team while the slip's own report stands, one that would confirm the other team's report,
    and one over a report a signed-in player of the same team made."""
    if current.kind is not ResultKind.PLAYED or current.side is None:
        return
    if current.by_slip and other_reported:
        raise ResultRefused(
            N_(
                "this result slip already reported for the other team; a slip counts for one team "
                "only: the other team confirms signed in on a player's phone, or a scorekeeper "
                "enters the result"
            )
        )
    if other_reported and current.counts == entry.counts:
        raise ResultRefused(
            N_(
                "a result slip cannot confirm the other team's report: a player of your team "
                "confirms signed in on their phone, or a scorekeeper enters the result"
            )
        )
    if not other_reported and not current.by_slip:
        raise ResultRefused(
            N_("a player of this team already reported on their phone; they may change it there")
        )


def _staff_entry(state: ResultState, entry: Entry) -> Transition:
    if state.by_penalty:
        raise ResultRefused(N_("a penalty decided this match; a judge must clear the penalty first"))
    current = state.reported
    correcting = current.confirmed and current.counts != entry.counts
    if correcting and not entry.reason.strip():
        raise ResultRefused(N_("a reason is required to change a confirmed result"), field="reason")
    audit = "match_result_correct" if correcting else "match_result_decide" if current.disputed else ""
    return Transition(replace(state, reported=_played(entry, confirmed=True)), audit)


def _penalty_result(entry: Entry, games_per_match: int) -> Reported:
    """A Match Loss: the loser 0 games, the winner the games needed, as a concession would."""
    if entry.side is None:
        return Reported(ResultKind.DOUBLE_LOSS, confirmed=True, author=entry.author, at=entry.at)
    needed = games_to_win(games_per_match)
    a_wins, b_wins = (0, needed) if entry.side is TeamSide.A else (needed, 0)
    return Reported(
        ResultKind.MATCH_LOSS, a_wins, b_wins, 0, confirmed=True, author=entry.author, at=entry.at
    )
