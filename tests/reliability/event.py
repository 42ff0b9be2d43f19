"""One realistic event in round 1 that the reliability tests address by id.

Friday 2HG, Modern at Competitive REL, four teams. ``player`` plays on Team 1 and ``other_player``
on Team 3. Both submitted their lists before round 1 (which locks the lists, as the event has no
deadline). Round 1 was paired by hand (1v2, 3v4), published and its clock started; table 2 (3v4)
has a confirmed result, table 1 (1v2) none yet. A judge gave Team 2's first player a Warning
(Slow Play); a result-slips PDF is done. The judge called a judge to table 1 (an open call) and
wrote a note on that match. "Another event" has its own organizer. Every role of
the permission matrix has a user here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.files.base import ContentFile
from django.utils import timezone

from clock.services import round_start
from decklists.models import Decklist
from decklists.services import decklist_submit
from documents.enums import DocumentKind, JobStatus
from documents.models import DocumentJob
from floor.models import JudgeCall, Note
from floor.services.calls import judge_call_raise
from floor.services.notes import note_add
from penalties.services import penalty_issue
from tests.factories import OrganizerFactory, UserFactory
from tests.tournaments.factories import add_staff, event_with_teams, register_team
from tournaments.enums import StaffRole
from tournaments.models import Match, Player
from tournaments.services.manual_pairing import round_pair_manual
from tournaments.services.results import match_result_report
from tournaments.services.rounds import round_publish

DECKLIST = "4 Lightning Bolt\n4 Monastery Swiftspear\n52 Mountain\n"


@dataclass
class Event:
    """The ids the rows address and the users who call them (see the module docstring)."""

    tournament: object
    teams: list
    users: dict
    match: Match  # table 1, Team 1 v Team 2, no result yet
    confirmed_match: Match  # table 2, Team 3 v Team 4, confirmed 1-0-0 (version 2)
    player_row: Player  # the player's own Player row on Team 1
    decklist: Decklist  # the player's list
    penalty: object  # a Warning to Team 2's first player
    job: DocumentJob  # result slips of round 1, done
    judge_call: JudgeCall  # open, table 1, raised by the judge
    note: Note  # the judge's note on table 1
    ids: dict = field(default_factory=dict)


def build_round_one_event() -> Event:
    organizer = OrganizerFactory(username="organizer")
    tournament = event_with_teams(0, organizer=organizer, swiss_rounds=3, format="modern", rel="competitive")
    player, other_player = UserFactory(username="player"), UserFactory(username="other_player")
    teams = [
        register_team(tournament, "Team 1", actor=organizer, usernames=(player.username,)),
        register_team(tournament, "Team 2", actor=organizer),
        register_team(tournament, "Team 3", actor=organizer, usernames=(other_player.username,)),
        register_team(tournament, "Team 4", actor=organizer),
    ]
    other_event = event_with_teams(
        1, organizer=OrganizerFactory(username="other_organizer"), name="Another event"
    )
    users = {
        "anonymous": None,
        "player": player,
        "other_player": other_player,
        "scorekeeper": add_staff(tournament, StaffRole.SCOREKEEPER),
        "judge": add_staff(tournament, StaffRole.JUDGE),
        "head_judge": add_staff(tournament, StaffRole.HEAD_JUDGE),
        "organizer": organizer,
        "other_organizer": other_event.created_by,
        "admin": UserFactory(username="admin", is_superuser=True, is_staff=True),
    }
    player_row = Player.objects.get(tournament=tournament, user=player)
    other_row = Player.objects.get(tournament=tournament, user=other_player)
    decklist_submit(tournament=tournament, actor=player, player=player_row, text=DECKLIST)
    decklist_submit(tournament=tournament, actor=other_player, player=other_row, text=DECKLIST)
    round_one = round_pair_manual(
        tournament=tournament,
        actor=organizer,
        matches=[(teams[0].pk, teams[1].pk), (teams[2].pk, teams[3].pk)],
        reason="first round seated by hand for the stream table",
    )
    round_publish(round_row=round_one, actor=organizer)
    round_start(round_row=round_one, actor=organizer, at=timezone.now())
    match = Match.objects.get(round=round_one, team_a=teams[0])
    confirmed = Match.objects.get(round=round_one, team_a=teams[2])
    match_result_report(
        match=confirmed, actor=users["scorekeeper"], team_a_wins=1, team_b_wins=0, draws=0, version=1
    )
    penalty = penalty_issue(
        tournament=tournament,
        actor=users["judge"],
        player=teams[1].players.order_by("position").first(),
        round_row=round_one,
        infraction="TE-SP",
        description="long pauses before every attack",
    )
    job = DocumentJob(
        kind=DocumentKind.RESULT_SLIPS, tournament=tournament, round=round_one, status=JobStatus.DONE
    )
    job.file.save("slips.pdf", ContentFile(b"%PDF-1.4\n%%EOF\n"), save=False)
    job.save()
    judge_call = judge_call_raise(tournament=tournament, match=match, actor=users["judge"], reason="ruling")
    note = note_add(
        tournament=tournament, actor=users["judge"], match=match, text="watch the graveyard order"
    )
    return Event(
        tournament=tournament,
        teams=teams,
        users=users,
        match=match,
        confirmed_match=Match.objects.get(pk=confirmed.pk),
        player_row=player_row,
        decklist=Decklist.objects.get(player=player_row),
        penalty=penalty,
        job=job,
        judge_call=judge_call,
        note=note,
    )
