"""``manage.py health``: print the health report as JSON; exit 1 when it is not healthy."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.services.health import health_report


class Command(BaseCommand):
    help = ("Report the broker, the queue's length, the workers that answer and consume it, "
            "tasks running far past their usual time, live tables acted on many times a "
            "second, stalled jobs, unsent tasks and the mail queue, as JSON; exit 1 when "
            "something is wrong.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--timeout", type=float, default=1.0,
                            help="seconds to wait for the broker and for each of the two "
                                 "questions to the workers")
        parser.add_argument("--spinning-after", type=float, default=None, metavar="SECONDS",
                            help="report every task running longer than this (default: 30 s "
                                 "for the live tables' tasks, half the soft time limit for "
                                 "the others)")

    def handle(self, *args: Any, timeout: float, spinning_after: float | None,
               **options: Any) -> None:
        report = health_report(timeout=timeout, spinning=spinning_after)
        self.stdout.write(json.dumps(report, indent=2))
        if not report["healthy"]:
            raise CommandError("; ".join(report["problems"]), returncode=1)
