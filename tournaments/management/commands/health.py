"""``manage.py health``: print the health report as JSON; exit 1 when it is not healthy."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.services.health import health_report


class Command(BaseCommand):
    help = ("Report the broker, the queue's length, the workers that answer and consume it, "
            "stalled jobs and unsent tasks, as JSON; exit 1 when something is wrong.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--timeout", type=float, default=1.0,
                            help="seconds to wait for the broker and the workers' answers")

    def handle(self, *args: Any, timeout: float, **options: Any) -> None:
        report = health_report(timeout=timeout)
        self.stdout.write(json.dumps(report, indent=2))
        if not report["healthy"]:
            raise CommandError("; ".join(report["problems"]), returncode=1)
