"""Who a team registration seats now, invites and links, and what it refuses: plain values, no Django.

At the desk, scorekeeping staff register a whole team: every listed player takes a seat at once,
and an account staff name for a player is asked to be linked to that seat (linked only when its
player accepts). A player registers a team they are on: they take the first seat (they are its
captain) and every other account they name, by login or by the Wizards Account it played under,
is invited to a seat: no account joins a team without its player's consent (docs/decisions.md
"Team formation"). ``registration.register`` gathers the facts a plan needs (the accounts the
entries name, who is already on a team in the event, the columns' limits) and writes the plan.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from common.translatable import N_
from tournaments.domain.event import MAX_AWARDED_BYES
from tournaments.domain.text import reading_problem

Refusal = dict[str, str]
"""``{"field": "players[1].wizards_id", "message": ...}``: the message an ``N_`` the service
translates, or text it already translated."""


@dataclass(frozen=True)
class PlayerEntry:
    name: str
    wizards_id: str
    username: str | None = None
    name_reading: str = ""


@dataclass(frozen=True)
class Registration:
    """A team registration as plain values: what was typed, and what the event already holds.

    ``accounts``: per entry, the account its login names (``None``: no login typed, or none found);
    in a player's registration, for an entry without a login, the one account its Wizards Account
    was played under. ``actor``: the account registering; ``at_desk``: they are the event's staff.
    ``name_refusal``: the team name's refusal, checked against the event's other teams.
    """

    team_size: int
    players: Sequence[PlayerEntry]
    accounts: Sequence[int | None]
    actor: int
    at_desk: bool
    awarded_byes: int = 0
    swiss_paired: bool = False
    name_refusal: Refusal | None = None
    taken_wizards_ids: frozenset[str] = frozenset()
    taken_accounts: frozenset[int] = frozenset()
    limits: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class RosterPlan:
    """What a registration does, by entry index.

    ``seated``: the entries that take a seat now, in seat order; ``own_seats``: a seated entry →
    the actor's account, linked at once (it is the actor's own seat); ``invited``: an entry → the
    account invited to take that seat later; ``linked``: a seated entry → the account asked to be
    linked to it; ``by_wizards_account``: the accounts found by a Wizards Account, not a login,
    whose login the team is never shown. A refused registration seats, invites and links nobody.
    """

    team_size: int
    seated: tuple[int, ...] = ()
    own_seats: Mapping[int, int] = field(default_factory=dict)
    invited: Mapping[int, int] = field(default_factory=dict)
    linked: Mapping[int, int] = field(default_factory=dict)
    by_wizards_account: frozenset[int] = frozenset()
    refusals: tuple[Refusal, ...] = ()

    @property
    def complete(self) -> bool:
        """Every seat is taken now: the team is paired from the next round."""
        return len(self.seated) == self.team_size


def normalise_wizards_id(raw: str) -> str:
    return raw.strip().casefold()


def too_long(field: str = "", limits: Mapping[str, int] | None = None, **values: str) -> list[Refusal]:
    """A refusal for each value longer than its column's limit (``limits``: part → characters),
    so a pasted page of text is a refusal naming it, not a database error."""
    refusals = []
    for part, value in values.items():
        limit = (limits or {}).get(part)
        if limit is not None and len(value) > limit:
            refusals.append(
                {
                    "field": f"{field}.{part}" if field else part,
                    "message": N_(
                        "at most %(limit)s characters, got %(length)s", limit=limit, length=len(value)
                    ),
                }
            )
    return refusals


def reading_refusals(field: str, reading: str) -> list[Refusal]:
    problem = reading_problem(reading)
    return [{"field": f"{field}.name_reading", "message": problem}] if problem else []


def plan_registration(registration: Registration) -> RosterPlan:
    """The plan for ``registration``, or its refusals in the order the form lists its fields."""
    refusals = _team_refusals(registration)
    plan = _RosterBuilder(registration)
    for index, entry in enumerate(registration.players):
        plan.add(index, entry, registration.accounts[index])
    refusals.extend(plan.refusals)
    if not registration.at_desk and registration.actor not in plan.own_seats.values() and not refusals:
        refusals.append(
            {"field": "players", "message": N_("list yourself (your login) on the team you register")}
        )
    if refusals:
        return RosterPlan(team_size=registration.team_size, refusals=tuple(refusals))
    return RosterPlan(
        team_size=registration.team_size,
        seated=tuple(i for i in range(len(registration.players)) if i not in plan.invited),
        own_seats=plan.own_seats,
        invited=plan.invited,
        linked=plan.linked,
        by_wizards_account=frozenset(plan.by_wizards_account),
    )


def _team_refusals(registration: Registration) -> list[Refusal]:
    """The refusals of the team as a whole: its name, its awarded byes, its number of players."""
    refusals = [registration.name_refusal] if registration.name_refusal else []
    byes = registration.awarded_byes
    if not 0 <= byes <= MAX_AWARDED_BYES:
        refusals.append(
            {
                "field": "awarded_byes",
                "message": N_(
                    "0 to %(MAX_AWARDED_BYES)s rounds, got %(awarded_byes)s",
                    MAX_AWARDED_BYES=MAX_AWARDED_BYES,
                    awarded_byes=byes,
                ),
            }
        )
    elif byes and registration.swiss_paired:
        refusals.append({"field": "awarded_byes", "message": N_("awarded byes are entered before round 1")})
    size, listed = registration.team_size, len(registration.players)
    if registration.at_desk and listed != size:
        refusals.append(
            {
                "field": "players",
                "message": N_(
                    "this event's teams have %(team_size)s players, got %(players)s",
                    team_size=size,
                    players=listed,
                ),
            }
        )
    elif not registration.at_desk and not 1 <= listed <= size:
        refusals.append(
            {
                "field": "players",
                "message": N_(
                    "list yourself and up to %(team_size)s teammate(s), got %(players)s",
                    team_size=size - 1,
                    players=listed,
                ),
            }
        )
    return refusals


class _RosterBuilder:
    """The entries read in order: each one's refusals, and where its account goes."""

    def __init__(self, registration: Registration) -> None:
        self.registration = registration
        self.refusals: list[Refusal] = []
        self.own_seats: dict[int, int] = {}
        self.invited: dict[int, int] = {}
        self.linked: dict[int, int] = {}
        self.by_wizards_account: set[int] = set()
        self.seen_ids: set[str] = set()

    def add(self, index: int, entry: PlayerEntry, account: int | None) -> None:
        field = f"players[{index}]"
        registration = self.registration
        if entry.username and account is None:
            self._refuse(
                f"{field}.username",
                N_("no account named %(username)s", username=repr(entry.username)),
            )
            return
        # At the desk every player sits down now; a player seats only themselves, named by login.
        joins_now = registration.at_desk or (bool(entry.username) and account == registration.actor)
        if not joins_now and not entry.username:
            if account is None:
                self._refuse(
                    f"{field}.username",
                    N_(
                        "name your teammate's account (their login) to invite them, "
                        "or give them the team's join code"
                    ),
                )
                return
            self.by_wizards_account.add(account)
        self._details(field, entry, joins_now)
        if account is not None:
            self._place(index, field, entry, account, joins_now)

    def _details(self, field: str, entry: PlayerEntry, joins_now: bool) -> None:
        """The entry's name, reading and Wizards Account: present for a seat taken now, within
        their columns, and the Wizards Account listed once and on no other team of the event."""
        if not entry.name.strip() and joins_now:
            self._refuse(f"{field}.name", N_("the player's name is empty"))
        self.refusals.extend(reading_refusals(field, entry.name_reading))
        self.refusals.extend(
            too_long(
                field,
                self.registration.limits,
                name=" ".join(entry.name.split()),
                wizards_id=entry.wizards_id.strip(),
            )
        )
        wizards_id = normalise_wizards_id(entry.wizards_id)
        if not wizards_id and joins_now:
            self._refuse(f"{field}.wizards_id", N_("the Wizards Account id or email is empty"))
        elif wizards_id and wizards_id in self.seen_ids:
            self._refuse(f"{field}.wizards_id", N_("the same person is listed twice"))
        elif wizards_id and wizards_id in self.registration.taken_wizards_ids:
            self._refuse(
                f"{field}.wizards_id",
                N_("%(wizards_id)s is already on a team in this event", wizards_id=entry.wizards_id.strip()),
            )
        self.seen_ids.add(wizards_id)

    def _place(self, index: int, field: str, entry: PlayerEntry, account: int, joins_now: bool) -> None:
        """The account takes its own seat, is asked to be linked to one, or is invited to one;
        refused if it is on a team of the event already or named twice."""
        placed = {*self.own_seats.values(), *self.invited.values(), *self.linked.values()}
        if account in self.registration.taken_accounts or account in placed:
            # Named as typed: an account found through its Wizards Account keeps its login.
            typed, part = (
                (entry.wizards_id.strip(), "wizards_id")
                if account in self.by_wizards_account
                else (entry.username or "", "username")
            )
            self._refuse(
                f"{field}.{part}", N_("%(username)s is already on a team in this event", username=typed)
            )
        elif account == self.registration.actor:
            self.own_seats[index] = account
        elif joins_now:
            self.linked[index] = account
        else:
            self.invited[index] = account

    def _refuse(self, field: str, message: str) -> None:
        """Add a refusal, once: a Wizards Account on a team and the account found through it are
        one fact, said once."""
        refusal = {"field": field, "message": message}
        if refusal not in self.refusals:
            self.refusals.append(refusal)
