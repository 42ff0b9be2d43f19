"""A match's report view: the state, the texts and what each reader may do, from the entries alone."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournaments.domain.choices import TeamSide
from tournaments.domain.report_view import ReaderMay, ReportState, report_view
from tournaments.domain.result_state import Entry, EntrySource, derive

A, B = TeamSide.A, TeamSide.B
WIN_A, WIN_B = (1, 0, 0), (0, 1, 0)
NAMES = {A: "Dual Wield", B: "Twin Flames"}
ALICE, BOB, JUDGE = 1, 2, 3
AUTHORS = {ALICE: "alice", BOB: "bob", JUDGE: "judge"}


def player(side: TeamSide, counts, author: int | None = None, source=EntrySource.PLAYER) -> Entry:
    return Entry(source, side, *counts, author=author)


def slip(side: TeamSide, counts) -> Entry:
    return Entry(EntrySource.SLIP, side, *counts)


def staff(counts, author: int | None = JUDGE) -> Entry:
    return Entry(EntrySource.STAFF, None, *counts, author=author)


PENALTY = Entry(EntrySource.PENALTY, A, reason="TE-DLP upgraded", author=JUDGE)
CLEAR = Entry(EntrySource.PENALTY_CLEARED, reason="appeal upheld", author=JUDGE)
REPORT, CONFIRM_OR_DISPUTE = frozenset({ReaderMay.REPORT}), frozenset({ReaderMay.CONFIRM, ReaderMay.DISPUTE})


def test_nothing_reported_yet():
    staff_view = report_view([])
    assert (staff_view.state, staff_view.status, staff_view.may) == (
        ReportState.OPEN,
        "Not yet reported",
        set(),
    )
    assert (report_view([], A).state, report_view([], A).may) == (ReportState.OPEN, REPORT)


def test_a_teams_report_waits_for_the_other_team_who_may_confirm_it_or_dispute_it():
    entries = [player(A, WIN_A, ALICE)]
    mine, theirs = report_view(entries, A), report_view(entries, B)
    assert (mine.state, mine.may, mine.ours, mine.theirs) == (ReportState.WAITING, REPORT, entries[0], None)
    assert (theirs.state, theirs.may, theirs.ours, theirs.theirs) == (
        ReportState.TO_CONFIRM,
        CONFIRM_OR_DISPUTE,
        None,
        entries[0],
    )
    staff_view = report_view(entries, author_names=AUTHORS)
    assert staff_view.state == ReportState.WAITING
    assert staff_view.status == "Reported by alice (a team A player), waiting for confirmation"


def test_the_same_report_from_the_other_team_confirms_and_nobody_may_send_more():
    entries = [player(A, WIN_A, ALICE), player(B, WIN_A, BOB)]
    for side in (A, B, None):
        view = report_view(entries, side, author_names=AUTHORS)
        assert (view.state, view.may, view.settled) == (ReportState.CONFIRMED, set(), True)
    assert report_view(entries, author_names=AUTHORS).status == "Reported by bob (a team B player), confirmed"


def test_different_reports_are_disputed_and_both_stay_shown():
    entries = [player(A, WIN_A, ALICE), player(B, WIN_B, BOB)]
    view = report_view(entries, B)
    assert (view.state, view.ours, view.theirs, view.may) == (
        ReportState.DISPUTED,
        entries[1],
        entries[0],
        REPORT,
    )
    assert report_view(entries).status == "Disputed: the teams reported different results"


def test_a_staff_entry_settles_the_reports():
    entries = [player(A, WIN_A, ALICE), player(B, WIN_B, BOB), staff(WIN_B)]
    view = report_view(entries, A, author_names=AUTHORS)
    assert (view.state, view.ours, view.theirs, view.may) == (ReportState.CONFIRMED, None, None, set())
    assert view.status == "Reported by judge, confirmed"
    assert report_view([staff(WIN_B, author=None)]).status == "Reported by staff, confirmed"


def test_a_penalty_decides_and_its_clearing_brings_the_open_reports_back():
    """The old selector forgot the reports at a penalty, so after its clearing the player's page
    said "You reported: ." with no result."""
    report = player(A, WIN_A, ALICE)
    during = report_view([report, PENALTY], A)
    assert (during.state, during.may, during.settled) == (ReportState.PENALTY, set(), True)
    after = report_view([report, PENALTY, CLEAR], A)
    assert (after.state, after.ours, after.may) == (ReportState.WAITING, report, REPORT)
    assert report_view([report, PENALTY, CLEAR], B).theirs == report


def test_players_who_do_not_report_may_do_nothing():
    for entries in ([], [player(A, WIN_A)]):
        assert report_view(entries, B, players_report=False).may == set()


def test_a_slip_that_reported_for_one_team_may_correct_it_but_never_confirm():
    entries = [slip(A, WIN_A)]
    own = report_view(entries, A, slip=True, team_names=NAMES)
    assert (own.may, own.note) == (REPORT, "")
    for side, chosen in ((A, False), (B, True)):
        view = report_view(entries, side, slip=True, side_chosen=chosen, team_names=NAMES)
        assert view.may == set()
        assert view.note.startswith("This result slip has reported for one team")
        assert "a player of Twin Flames signs in" in view.note
    signed_in = report_view(entries, B)
    assert signed_in.may == CONFIRM_OR_DISPUTE
    assert (
        report_view(entries).status
        == "Reported by the result slip's holder (for team A), waiting for confirmation"
    )


def test_a_slip_may_dispute_a_players_report_and_is_told_it_cannot_confirm_it():
    view = report_view([player(A, WIN_A, ALICE)], B, slip=True, team_names=NAMES)
    assert view.may == {ReaderMay.DISPUTE}
    assert view.note.startswith("A result slip cannot confirm a report: a player of Twin Flames")


def test_an_entry_the_rules_refuse_is_not_an_open_report():
    """A slip report that would confirm the other team's report is refused, so it is nobody's
    open report (the old selector showed it)."""
    first = player(A, WIN_A, ALICE)
    view = report_view([first, slip(B, WIN_A)], B)
    assert (view.state, view.ours, view.theirs) == (ReportState.TO_CONFIRM, None, first)


COUNTS = st.sampled_from([WIN_A, WIN_B, (0, 0, 1), (0, 0, 3)])
SIDES = st.sampled_from([A, B])
ENTRIES = st.one_of(
    st.builds(player, SIDES, COUNTS, st.sampled_from([ALICE, BOB])),
    st.builds(slip, SIDES, COUNTS),
    st.builds(staff, COUNTS),
    st.just(PENALTY),
    st.just(CLEAR),
)


@given(st.lists(ENTRIES, max_size=8), st.booleans())
def test_every_reader_agrees_with_the_state_machine(entries, slip_reader):
    state = derive(entries)
    staff_view = report_view(entries)
    views = {side: report_view(entries, side, slip=slip_reader, team_names=NAMES) for side in (A, B)}
    settled = state.result.confirmed
    assert staff_view.settled == settled == views[A].settled == views[B].settled
    assert (staff_view.state == ReportState.PENALTY) == state.by_penalty
    if staff_view.state == ReportState.WAITING:
        waiting = state.result.side
        assert views[waiting].state == ReportState.WAITING
        assert views[waiting.other].state == ReportState.TO_CONFIRM
    for side, view in views.items():
        assert view.ours == views[side.other].theirs
        assert (view.may == set()) == settled or (slip_reader and bool(view.note))
        if slip_reader:
            assert ReaderMay.CONFIRM not in view.may
        for report in (view.ours, view.theirs):
            assert report is None or report in entries
