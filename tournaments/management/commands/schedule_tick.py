"""``manage.py schedule_tick``: hand the scheduled tournaments' due steps to the workers once,
as Celery beat's ``schedule_tick`` does (for an operator by hand, and the tests' processes);
without a broker this process takes them itself, after handing them out."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from tournaments import services


class Command(BaseCommand):
    help = ("Hand every scheduled step that is due to the workers (what beat's schedule_tick "
            "does); without a broker, take them here.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--now", help="the time to tick at (ISO 8601 with its offset); "
                                          "default: the clock")
        parser.add_argument("--barrier", type=int, default=None,
                            help="wait for this PostgreSQL advisory lock to be free first "
                                 "(so that processes tick at the same moment)")

    def handle(self, *args: Any, **options: Any) -> None:
        now = None
        if options["now"]:
            try:
                now = datetime.fromisoformat(options["now"])
            except ValueError:
                raise CommandError(f"--now: not an ISO 8601 time: {options['now']!r}") from None
            if now.tzinfo is None:
                raise CommandError("--now: give the time's offset, e.g. +00:00")
        if options["barrier"] is not None:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_lock_shared(%s)", [options["barrier"]])
                cursor.execute("SELECT pg_advisory_unlock_shared(%s)", [options["barrier"]])
        self.stdout.write(f"steps handed out: {services.schedule_tick(now=now)}")
