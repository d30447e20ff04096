"""``manage.py bench_schedule``: one scheduler tick over 1,000 tournaments."""

from __future__ import annotations

import os
import platform
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from bench import schedule as bench


class Command(BaseCommand):
    help = ("Time one scheduler tick over 1,000 online tournaments (64,000 entries) with 100 "
            "steps due (check-in windows opening; rounds starting) and, apart, the steps it "
            "hands to the workers, and count the queries of a tick with nothing due. What it "
            "builds (in the database of DATABASE_URL: not a live site's) is removed after.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournaments", type=int, default=1000)
        parser.add_argument("--teams", type=int, default=64, help="teams a tournament")
        parser.add_argument("--due", type=int, default=100)

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("the scheduler's tick is measured on PostgreSQL (its SKIP "
                               "LOCKED): set DATABASE_URL")
        self.stdout.write(f"{platform.python_implementation()} {platform.python_version()}, "
                          f"{os.cpu_count()} cores, database {connection.vendor}")
        figures = bench.run(options["tournaments"], options["teams"], options["due"])
        self.stdout.write(f"{figures.tournaments:,} scheduled tournaments, "
                          f"{figures.entries:,} entries, {figures.due} due at once")
        for what, tick, steps in (
                ("check-in windows opening", figures.check_in, figures.check_in_steps),
                ("rounds starting (paired, published, tables opened)", figures.starts,
                 figures.starts_steps)):
            self.stdout.write(
                f"  a tick, {what}: {tick.taken} steps handed out, {tick.queries:,} queries, "
                f"database {tick.seconds:.3f} s, wall {tick.wall:.2f} s")
            self.stdout.write(
                f"    then its steps in the workers (summed): {steps.taken} taken, "
                f"{steps.queries:,} queries, database {steps.seconds:.2f} s, "
                f"wall {steps.wall:.2f} s")
        self.stdout.write(f"  a tick with nothing due among {figures.tournaments:,}: "
                          f"{figures.idle.queries} queries, database "
                          f"{figures.idle.seconds * 1000:.1f} ms")
        self.stdout.write(f"  load average now: {' '.join(f'{n:.2f}' for n in os.getloadavg())}")
