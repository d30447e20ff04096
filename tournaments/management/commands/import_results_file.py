"""``manage.py import_results_file <path>``: create the tournament of a results file
(``push-results/1``, JSON or XML) exported by another installation, or say what is wrong
with it, and where, storing nothing (``services.results_file_import``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments import services


class Command(BaseCommand):
    help = "Import a tournament from a push-results/1 file (JSON or XML)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path, help="the results file")
        parser.add_argument("--organiser", help="the username of a staff user to organise "
                                                "the imported tournament")

    def handle(self, *args: Any, **options: Any) -> None:
        organiser = None
        if options["organiser"]:
            try:
                organiser = get_user_model().objects.get(username=options["organiser"])
            except get_user_model().DoesNotExist:
                raise CommandError(f"--organiser: no user {options['organiser']!r}") from None
        try:
            source = options["path"].read_bytes()
        except OSError as error:
            raise CommandError(f"cannot read {options['path']}: {error.strerror}") from None
        try:
            tournament = services.results_file_import(source=source, organiser=organiser)
        except services.ResultsFileRefused as error:
            raise CommandError("\n".join(
                ["the results file was refused and nothing was stored:",
                 *(f"  {problem}" for problem in error.problems)])) from None
        except services.TournamentUserError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"imported {tournament.name} (tournament {tournament.pk}): "
                          f"{tournament.rounds.count()} rounds")
