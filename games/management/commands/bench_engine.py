"""``manage.py bench_engine``: engine speed on one core (random and greedy self-play, verify;
with ``--ways``, the time to list the ways to play the worst selections instead; with
``--anchor``, as ratios to OpenSpiel's gin rummy measured in the same run)."""

from __future__ import annotations

import platform
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.anchor import INSTALL_HINT, anchor_lines, anchor_rounds, load_openspiel
from bench.engine import (
    Rate,
    live_replay,
    median_of,
    pin_to_one_core,
    search_decisions,
    self_play,
    verification,
    ways_times,
)
from games.engine import BUILD, BUILD_REASON, Record


class Command(BaseCommand):
    help = ("Measure self-play and verification speed on one core (with --ways, the time to "
            "list the ways to play the worst selections instead; with --anchor, as ratios "
            "to OpenSpiel's gin rummy in alternating rounds).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=40, help="random self-play games")
        parser.add_argument("--greedy-games", type=int, default=10,
                            help="greedy self-play games")
        parser.add_argument("--repeat", type=int, default=3,
                            help="runs of each measurement, each on other games; the run "
                                 "with the median rate is printed")
        parser.add_argument("--search-games", type=int, default=1,
                            help="games of the search bot (2 rollouts a decision)")
        parser.add_argument("--ways", action="store_true",
                            help="instead, time the ways to play each of the worst "
                                 "selections (hands of 14 and 22 cards with 8 wilds), "
                                 "--repeat times each: the slowest's median and maximum")
        parser.add_argument("--anchor", action="store_true",
                            help="instead, alternate rounds of OpenSpiel's gin rummy (random "
                                 "play), the engine's random self-play of --games games and "
                                 "their verification, --rounds times; print the medians and "
                                 "the ratios (needs OpenSpiel: pip install -e '.[bench]')")
        parser.add_argument("--rounds", type=int, default=7, help="rounds of --anchor")
        parser.add_argument("--openspiel-games", type=int, default=100,
                            help="OpenSpiel games a round of --anchor")
        parser.add_argument("--cpu-clock", action="store_true",
                            help="time --anchor's rounds by the thread's CPU time rather "
                                 "than wall time (for a machine busy with other work)")

    def handle(self, *args: Any, **options: Any) -> None:
        pyspiel = load_openspiel() if options["anchor"] else None
        if options["anchor"] and pyspiel is None:
            raise CommandError(INSTALL_HINT)
        self.stdout.write(f"{platform.python_implementation()} {platform.python_version()} "
                          f"on {platform.machine()}, {pin_to_one_core()}; the engine "
                          f"{BUILD} ({BUILD_REASON}); each figure the median of "
                          f"{options['rounds'] if options['anchor'] else options['repeat']} "
                          "runs")
        if options["ways"]:
            self.stdout.write(ways_times(options["repeat"]).line())
            return
        repeat, games, greedy_games = options["repeat"], options["games"], options["greedy_games"]
        if pyspiel is not None:
            clock = time.perf_counter
            if options["cpu_clock"]:
                clock = time.thread_time
                self.stdout.write("timed by the thread's CPU time")
            measured = anchor_rounds(pyspiel, options["rounds"], games,
                                     options["openspiel_games"], self.stdout.write, clock)
            for line in anchor_lines(measured):
                self.stdout.write(line)
            return
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
        self.stdout.write(median_of(repeat, lambda k: live_replay(
            played[k * games:(k + 1) * games], k * games)).line("games"))
        self.stdout.write(median_of(repeat, lambda k: search_decisions(
            options["search_games"], 2, seed=k)).line("games"))
