"""``manage.py bench_pages``: ``bench_tables`` with a round's pages under load beside the
live tables (locust, headless, on 127.0.0.1)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from django.core.management.base import CommandError, CommandParser

from bench.load.render import page_costs
from bench.load.round import made_round, pages_load
from bench.load.run import PagesLoad
from games.management.commands.bench_tables import Command as TablesCommand


class Command(TablesCommand):
    help = ("bench_tables, and meanwhile USERS locust users (headless, on 127.0.0.1) asking "
            "the same servers for the pages of a round in play of as many tables: the round's "
            "page and live fragment, the standings, the tables list and the API's standings; "
            "prints each page's requests a second and p95. Needs PostgreSQL and Redis.")

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--users", type=int, default=20,
                            help="locust users following the round (20)")
        parser.add_argument("--render", type=int, default=0, metavar="REPEAT",
                            help="instead of the run: each page's CPU time and size, drawn in "
                                 "this process REPEAT times for a round of --tables tables "
                                 "(no servers, no locust; 0: the run)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["users"] < 1 or options["render"] < 0:
            raise CommandError("--users must be at least 1, --render at least 0.")
        if options["render"]:
            with made_round(options["tables"]) as (tournament, number):
                for cost in page_costs(tournament, number, options["render"]):
                    self.stdout.write(cost.line())
            return
        super().handle(*args, **options)

    def pages(self, tables: int,
              options: dict[str, Any]) -> AbstractContextManager[PagesLoad | None]:
        return pages_load(tables, options["seconds"], options["users"])
