"""What the tournaments app announces to the apps built on it, so it never imports them.

Sent by the services inside their transaction with ``round_id=`` (or ``tournament_id=``): a receiver's writes commit or
roll back with the change, and work for later goes through ``transaction.on_commit``. The
documents app queues the printed documents from these (documents/receivers.py); a test keeps the
apps depending one way (tests/test_app_layers.py).
"""

from django.dispatch import Signal

# A round was created with its matches (engine, manual or playoff pairing).
round_paired = Signal()
# The last result of a round was confirmed: the round is finished.
round_finished = Signal()
# The final's result was confirmed (again, after a correction): the event is finished.
event_finished = Signal()
# Two teams reported different results (sent with ``match_id=``): the judges are called to the table.
match_disputed = Signal()
# A match's result was confirmed (sent with ``match_id=``): the judge calls at its table are closed.
match_settled = Signal()
# The Booster Draft pods were seated (sent with ``tournament_id=``).
pods_seated = Signal()
# Something the event's public pages show changed by a write that saves no watched row and writes
# no audit entry (sent with ``tournament_id=``; tournaments/live.py lists what is caught already).
event_changed = Signal()
