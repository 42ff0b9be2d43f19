"""Row locks, always taken in one order, so no two writers can wait on each other (a deadlock).

The order, outermost first:

1. the event (``Tournament``), by ``lock_tournament``: every write that changes who plays
   (registering a team, a player taking a seat with an invitation or join code, forming teams
   from the partner pool, checking a team in, pairing or re-pairing a round, building the cut,
   dropping, disqualifying or reinstating a team, issuing or overturning a penalty) takes it first, so these serialise
   on the event: a team registered while round 1 is paired is either in the pairing or
   registered after it with its missed-round result, and a drop is either seen by the pairing
   or applies from the round after;
2. the round (``Round``), e.g. the clock's start and pause;
3. the match (``Match``): penalties lock the match they land on; a result report is a
   conditional update of the match row alone;
4. the team (``Team``), then its invitations (``TeamInvitation``) and its players (``Player``).

A lock further down the list is never held while waiting for one further up. A result on the
final, the one result that writes the event (it finishes it), takes the event lock before its match
like the writers above.

The event lock is ``FOR NO KEY UPDATE``: writers of who plays still queue behind one another, but
inserting a row that points at the event (a result's audit entry, a report) takes only a key-share
lock on it, which does not wait for them. With a plain ``FOR UPDATE`` a result holding its match
and inserting its audit entry would wait for a penalty holding the event, while the penalty waits
for that match: a deadlock. For the same reason every row lock names its own table
(``select_for_update(of=("self",))``): PostgreSQL locks the rows of every joined table otherwise,
so a match read with its round and event would lock the event out of turn.
"""

from __future__ import annotations

from tournaments.models import Tournament


def lock_tournament(tournament: Tournament | int) -> Tournament:
    """Re-read the event row under ``SELECT ... FOR UPDATE``: writers of who plays queue here."""
    pk = tournament if isinstance(tournament, int) else tournament.pk
    return Tournament.objects.select_for_update(no_key=True).get(pk=pk)
