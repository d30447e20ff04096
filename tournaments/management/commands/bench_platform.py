"""``manage.py bench_platform``: pairing, standings and end-to-end tournament speed."""

from __future__ import annotations

import os
import platform
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection

from bench import platform as bench


class Command(BaseCommand):
    help = ("Time Swiss pairing (1,024 teams), a standings rebuild (512 teams, 10,000 "
            "results), the standings page beside the API (256 teams, gunicorn) and a "
            "16-team, 4-round all-bot Swiss tournament through Celery.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--skip-celery", action="store_true",
                            help="leave out the end-to-end runs through Celery workers")

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"{platform.python_implementation()} {platform.python_version()}, "
                          f"{os.cpu_count()} cores, database {connection.vendor}")
        self.stdout.write(f"Swiss pairing, 1,024 teams after 5 rounds: "
                          f"{bench.swiss_pairing_seconds():.2f} s")
        standings = bench.standings_seconds()
        self.stdout.write(
            f"standings, 512 teams, 10,000 results: computed in {standings.computed:.2f} s; "
            f"from the database, the current table after a new result "
            f"{standings.current:.2f} s ({standings.current / standings.computed:.1f}x), "
            f"every completed round's table rebuilt {standings.full:.2f} s "
            f"({standings.full / standings.computed:.1f}x; its pure one-pass core "
            f"{standings.one_pass:.2f} s)")
        if connection.vendor == "postgresql":
            page, api = bench.standings_page_rates()
            self.stdout.write(
                f"standings of 256 teams after 8 rounds, gunicorn with 4 processes on "
                f"127.0.0.1, 8 clients at once: the page {page.per_second:.0f}/s, p95 "
                f"{page.p95 * 1000:.0f} ms, {page.size / 1000:.0f} KB; the API's JSON "
                f"{api.per_second:.0f}/s, p95 {api.p95 * 1000:.0f} ms, "
                f"{api.size / 1000:.0f} KB; page/API {page.per_second / api.per_second:.2f}")
        else:
            self.stdout.write("standings page and API through gunicorn: not run; the server "
                              "needs PostgreSQL (DATABASE_URL)")
        if options["skip_celery"]:
            return
        if settings.CELERY_TASK_ALWAYS_EAGER or connection.vendor != "postgresql":
            self.stdout.write("end to end through Celery: not run; it needs PostgreSQL "
                              "(DATABASE_URL) and a broker (CELERY_BROKER_URL)")
            return
        for workers in (1, 2):
            seconds = bench.end_to_end_seconds(workers)
            self.stdout.write(f"16-team, 4-round all-bot Swiss through Celery, {workers} "
                              f"worker{'s' if workers > 1 else ''}: {seconds:.1f} s")
