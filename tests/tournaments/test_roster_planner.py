"""The roster planner on plain values: who sits down now, who is invited or linked, what is refused.

No database: the accounts are numbers, the event's other players two sets (``Registration``).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournaments.registration.planner import PlayerEntry, Registration, plan_registration

ACTOR = 1
ANA = PlayerEntry(name="Ana", wizards_id="ana@example.org", username="ana")
BEN = PlayerEntry(name="Ben", wizards_id="ben@example.org", username="ben")
CAT = PlayerEntry(name="Cat", wizards_id="cat@example.org")
WALK_IN = PlayerEntry(name="Dee", wizards_id="dee@example.org")


def _plan(players, accounts, *, at_desk=False, team_size=2, **facts):
    return plan_registration(
        Registration(
            team_size=team_size,
            players=players,
            accounts=accounts,
            actor=ACTOR,
            at_desk=at_desk,
            limits={"name": 100, "wizards_id": 254},
            **facts,
        )
    )


def _messages(plan) -> list[tuple[str, str]]:
    return [(refusal["field"], str(refusal["message"])) for refusal in plan.refusals]


def test_a_player_sits_down_and_invites_the_teammate_they_name_by_login():
    plan = _plan([ANA, BEN], [ACTOR, 2])
    assert plan.refusals == ()
    assert plan.seated == (0,)
    assert plan.own_seats == {0: ACTOR}
    assert plan.invited == {1: 2}
    assert plan.linked == {}
    assert plan.by_wizards_account == frozenset()
    assert not plan.complete


def test_a_teammate_named_only_by_wizards_account_is_invited_and_remembered_as_such():
    plan = _plan([ANA, CAT], [ACTOR, 3])
    assert plan.invited == {1: 3}
    assert plan.by_wizards_account == frozenset({3})


def test_a_teammate_without_a_known_account_is_refused_with_the_join_code_hint():
    plan = _plan([ANA, CAT], [ACTOR, None])
    assert _messages(plan) == [
        (
            "players[1].username",
            "name your teammate's account (their login) to invite them, or give them the team's join code",
        )
    ]
    assert plan.seated == () and plan.invited == {}


def test_at_the_desk_everyone_sits_down_and_named_accounts_are_asked_to_be_linked():
    plan = _plan([WALK_IN, BEN], [None, 2], at_desk=True)
    assert plan.refusals == ()
    assert plan.seated == (0, 1)
    assert plan.linked == {1: 2}
    assert plan.invited == {} and plan.own_seats == {}
    assert plan.complete


def test_the_desk_registers_exactly_a_team_size_of_players():
    plan = _plan([WALK_IN], [None], at_desk=True, team_size=3)
    assert _messages(plan) == [("players", "this event's teams have 3 players, got 1")]


def test_a_player_who_does_not_list_themselves_is_told_to_only_when_nothing_else_is_wrong():
    assert _messages(_plan([BEN], [2])) == [
        ("players", "list yourself (your login) on the team you register")
    ]
    assert _messages(_plan([BEN], [2], name_refusal={"field": "name", "message": "taken"})) == [
        ("name", "taken")
    ]


def test_refusals_come_in_the_form_order_with_todays_messages():
    twice = PlayerEntry(name="", wizards_id="ANA@example.org ", username="ana")
    plan = _plan(
        [ANA, twice, PlayerEntry(name="Dan", wizards_id="dan@example.org", username="dan")],
        [ACTOR, ACTOR, None],
        awarded_byes=4,
        taken_accounts=frozenset(),
    )
    assert _messages(plan) == [
        ("awarded_byes", "0 to 3 rounds, got 4"),
        ("players", "list yourself and up to 1 teammate(s), got 3"),
        ("players[1].name", "the player's name is empty"),
        ("players[1].wizards_id", "the same person is listed twice"),
        ("players[1].username", "ana is already on a team in this event"),
        ("players[2].username", "no account named 'dan'"),
    ]


def test_byes_after_round_one_and_details_already_in_the_event_are_refused():
    long_name = PlayerEntry(name="x" * 101, wizards_id="ben@example.org", username="ben")
    plan = _plan(
        [ANA, long_name],
        [ACTOR, 2],
        awarded_byes=1,
        swiss_paired=True,
        taken_wizards_ids=frozenset({"ben@example.org"}),
        taken_accounts=frozenset({2}),
    )
    assert _messages(plan) == [
        ("awarded_byes", "awarded byes are entered before round 1"),
        ("players[1].name", "at most 100 characters, got 101"),
        ("players[1].wizards_id", "ben@example.org is already on a team in this event"),
        ("players[1].username", "ben is already on a team in this event"),
    ]


def test_an_account_found_by_wizards_account_is_named_by_it_when_refused():
    plan = _plan([ANA, CAT], [ACTOR, 3], taken_accounts=frozenset({3}))
    assert _messages(plan) == [
        ("players[1].wizards_id", "cat@example.org is already on a team in this event")
    ]


def test_a_bad_reading_is_refused_on_its_field():
    plan = _plan([PlayerEntry(name="Ana", wizards_id="a", username="ana", name_reading="安")], [ACTOR])
    assert [field for field, _message in _messages(plan)] == ["players[0].name_reading"]


# Properties over random registrations: team sizes of 1 to 4 heads, a few accounts and Wizards
# Accounts that may repeat, some already on a team in the event.
entries = st.builds(
    PlayerEntry,
    name=st.sampled_from(["", "Ana", "Ben B"]),
    wizards_id=st.sampled_from(["", "a@x", "b@x", "c@x", "A@X "]),
    username=st.sampled_from([None, "", "ana", "ben"]),
)


@st.composite
def registrations(draw):
    players = draw(st.lists(entries, max_size=6))
    return Registration(
        team_size=draw(st.sampled_from([2, 3, 4, 1])),
        players=players,
        accounts=[draw(st.sampled_from([None, ACTOR, 2, 3, 4])) for _ in players],
        actor=ACTOR,
        at_desk=draw(st.booleans()),
        awarded_byes=draw(st.integers(min_value=-1, max_value=4)),
        swiss_paired=draw(st.booleans()),
        taken_wizards_ids=draw(st.frozensets(st.sampled_from(["a@x", "b@x"]))),
        taken_accounts=draw(st.frozensets(st.sampled_from([2, 3]))),
        limits={"name": 100, "wizards_id": 254},
    )


@given(registrations())
def test_nobody_both_sits_down_and_is_invited_and_no_account_is_placed_twice(registration):
    plan = plan_registration(registration)
    assert not set(plan.seated) & set(plan.invited)
    assert set(plan.own_seats) | set(plan.linked) <= set(plan.seated)
    placed = [*plan.own_seats.values(), *plan.invited.values(), *plan.linked.values()]
    assert len(placed) == len(set(placed))
    assert not set(placed) & registration.taken_accounts


@given(registrations())
def test_a_refused_registration_seats_invites_and_links_nobody(registration):
    plan = plan_registration(registration)
    if plan.refusals:
        assert (plan.seated, plan.invited, plan.linked, plan.own_seats) == ((), {}, {}, {})
    else:
        assert sorted([*plan.seated, *plan.invited]) == list(range(len(registration.players)))


@given(registrations())
def test_a_team_never_has_more_seats_than_its_size(registration):
    plan = plan_registration(registration)
    assert len(plan.seated) + len(plan.invited) <= registration.team_size
    if not plan.refusals and registration.at_desk:
        assert plan.complete and not plan.invited
    if not plan.refusals and not registration.at_desk:
        assert list(plan.own_seats.values()) == [ACTOR] and not plan.linked
