"""``manage.py bot_match A B --games N [--seed S] [--budget SECONDS] [--cpu-clock]
[--duplicate] [--record FILE]``: a duplicated match.

Team A (seats 0 and 2) against team B (seats 1 and 3); every set of packs is played
twice with the seats exchanged. The work is :func:`games.bots.match.match_bots`; with
``--duplicate`` the games are also scored board by board in matchpoints
(:mod:`games.bots.duplicate`). With ``--record`` each pack pair is written to a file as
it finishes, and a run with the same file goes on after the pack pairs it holds
(:mod:`games.bots.match_record`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.bots import BOT_NAMES
from games.bots.duplicate import duplicate_report, duplicate_result
from games.bots.match import MatchResult, match_bots, match_report
from games.bots.match_record import MatchRecord, RecordError


class Command(BaseCommand):
    help = ("Play bot A (seats 0 and 2) against bot B (seats 1 and 3) on duplicated packs "
            "and report the mean game-score difference B - A (positive: A better); with "
            "--duplicate, first A's matchpoint percentage on the shared boards.")

    def add_arguments(self, parser: CommandParser) -> None:
        names = ", ".join(BOT_NAMES)
        parser.add_argument("bot_a", help=f"team A's bot, one of: {names}")
        parser.add_argument("bot_b", help=f"team B's bot, one of: {names}")
        parser.add_argument("--games", type=int, default=20,
                            help="games to play, rounded up to an even number (default 20)")
        parser.add_argument("--seed", type=int, default=0,
                            help="seeds the packs and the bots (default 0)")
        parser.add_argument("--budget", type=float, default=None,
                            help="thinking time per decision, in seconds, for bots that "
                                 "search (default: each bot's own)")
        parser.add_argument("--cpu-clock", action="store_true",
                            help="count the budget in CPU time of the deciding thread, not "
                                 "wall time, so that other work on a busy machine does not "
                                 "cut the bots' thinking short (for strength runs)")
        parser.add_argument("--duplicate", action="store_true",
                            help="also score the games as duplicate: each hand is a board, "
                                 "and A's result on it in seats 0 and 2 (or 1 and 3) is "
                                 "compared with B's in the same seats at the other table, "
                                 "2 matchpoints for the better, 1 each for a tie; prints A's "
                                 "matchpoint percentage with a 95%% t interval over the pack "
                                 "sets' percentages (the boards of a pack set share their "
                                 "games, so they are not independent), then the usual report")
        parser.add_argument("--record", type=Path, default=None, metavar="FILE",
                            help="write each pack pair to FILE (JSON lines) as it finishes; "
                                 "when FILE already holds pack pairs of this same match "
                                 "(bots, seed, budget, clock), go on after them, so a long "
                                 "strength run can stop and resume")

    def handle(self, *args: Any, **options: Any) -> None:
        for name in (options["bot_a"], options["bot_b"]):
            if name not in BOT_NAMES:
                raise CommandError(f"unknown bot {name!r}; choose from {', '.join(BOT_NAMES)}")
        if options["games"] < 1:
            raise CommandError("--games must be at least 1")
        if options["budget"] is not None and options["budget"] <= 0:
            raise CommandError("--budget must be a positive number of seconds")

        with ExitStack() as held:
            record = played = None
            if options["record"] is not None:
                record = MatchRecord(options["record"], {
                    "bot_a": options["bot_a"], "bot_b": options["bot_b"],
                    "seed": options["seed"], "budget": options["budget"],
                    "cpu_clock": options["cpu_clock"]})
                try:
                    held.enter_context(record.held())
                    played = record.read()
                except (OSError, RecordError) as error:
                    raise CommandError(f"--record: {error}") from error
            result = match_bots(bot_a=options["bot_a"], bot_b=options["bot_b"],
                                games=options["games"], seed=options["seed"],
                                budget=options["budget"],
                                clock=time.thread_time if options["cpu_clock"] else None,
                                progress=self._progress(options, record, played),
                                played=played)
        if options["duplicate"]:
            self.stdout.write(duplicate_report(duplicate_result(result)) + "\n")
        self.stdout.write(match_report(result))

    def _progress(self, options: dict[str, Any], record: MatchRecord | None,
                  played: MatchResult | None) -> Callable[[int, MatchResult], None]:
        """What is done after each pack pair: it is written to the record, and with ``-v 2``
        the running figures are printed."""
        recorded = [played.seconds if played else 0.0]

        def progress(pairs: int, result: MatchResult) -> None:
            if record is not None:
                record.append(result, result.seconds - recorded[0])
                recorded[0] = result.seconds
            if options["verbosity"] < 2:
                return
            line = f"{result.games} games, mean B - A {result.mean:+.1f}, {result.seconds:.0f} s"
            if options["duplicate"]:
                scored = duplicate_result(result)
                interval = scored.interval
                ci = f" [{interval[0]:.1f}, {interval[1]:.1f}]" if interval else ""
                line += f", A's matchpoints {scored.percentage:.1f}%{ci}"
            self.stderr.write(line)

        return progress
