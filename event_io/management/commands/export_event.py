"""Write one event as a ``twohg-event`` JSON document, to move it to another server or keep a backup."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from event_io.services import event_export
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Export event ID (teams, players, decklists, rounds, results, penalties, clock, audit) as JSON, "
        "to stdout or --output FILE. Restore it with import_event. Printed documents are not included: "
        "they are regenerated after the import."
    )

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", type=int, help="The event's id (in its admin or page URL).")
        parser.add_argument("--output", "-o", help="Write to this file instead of stdout.")

    def handle(self, *args, tournament_id: int, output: str | None, **options):
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            raise CommandError(f"no event with id {tournament_id}")
        text = json.dumps(event_export(tournament), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        if output is None:
            self.stdout.write(text, ending="")
            return
        with open(output, "w", encoding="utf-8") as file:
            file.write(text)
        self.stderr.write(f"Exported {tournament.name!r} to {output}")
