"""Create an event from a ``twohg-event`` JSON document written by ``export_event``."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from event_io.services import EventFileError, event_import


class Command(BaseCommand):
    help = (
        "Import an event exported by export_event from FILE (or - for stdin) as a new event and print "
        "its id. Accounts are linked by username; missing ones are created without a usable password. "
        "A file with any problem changes nothing. An event with the same name and date is refused "
        "unless --rename gives the new one another name."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="The exported JSON file, or - to read stdin.")
        parser.add_argument("--rename", help="Name of the imported event, if the original name is taken.")

    def handle(self, *args, file: str, rename: str | None, **options):
        try:
            if file == "-":
                data = json.load(sys.stdin)
            else:
                with open(file, encoding="utf-8") as handle:
                    data = json.load(handle)
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc.strerror}") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise CommandError(f"{file} is not valid JSON (truncated or damaged?): {exc}") from None
        except RecursionError:
            raise CommandError(f"{file} is not an event file: its JSON is nested too deeply") from None
        try:
            result = event_import(data, rename=rename)
        except EventFileError as exc:
            raise CommandError(f"{file} was not imported, nothing changed: {exc}") from None
        tournament = result.tournament
        if result.users_created:
            self.stderr.write(
                f"Created {len(result.users_created)} account(s) without a usable password "
                f"(set one with changepassword or a password reset): {', '.join(result.users_created)}"
            )
        self.stderr.write(f"Imported {tournament.name!r}.")
        self.stdout.write(str(tournament.pk))
