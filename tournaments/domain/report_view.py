"""A match's report as one reader sees it: where it stands, the texts, and what the reader may do.

The staff's results grid, the scorekeeper's slip entry, the player's page and the slip's QR page
all read a match through ``report_view``, fed by the match's stored entries (``result_state``'s
``Entry``), so a match is classified in one place. The state comes from ``result_state.derive``;
each team's open report is the latest one the rules accepted for it since staff last entered the
result (a staff entry settles the reports; a penalty and its clearing leave them standing, as
``derive`` leaves the reported part). A result slip stands for one team at most and never confirms
(``result_state``): its holder is offered only what the slip may do, and told why.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from common.translatable import N_
from tournaments.domain.choices import TeamSide
from tournaments.domain.result_state import (
    TEAM_SOURCES,
    Entry,
    EntrySource,
    ResultRefused,
    ResultState,
    apply,
)
from tournaments.domain.results import ResultKind


class ReportState(StrEnum):
    """Where a match's result stands. ``waiting``: a team's report waits for the other team (for a
    side: its own report); ``to_confirm``: the other team's report waits for this side (a side's
    view only)."""

    OPEN = "open"
    WAITING = "waiting"
    TO_CONFIRM = "to_confirm"
    DISPUTED = "disputed"
    CONFIRMED = "confirmed"
    PENALTY = "penalty"


class ReaderMay(StrEnum):
    """What the reader may send: a report, the confirmation of the other team's report in one tap,
    or a different result than the other team's (a dispute)."""

    REPORT = "report"
    CONFIRM = "confirm"
    DISPUTE = "dispute"


@dataclass(frozen=True, slots=True)
class ReportView:
    """``state`` for the reader's side (the staff's view for none); ``ours`` and ``theirs`` each
    side's open report (``ours`` is team A's in the staff's view); ``may``: nothing once settled;
    ``status``: the staff's line (who reported, whether it counts); ``note``: why a slip's holder
    may not do more (empty otherwise). Texts are ``N_`` messages the page translates."""

    state: ReportState
    ours: Entry | None
    theirs: Entry | None
    may: frozenset[ReaderMay]
    status: str
    note: str = ""

    @property
    def settled(self) -> bool:
        """The result counts (confirmed, or decided by a penalty)."""
        return self.state in (ReportState.CONFIRMED, ReportState.PENALTY)


def open_reports(
    entries: Iterable[Entry], *, games_per_match: int = 1
) -> tuple[ResultState, dict[TeamSide, Entry]]:
    """The state the entries give and each team's latest report the rules accepted since the last
    staff entry (which settles the reports)."""
    state = ResultState()
    latest: dict[TeamSide, Entry] = {}
    for entry in entries:
        try:
            state = apply(state, entry, games_per_match=games_per_match).state
        except ResultRefused:
            continue
        if entry.source in TEAM_SOURCES and entry.side is not None:
            latest[entry.side] = entry
        elif entry.source is EntrySource.STAFF:
            latest = {}
    return state, latest


def report_view(
    entries: Iterable[Entry],
    side: TeamSide | None = None,
    *,
    games_per_match: int = 1,
    players_report: bool = True,
    slip: bool = False,
    side_chosen: bool = True,
    team_names: Mapping[TeamSide, str] | None = None,
    author_names: Mapping[int, str] | None = None,
) -> ReportView:
    """How ``side`` sees the match the ``entries`` (in the order they were made) give; ``side``
    ``None``: the staff's view. ``players_report``: the event lets players report (else they may
    do nothing). ``slip``: the reader holds the result slip without being a signed-in player of the
    match; ``side_chosen``: such a reader said which team they are on. ``team_names`` and
    ``author_names`` (user id → name) fill in the texts."""
    state, latest = open_reports(entries, games_per_match=games_per_match)
    result = state.result
    view_side = side or TeamSide.A
    status = _status(state, author_names or {})
    reported = result.side
    if state.by_penalty:
        shown = ReportState.PENALTY
    elif result.confirmed:
        shown = ReportState.CONFIRMED
    elif result.disputed:
        shown = ReportState.DISPUTED
    elif side is None:
        shown = ReportState.WAITING if result.kind is not ResultKind.PENDING else ReportState.OPEN
    elif reported == side:
        shown = ReportState.WAITING
    elif reported is not None:
        shown = ReportState.TO_CONFIRM
    else:
        shown = ReportState.OPEN
    may: frozenset[ReaderMay] = frozenset()
    note = ""
    if side is not None and players_report and shown not in (ReportState.CONFIRMED, ReportState.PENALTY):
        if slip and reported is not None:
            may, note = _slip_may(latest, reported, side, side_chosen, team_names or {})
        elif shown is ReportState.TO_CONFIRM:
            may = frozenset({ReaderMay.CONFIRM, ReaderMay.DISPUTE})
        else:
            may = frozenset({ReaderMay.REPORT})
    return ReportView(shown, latest.get(view_side), latest.get(view_side.other), may, status, note)


def _status(state: ResultState, author_names: Mapping[int, str]) -> str:
    """Who reported the result and whether it counts yet (only confirmed results count)."""
    result = state.result
    if result.kind is ResultKind.PENDING:
        return N_("Not yet reported")
    if result.disputed:
        return N_("Disputed: the teams reported different results")
    side = result.side
    name = author_names.get(result.author) if result.author is not None else None
    if name:
        who = N_("%(name)s (a team %(side)s player)", name=name, side=str(side)) if side else name
    else:
        who = N_("the result slip's holder (for team %(side)s)", side=str(side)) if side else N_("staff")
    if result.confirmed:
        return N_("Reported by %(who)s, confirmed", who=who)
    return N_("Reported by %(who)s, waiting for confirmation", who=who)


def _slip_may(
    latest: Mapping[TeamSide, Entry],
    reported: TeamSide,
    side: TeamSide,
    side_chosen: bool,
    team_names: Mapping[TeamSide, str],
) -> tuple[frozenset[ReaderMay], str]:
    """What a slip's holder may still do while a team's report stands: the slip's own report may be
    corrected from the side it was sent for; a report from the slip stands for one team only; the
    other team's report is confirmed by a signed-in player, never by the slip."""
    standing = latest.get(reported)
    other = team_names.get(reported.other, "")
    if standing is not None and standing.source is EntrySource.SLIP:
        if side_chosen and side == reported:
            return frozenset({ReaderMay.REPORT}), ""
        return frozenset(), N_(
            "This result slip has reported for one team; a slip counts for one team only. To "
            "confirm, a player of %(team)s signs in, or hand the slip to a scorekeeper.",
            team=other,
        )
    may = ReaderMay.DISPUTE if side != reported else ReaderMay.REPORT
    return frozenset({may}), N_(
        "A result slip cannot confirm a report: a player of %(team)s confirms signed in, or hands "
        "the slip to a scorekeeper. If the result is wrong, report what happened: a judge will come.",
        team=other,
    )
