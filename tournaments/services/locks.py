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

A lock further down the list is never held while waiting for one further up. The one write that
touches the event after a match, the final's last result marking the event finished, waits for the
event while holding only that match, and nothing holding the event waits for a match row.
Inserting a row that points at another (an audit entry at the event, a match at its teams) takes
a share lock on the row pointed at, so the event lock must be taken before, not after, the
rows a write changes.
"""

from __future__ import annotations

from tournaments.models import Tournament


def lock_tournament(tournament: Tournament | int) -> Tournament:
    """Re-read the event row under ``SELECT ... FOR UPDATE``: writers of who plays queue here."""
    pk = tournament if isinstance(tournament, int) else tournament.pk
    return Tournament.objects.select_for_update().get(pk=pk)
