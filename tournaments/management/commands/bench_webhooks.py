"""``manage.py bench_webhooks``: a webhook event's fan-out, a hanging receiver, and healthy
receivers beside failing ones."""

from __future__ import annotations

import os
import platform
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection

from bench import webhooks as bench


class Command(BaseCommand):
    help = ("Time queueing one webhook event to 1,000 subscriptions, one delivery to a "
            "receiver that never answers (at most the timeout), and deliveries to 10 healthy "
            "receivers with 100 failing ones beside them, on a pool of workers.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--subscriptions", type=int, default=1000)
        parser.add_argument("--healthy", type=int, default=10)
        parser.add_argument("--failing", type=int, default=100,
                            help="half answer 500, half refuse the connection")
        parser.add_argument("--workers", type=int, default=8,
                            help="threads delivering at once, as Celery workers would")

    def handle(self, *args: Any, subscriptions: int, healthy: int, failing: int,
               workers: int, **options: Any) -> None:
        self.stdout.write(f"{platform.python_implementation()} {platform.python_version()}, "
                          f"{os.cpu_count()} cores, database {connection.vendor}")
        times = bench.webhook_seconds(subscriptions, healthy, failing, workers)
        self.stdout.write(
            f"one event queued to {times.subscriptions:,} subscriptions: "
            f"{times.queued * 1000:.0f} ms")
        self.stdout.write(
            f"a receiver that never answers: {times.hanging:.2f} s (timeout "
            f"{times.timeout:g} s)")
        self.stdout.write(
            f"{times.healthy} healthy receivers, {times.workers} workers: "
            f"{times.healthy_alone * 1000:.0f} ms alone; {times.healthy_beside * 1000:.0f} ms "
            f"with {times.failing} failing ones' deliveries queued before them (all "
            f"{times.all_beside * 1000:.0f} ms); {times.healthy_known * 1000:.0f} ms at the "
            f"next event, the failing ones known to fail by then and queued behind")
