"""Team registration (MTR 8.1, 8.2): forming a team, at the desk or by its players, with consent.

``planner`` decides from plain values who takes a seat now, who is invited, whose account is
linked, and what is refused; ``register`` gathers the facts it needs and writes its plan.
``desk`` holds the staff's corrections and account links, ``player`` the invitations a player
sends, accepts or declines and the join codes; ``invitations`` writes the invitations both send.
``completion`` is the one step every team that takes its last seat goes through; ``checks`` holds
the refusals they share. Who plays the next round (check-in, drops, disqualification) is
``services.participation``; the desk's CSV import is ``services.team_import``.
"""
