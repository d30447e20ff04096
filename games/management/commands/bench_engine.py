"""``manage.py bench_engine``: engine speed on one core (random and greedy self-play, verify)."""

from __future__ import annotations

import platform
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.bench import pin_to_one_core, self_play, verification


class Command(BaseCommand):
    help = "Measure self-play and verification speed on one core."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=40, help="random self-play games")
        parser.add_argument("--greedy-games", type=int, default=10,
                            help="greedy self-play games")

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"{platform.python_implementation()} {platform.python_version()} "
                          f"on {platform.machine()}, {pin_to_one_core()}")
        rate, records = self_play("random", options["games"])
        self.stdout.write(rate.line("games"))
        self.stdout.write(verification(records).line("records"))
        greedy, _ = self_play("greedy", options["greedy_games"])
        self.stdout.write(greedy.line("games"))
