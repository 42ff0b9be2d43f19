"""Four writers at once against one SQLite file, as embedded mode's threaded web server sees them.

Run by ``test_sqlite_writers.py`` in its own process (Django set up on a fresh file database):
``python -m tests.reliability.sqlite_writers DB_PATH [--django-defaults]``. Four threads, each
with its own connection as in a threaded server, register teams through the real service at the
same moment; prints JSON with the errors and the number of teams stored. ``--django-defaults``
replaces the project's SQLite options with Django's (rollback journal, deferred transactions,
5 s timeout), the set-up that answered 500 "database is locked".
"""

from __future__ import annotations

import json
import os
import sys
import threading

WRITERS = 4
TEAMS_EACH = 15


def main() -> None:
    path = sys.argv[1]
    os.environ.update(DATABASE_URL=f"sqlite:///{path}", DJANGO_SETTINGS_MODULE="config.settings")
    for name in ("REDIS_URL", "EMBEDDED_WORKER"):
        os.environ.pop(name, None)
    import django
    from django.conf import settings

    if "--django-defaults" in sys.argv:
        settings.DATABASES["default"]["OPTIONS"] = {}
    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from tournaments.registration.planner import PlayerEntry
    from tournaments.registration.register import team_register
    from tournaments.services.events import tournament_create

    call_command("migrate", verbosity=0)
    organizer = get_user_model().objects.create_user("organizer")
    tournament = tournament_create(actor=organizer, name="Writers Open 2HG", venue="Hall", swiss_rounds=5)
    connection.close()
    start = threading.Barrier(WRITERS)
    errors: list[str] = []

    def writer(number: int) -> None:
        from django.db import connection as own

        start.wait()
        try:
            for i in range(TEAMS_EACH):
                try:
                    team_register(
                        tournament=tournament,
                        actor=organizer,
                        name=f"Giants {number}-{i}",
                        players=[
                            PlayerEntry(
                                name=f"Player {number}-{i}-{seat}", wizards_id=f"p{number}-{i}-{seat}@x.org"
                            )
                            for seat in range(2)
                        ],
                    )
                except Exception as exc:
                    errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            own.close()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    from tournaments.models import Team

    journal = connection.cursor().execute("PRAGMA journal_mode").fetchone()[0]
    print(json.dumps({"errors": errors, "teams": Team.objects.count(), "journal": journal}))


if __name__ == "__main__":
    main()
