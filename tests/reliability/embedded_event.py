"""Set up an embedded-mode event for the embedded worker-kill test, in its own process.

``python -m tests.reliability.embedded_event TEAMS`` with ``DATABASE_URL`` (a SQLite file),
``CELERY_DATA_DIR``, ``MEDIA_ROOT`` and ``EMBEDDED_WORKER=true`` in the environment: migrates,
stores ``TEAMS`` teams with round 1 paired, requests their result slips (queued on the filesystem
broker for the embedded worker, not rendered here) and prints the job's id.
"""

from __future__ import annotations

import sys
from pathlib import Path


def main() -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    from common.management.commands.runembedded import prepare_broker_folders
    from documents.services import document_request
    from tests.reliability.test_worker_kill import _event_with_round_one

    assert not settings.CELERY_TASK_ALWAYS_EAGER, "EMBEDDED_WORKER=true is needed: the worker must render it"
    prepare_broker_folders(Path(settings.CELERY_DATA_DIR))
    call_command("migrate", verbosity=0)
    round_one = _event_with_round_one(int(sys.argv[1]))
    job = document_request(
        tournament=round_one.tournament,
        actor=round_one.tournament.created_by,
        kind="result_slips",
        round_number=1,
    )
    print(job.id)


if __name__ == "__main__":
    main()
