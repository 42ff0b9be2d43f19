"""Team registration (MTR 8.1, 8.2): forming a team, at the desk or by its players, with consent.

``planner`` (pure, no Django) decides from plain values who takes a seat now, who is invited,
whose account is asked to be linked, and what is refused; ``register`` gathers the facts it needs
and hands the plan to ``desk`` (staff register a whole team; corrections, account links) or
``player`` (a player's own team, invitations, join codes, accepting and declining), which write
it through ``roster``. ``completion`` is the one step every team goes through when its last seat
is taken; ``invitations`` writes the invitations both send; ``checks`` holds the refusals they
share. Who plays the next round (check-in, drops, disqualification) is ``services.participation``;
the desk's CSV import is ``services.team_import``.
"""
