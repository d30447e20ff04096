"""``manage.py bench_engine``: engine speed on one core (random and greedy self-play, verify;
with ``--ways``, the time to list the ways to play the worst selections instead)."""

from __future__ import annotations

import platform
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.bench import Rate, median_of, pin_to_one_core, self_play, verification, ways_times
from games.engine import Record


class Command(BaseCommand):
    help = ("Measure self-play and verification speed on one core (with --ways, the time to "
            "list the ways to play the worst selections instead).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=40, help="random self-play games")
        parser.add_argument("--greedy-games", type=int, default=10,
                            help="greedy self-play games")
        parser.add_argument("--repeat", type=int, default=3,
                            help="runs of each measurement, each on other games; the run "
                                 "with the median rate is printed")
        parser.add_argument("--ways", action="store_true",
                            help="instead, time the ways to play each of the worst "
                                 "selections (hands of 14 and 22 cards with 8 wilds), "
                                 "--repeat times each: the slowest's median and maximum")

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"{platform.python_implementation()} {platform.python_version()} "
                          f"on {platform.machine()}, {pin_to_one_core()}; each figure the "
                          f"median of {options['repeat']} runs")
        if options["ways"]:
            self.stdout.write(ways_times(options["repeat"]).line())
            return
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
