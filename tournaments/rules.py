"""Who may do what: every permission of the toolkit, named once, for the API, the pages, the
templates and the services alike.

Each rule is a plain predicate ``rule(user, obj) -> bool`` named in the language of the MTR and IPG
(``can_report_result(user, match)``, ``can_disqualify(user, tournament)``); the registry ``RULES``
lets the API declare rules by name per HTTP method (``tournaments.api.permissions.RulePermission``),
lets templates ask ``{% rule "can_issue_penalty" user tournament as allowed %}`` and is what the
permission matrix test reads. Roles are per event (``Staff``); superusers (support staff) pass
every staff rule. The role primitives live in ``tournaments.permissions``; nothing else should
call them directly.

The rules depend only on this app's models: rules about other apps' objects (decklists, penalties,
documents) read the attributes they need (``tournament_id``, ``team_id``, ``kind``), so the app at
the bottom of the dependency graph still imports nothing above it.
"""

from __future__ import annotations

from collections.abc import Callable

from tournaments.enums import StaffRole, TournamentStatus
from tournaments.models import Match, Player, PoolEntry, Round, Team, Tournament
from tournaments.permissions import (
    ALL_STAFF,
    JUDGES,
    ORGANIZER,
    SCOREKEEPING,
    has_role,
    is_head_judge,
    may_create_events,
    player_team_id,
)

Rule = Callable[..., bool]
RULES: dict[str, Rule] = {}

#: The penalty that needs the head judge whoever proposes it (MTR 1.5, IPG 4).
DISQUALIFICATION = "disqualification"


def rule(function: Rule) -> Rule:
    RULES[function.__name__] = function
    return function


def _event_id(obj) -> int:
    """The event of ``obj``: an event or its id, or any row of the event (a match through its round)."""
    if isinstance(obj, int):
        return obj
    if isinstance(obj, Tournament):
        return obj.pk
    if isinstance(obj, Match):
        return obj.round.tournament_id
    return obj.tournament_id


@rule
def anyone(user, obj=None) -> bool:
    """Public reads: events, published rounds, public standings, the API's OPTIONS metadata."""
    return True


@rule
def is_logged_in(user, obj=None) -> bool:
    return bool(getattr(user, "is_authenticated", False))


# --- the event -----------------------------------------------------------------------------------


@rule
def can_create_events(user, obj=None) -> bool:
    """Creating an event is a role the site grants (``settings.EVENT_CREATORS``), not any account's."""
    return may_create_events(user)


@rule
def is_event_staff(user, tournament: Tournament | int) -> bool:
    """Any staff role: read everything of the event, run the clock, print documents."""
    return has_role(user, _event_id(tournament), ALL_STAFF)


@rule
def can_manage_event(user, tournament: Tournament | int) -> bool:
    """Settings, staff, pairing by hand: the organizer."""
    return has_role(user, _event_id(tournament), ORGANIZER)


@rule
def can_run_event(user, tournament: Tournament | int) -> bool:
    """Scorekeeping: register teams, pair, publish, re-pair, build the cut, confirm and change results."""
    return has_role(user, _event_id(tournament), SCOREKEEPING)


@rule
def can_register_team(user, tournament: Tournament | int, usernames: frozenset[str] = frozenset()) -> bool:
    """Scorekeeping staff register any team; a logged-in player registers a team listing them
    by username (``usernames``: the usernames the registration names); the other accounts it
    names are only invited (``registration.player``)."""
    if can_run_event(user, tournament):
        return True
    return is_logged_in(user) and user.username in usernames


@rule
def can_award_byes(user, tournament: Tournament | int) -> bool:
    """Awarded byes (Premier style) are given at registration by the event's staff."""
    return is_event_staff(user, tournament)


@rule
def can_read_teams(user, tournament: Tournament | int) -> bool:
    """The team list: staff see every team, a player of the event their own (the view filters)."""
    return is_event_staff(user, tournament) or player_team_id(user, _event_id(tournament)) is not None


# --- teams ---------------------------------------------------------------------------------------


def plays_on(user, team: Team | int, tournament: Tournament | int) -> bool:
    team_id = team if isinstance(team, int) else team.pk
    return player_team_id(user, _event_id(tournament)) == team_id


@rule
def can_read_team(user, team: Team) -> bool:
    return is_event_staff(user, team.tournament_id) or plays_on(user, team, team.tournament_id)


@rule
def can_drop_team(user, team: Team) -> bool:
    """Scorekeeping staff, or a member of the team (MTR 2.11)."""
    return can_run_event(user, team.tournament_id) or plays_on(user, team, team.tournament_id)


@rule
def can_check_in(user, team: Team) -> bool:
    """A player of the team on their phone, or scorekeeping staff at the desk."""
    return can_run_event(user, team.tournament_id) or plays_on(user, team, team.tournament_id)


@rule
def can_reinstate_team(user, team: Team) -> bool:
    """Scorekeeping staff bring back a team dropped before round 1 as a late entry."""
    return can_run_event(user, team.tournament_id)


@rule
def can_invite_to_team(user, team: Team) -> bool:
    """The captain (the player who created the team) invites and cancels; staff too."""
    if can_run_event(user, team.tournament_id):
        return True
    return is_logged_in(user) and team.captain_id == user.pk


# --- the partner pool ----------------------------------------------------------------------------


@rule
def can_see_partner_pool(user, tournament: Tournament | int) -> bool:
    """The pool's display names: the event's staff and the players in the pool."""
    if is_event_staff(user, tournament):
        return True
    return (
        is_logged_in(user)
        and PoolEntry.objects.filter(tournament_id=_event_id(tournament), user=user).exists()
    )


@rule
def can_form_pool_teams(user, tournament: Tournament | int) -> bool:
    """Forming teams from the pool is the organizer's decision."""
    return can_manage_event(user, tournament)


@rule
def can_disqualify(user, tournament: Tournament | int) -> bool:
    """Disqualification is the head judge's alone (MTR 1.5, IPG 4); the organizer acts as head
    judge when none is named. Judges may propose one (``can_propose_penalty``)."""
    return is_head_judge(user, _event_id(tournament))


# --- rounds and matches --------------------------------------------------------------------------


@rule
def can_view_round(user, round_row: Round) -> bool:
    """A round is seen by everyone once public (``Round.is_public``), by staff from its pairing."""
    return round_row.is_public or is_event_staff(user, round_row.tournament_id)


@rule
def can_pair_by_hand(user, tournament: Tournament | int) -> bool:
    """A manual pairing overrides the engine: the organizer, with a reason (audited)."""
    return can_manage_event(user, tournament)


def _plays_in(user, match: Match) -> bool:
    return player_team_id(user, match.round.tournament_id) in (match.team_a_id, match.team_b_id)


@rule
def can_view_match(user, match: Match) -> bool:
    return can_view_round(user, match.round)


@rule
def can_report_result(user, match: Match) -> bool:
    """Scorekeeping staff, or a player of one of the match's teams once its round is public (the
    service then decides report, confirmation or dispute by who sent it)."""
    if can_run_event(user, match.round.tournament_id):
        return True
    return match.round.is_public and _plays_in(user, match)


@rule
def can_change_confirmed_result(user, match: Match) -> bool:
    """A confirmed result changes only through scorekeeping staff, with a reason (audited)."""
    return can_run_event(user, match.round.tournament_id)


@rule
def can_choose_seats(user, match: Match) -> bool:
    """Any staff role, or a player of the match once its round is public (MTR 9.4(1))."""
    if is_event_staff(user, match.round.tournament_id):
        return True
    return match.round.is_public and _plays_in(user, match)


@rule
def can_run_clock(user, tournament: Tournament | int) -> bool:
    """Start, pause and resume the round clock: any staff role."""
    return is_event_staff(user, tournament)


@rule
def can_work_table(user, tournament: Tournament | int) -> bool:
    """Time extensions, calling time and end-of-round turns at a table: judges."""
    return has_role(user, _event_id(tournament), JUDGES)


# --- penalties -----------------------------------------------------------------------------------


@rule
def can_read_penalties(user, tournament: Tournament | int) -> bool:
    return is_event_staff(user, tournament)


@rule
def can_propose_penalty(user, tournament: Tournament | int) -> bool:
    """Judges record infractions and the penalty the IPG gives (a Disqualification as a proposal)."""
    return has_role(user, _event_id(tournament), JUDGES)


def can_issue_penalty(user, tournament: Tournament | int, penalty: str) -> bool:
    """Whether ``penalty`` (a penalty name) takes effect when this user issues it: a judge's
    penalty does, except a Disqualification, which takes effect only from the head judge
    (a judge's is recorded as a proposal the head judge confirms or changes)."""
    if penalty == DISQUALIFICATION:
        return can_disqualify(user, tournament)
    return can_propose_penalty(user, tournament)


RULES["can_issue_penalty"] = can_issue_penalty


@rule
def can_deviate(user, tournament: Tournament | int) -> bool:
    """Deviating from the IPG's penalty is the head judge's decision (IPG 1.3)."""
    return is_head_judge(user, _event_id(tournament))


@rule
def can_overturn_penalty(user, tournament: Tournament | int) -> bool:
    """Appeals go to the head judge, whose ruling is final (MTR 1.5)."""
    return is_head_judge(user, _event_id(tournament))


@rule
def can_review_disqualification(user, tournament: Tournament | int) -> bool:
    """Confirm or change a judge's proposed Disqualification: the head judge."""
    return can_disqualify(user, tournament)


# --- decklists -----------------------------------------------------------------------------------


@rule
def can_read_decklist(user, team: Team) -> bool:
    """A team's lists: the team itself and the event's staff [MTR 2.7]; anyone once the organizer
    published every list after the event."""
    tournament = team.tournament
    if tournament.decklists_published and tournament.status == TournamentStatus.FINISHED:
        return True
    return can_read_team(user, team)


@rule
def can_read_pool(user, team: Team) -> bool:
    """A Limited team's registered pool: the team and the event's staff."""
    return can_read_team(user, team)


@rule
def can_check_decklists(user, tournament: Tournament | int, team: Team | None = None) -> bool:
    """Paste a list and see what the checks say: the event's players and staff; checked against a
    team's other lists (``team``, the UDC preview), only by who may read that team's lists."""
    if team is not None and not can_read_decklist(user, team):
        return False
    return is_event_staff(user, tournament) or player_team_id(user, _event_id(tournament)) is not None


@rule
def can_enter_decklist(user, player: Player) -> bool:
    """Enter a player's list: the player their own, the event's staff anyone's (paper lists)."""
    own = player.user_id is not None and player.user_id == getattr(user, "pk", None)
    return own or is_event_staff(user, player.tournament_id)


@rule
def can_submit_decklist(user, team: Team) -> bool:
    """Before the lock: the team or staff (the service refuses players after the deadline)."""
    return can_read_team(user, team)


@rule
def can_change_locked_decklist(user, tournament: Tournament | int) -> bool:
    """After the deadline only judges change a list, with a reason (audited)."""
    return has_role(user, _event_id(tournament), JUDGES)


@rule
def can_check_decks(user, tournament: Tournament | int) -> bool:
    """Deck checks and the judges' decklist view."""
    return has_role(user, _event_id(tournament), JUDGES)


# --- the floor -----------------------------------------------------------------------------------

#: Who lays out the judges' zones.
ZONE_PLANNERS = frozenset({StaffRole.ORGANIZER, StaffRole.HEAD_JUDGE})


@rule
def can_see_floor(user, tournament: Tournament | int) -> bool:
    """The call queue, the end-of-round console and the deck-check planner: any event staff."""
    return is_event_staff(user, tournament)


@rule
def can_call_judge(user, tournament: Tournament | int, match: Match | None = None) -> bool:
    """Call a judge to a table: the event's staff to any table, a player to their own match's
    (``match``; without one, a player of the event, so an unknown table is a 400, not a 403)."""
    if is_event_staff(user, tournament):
        return True
    team_id = player_team_id(user, _event_id(tournament))
    if match is None:
        return team_id is not None
    return team_id is not None and team_id in (match.team_a_id, match.team_b_id)


@rule
def can_judge(user, tournament: Tournament | int) -> bool:
    """Claim, escalate and resolve calls, mark turns, read and write notes: judges of the event."""
    return has_role(user, _event_id(tournament), JUDGES)


@rule
def can_enter_end_of_round_result(user, tournament: Tournament | int) -> bool:
    """The result form of the end-of-round console: scorekeeping staff, and the event's judges,
    who finish a table on the spot (docs/decisions.md "End-of-round results"). It enters an
    unconfirmed table's result; changing a confirmed one stays with scorekeeping, with a reason."""
    return can_run_event(user, tournament) or can_judge(user, tournament)


@rule
def can_plan_zones(user, tournament: Tournament | int) -> bool:
    return has_role(user, _event_id(tournament), ZONE_PLANNERS)


@rule
def can_head_judge(user, tournament: Tournament | int) -> bool:
    """Lock notes, see locked notes, take over escalated calls, file DQ reports."""
    return is_head_judge(user, _event_id(tournament))


# --- printed documents ---------------------------------------------------------------------------


@rule
def can_print(user, tournament: Tournament | int) -> bool:
    return is_event_staff(user, tournament)


@rule
def can_read_document(user, job) -> bool:
    """Staff read every printed document; anyone reads the public kinds (pairings, standings) of a
    public round, what is already posted on the wall. ``job`` is a ``documents.DocumentJob``."""
    if is_event_staff(user, job.tournament_id):
        return True
    return job.is_public_kind and job.round is not None and job.round.is_public


def check(name: str, user, *args) -> bool:
    """Ask a rule by name (templates, the API's permission class, the permission matrix)."""
    return RULES[name](user, *args)
