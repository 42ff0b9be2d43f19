"""The project's Celery app as the worker-kill test runs it: redelivery within seconds, not an hour.

``celery -A tests.reliability.celery_short_visibility worker`` is ``celery -A config worker`` with
three broker transport options changed from the environment, because a worker that dies with
its whole process group (SIGKILL, OOM killer, lost machine) acknowledges nothing and gives
nothing back: Redis keeps the message in its "unacked" set until a live worker finds it older
than ``visibility_timeout`` and puts it back on its queue. Production keeps the hour of
``config.settings`` (round-clock checks wait in a worker up to a playoff round's length, and a
shorter timeout would hand those out twice); a test cannot wait an hour.

``KILL_TEST_UNACKED_KEY`` keeps this worker's "unacked" bookkeeping apart from the CI worker's on
the same Redis database: with the shared default keys, a ten-second timeout here would also give
back messages the CI worker is still working on.
"""

from __future__ import annotations

import os

from config.celery import app

_key = os.environ["KILL_TEST_UNACKED_KEY"]
app.conf.broker_transport_options = {
    **(app.conf.broker_transport_options or {}),
    "visibility_timeout": int(os.environ["KILL_TEST_VISIBILITY_TIMEOUT"]),
    # Look for expired messages every second instead of every 10 x 10 seconds.
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
    "unacked_key": _key,
    "unacked_index_key": f"{_key}_index",
    "unacked_mutex_key": f"{_key}_mutex",
}
