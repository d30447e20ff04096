"""``manage.py bench_tables``: live tables' action latency over real websockets."""

from __future__ import annotations

import os
import platform
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench import capacity
from bench import tables as bench
from bench.load.run import PagesLoad
from config.asgi_process import COMMANDS


class Command(BaseCommand):
    help = ("Play N practice tables at once on a real ASGI server (uvicorn), each with "
            "one to four simulated people, each over a websocket of its own, and greedy "
            "bots in real Celery workers; print the people's action-to-update latency and "
            "a bare echo's beside it. Needs PostgreSQL and Redis.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=100, help="tables at once (100)")
        parser.add_argument("--humans-per-table", type=int, default=1,
                            help="simulated people at each table, 1 to 4 (1); the seat that "
                                 "moves first is always one of them, bots play the rest")
        parser.add_argument("--seconds", type=float, default=60,
                            help="how long they play (60)")
        parser.add_argument("--workers", type=int, default=2,
                            help="Celery worker processes for the bots (2)")
        # the platform's own pause: about one action a second per table, as the issue's
        # reference figures were measured
        parser.add_argument("--bot-pause", type=float, default=1.0,
                            help="LIVE_BOT_PAUSE_SECONDS for the bench (1, the default)")
        parser.add_argument("--seed", type=int, default=None, help="seed of deals and choices")
        parser.add_argument("--servers", type=int, default=1,
                            help="ASGI server processes, the tables shared among them (1)")
        parser.add_argument("--ramp", type=float, default=10,
                            help="each person begins at a random moment in the first RAMP "
                                 "seconds, as people arrive (10); 0: all in the same second")
        parser.add_argument("--worker-nice", type=int, default=10,
                            help="the bots' workers this much below the server's CPU priority, "
                                 "as docs/operating/production.md advises where they share a "
                                 "machine (10); "
                                 "0: the same")
        parser.add_argument("--asgi", choices=sorted(COMMANDS), default="uvicorn",
                            help="the ASGI server (uvicorn, as in production)")
        parser.add_argument("--chat-per-minute", type=float, default=0,
                            help="chat lines each person says a minute, at random moments "
                                 "(0: none)")
        parser.add_argument("--heartbeat", type=float, default=0,
                            help="each person's heartbeat every this many seconds, as the "
                                 "table's page sends one every 10 (0: none)")
        parser.add_argument("--find-limit", action="store_true",
                            help="find the most tables each server process holds with the "
                                 "people's p95 under --target-p95: runs from --tables a "
                                 "process, doubling, then halving the gap to --step")
        parser.add_argument("--target-p95", type=float, default=100,
                            help="with --find-limit: the p95 to stay under, in ms (100)")
        parser.add_argument("--step", type=int, default=8,
                            help="with --find-limit: its resolution, in tables a process (8)")
        parser.add_argument("--most", type=int, default=1024,
                            help="with --find-limit: the most tables a process it tries (1024)")

    def handle(self, *args: Any, **options: Any) -> None:
        if (min(options["tables"], options["workers"], options["servers"]) < 1
                or options["seconds"] <= 0 or not 0 <= options["ramp"] < options["seconds"]
                or not 0 <= options["worker_nice"] <= 19
                or not 1 <= options["humans_per_table"] <= 4
                or min(options["chat_per_minute"], options["heartbeat"]) < 0
                or options["target_p95"] <= 0
                or not 1 <= options["step"] <= options["most"]):
            raise CommandError("--tables, --workers and --servers must be at least 1, "
                               "--seconds above 0, --ramp from 0 to under --seconds, "
                               "--worker-nice from 0 to 19, --humans-per-table from 1 to 4, "
                               "--chat-per-minute and --heartbeat at least 0, --target-p95 "
                               "above 0, --step from 1 to --most.")
        missing = bench.missing_services()
        if missing:
            raise CommandError(f"bench_tables not run: {missing}.")
        self.stdout.write(f"{platform.python_implementation()} {platform.python_version()}, "
                          f"{os.cpu_count()} cores; {options['servers']} {options['asgi']} "
                          f"process(es), "
                          f"{options['workers']} Celery workers (nice "
                          f"{options['worker_nice']}), Redis pub/sub layer, "
                          f"bot pause {options['bot_pause']} s, "
                          f"{options['humans_per_table']} "
                          f"{'person' if options['humans_per_table'] == 1 else 'people'} "
                          f"at each table, "
                          f"{options['seconds']:g} s, "
                          f"{options['chat_per_minute']:g} chat lines a minute each, "
                          + (f"a heartbeat every {options['heartbeat']:g} s, "
                             if options["heartbeat"] else "no heartbeats, ")
                          + (f"people arriving over the first {options['ramp']:g} s"
                             if options["ramp"] else "every person from the first second"))
        if options["find_limit"]:
            self._find_limit(options)
        else:
            self._report(*self._run(options["tables"], options))

    def _run(self, tables: int,
             options: dict[str, Any]) -> tuple[bench.Figures, capacity.Watched]:
        """One run of ``tables`` tables, watched (``capacity.Watched``)."""
        with self.pages(tables, options) as pages:
            watch = capacity.Watched(capacity.server_cpu(), pages)
            figures = bench.run(tables, options["seconds"], workers=options["workers"],
                                bot_pause=options["bot_pause"], seed=options["seed"],
                                servers=options["servers"], asgi=options["asgi"],
                                ramp=options["ramp"], worker_nice=options["worker_nice"],
                                humans=options["humans_per_table"],
                                talk=bench.Talk(options["chat_per_minute"],
                                                options["heartbeat"]), watch=watch)
        return figures, watch

    def pages(self, tables: int,
              options: dict[str, Any]) -> AbstractContextManager[PagesLoad | None]:
        """The pages asked beside a run of ``tables`` tables: none here; ``bench_pages``
        (tournaments, whose round it makes) asks a round's."""
        return nullcontext(None)

    def _find_limit(self, options: dict[str, Any]) -> None:
        servers, target = options["servers"], options["target_p95"]

        def holds(tables: int) -> bool:
            figures, watch = self._run(tables * servers, options)
            self._report(figures, watch)
            held = capacity.held(figures, target)
            self.stdout.write(f"{tables} tables a process: "
                              + ("held" if held else "did not hold") + "\n")
            return held

        limit, trials = capacity.find_limit(holds, first=options["tables"], step=options["step"],
                                            most=options["most"])
        self.stdout.write(capacity.limit_line(limit, trials, servers, target))

    def _report(self, figures: bench.Figures, watch: capacity.Watched) -> None:
        self.stdout.write(figures.line())
        self.stdout.write(figures.windows_line())
        self.stdout.write(figures.echo_line())
        self.stdout.write(figures.talk_line())
        self.stdout.write(figures.cpu_line())
        self.stdout.write(figures.machine_line())
        self.stdout.write(figures.logged_line())
        if figures.finished:
            self.stdout.write(f"{len(figures.finished)} games ended during the run")
        if figures.errors:
            self.stdout.write(f"{len(figures.errors)} actions refused, e.g. {figures.errors[0]}")
        self.stdout.write(capacity.per_action_line(figures))
        self.stdout.write(capacity.connecting_line(watch, figures))
        for page in watch.rates():
            self.stdout.write(page.line())
