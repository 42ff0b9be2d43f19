"""The project's Celery app as the worker-kill test runs it: its broker bookkeeping kept apart.

``celery -A tests.reliability.celery_kill_test_app worker`` is ``celery -A config worker`` with the
Redis "unacked" keys renamed from the environment (``KILL_TEST_UNACKED_KEY``), so the message the
killed worker leaves unacknowledged is never given back by the CI worker sharing the Redis
database, nor one of the CI worker's by this test's workers. The visibility timeout stays the
production one: the job must be finished by the periodic sweep, not by the broker's redelivery.
"""

from __future__ import annotations

import os

from config.celery import app

_key = os.environ["KILL_TEST_UNACKED_KEY"]
app.conf.broker_transport_options = {
    **(app.conf.broker_transport_options or {}),
    "unacked_key": _key,
    "unacked_index_key": f"{_key}_index",
    "unacked_mutex_key": f"{_key}_mutex",
}
