"""``manage.py bench_engine``: engine speed on one core (random and greedy self-play, verify)."""

from __future__ import annotations

import platform
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.bench import Rate, median_of, pin_to_one_core, self_play, verification
from games.engine import Record


class Command(BaseCommand):
    help = "Measure self-play and verification speed on one core."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=40, help="random self-play games")
        parser.add_argument("--greedy-games", type=int, default=10,
                            help="greedy self-play games")
        parser.add_argument("--repeat", type=int, default=3,
                            help="runs of each measurement, each on other games; the run "
                                 "with the median rate is printed")

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"{platform.python_implementation()} {platform.python_version()} "
                          f"on {platform.machine()}, {pin_to_one_core()}; each figure the "
                          f"median of {options['repeat']} runs")
        repeat, games, greedy_games = options["repeat"], options["games"], options["greedy_games"]
        played: list[Record] = []

        def random_play(k: int) -> Rate:
            rate, records = self_play("random", games, seed=k * games)
            played.extend(records)
            return rate

        self.stdout.write(median_of(repeat, random_play).line("games"))
        self.stdout.write(median_of(repeat, lambda k: verification(
            played[k * games:(k + 1) * games])).line("records"))
        self.stdout.write(median_of(repeat, lambda k: self_play(
            "greedy", greedy_games, seed=k * greedy_games)[0]).line("games"))
