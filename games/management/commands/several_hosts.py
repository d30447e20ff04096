"""``manage.py several_hosts``: a round of live tables across several hosts (network
namespaces on this machine), with faults; see bench/hosts.py."""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench import hosts


class Command(BaseCommand):
    help = ("Run the platform across hosts made of network namespaces on this machine (two "
            "web hosts behind HAProxy, a Celery worker host, PostgreSQL and Redis each on "
            "their own, the simulated people on theirs) and play a round of tables with four "
            "people each to the end, with faults if asked; print the p95 and what was lost "
            "or doubled. Needs root, iproute2, HAProxy, redis-server and PostgreSQL's server "
            "binaries; everything it makes is removed afterwards.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=64, help="tables in the round (64)")
        parser.add_argument("--fault", action="append", choices=hosts.FAULTS, default=[],
                            help="a fault, in the round (repeat for several; they come in "
                                 "the order kill-web, cut-worker, restart-redis)")
        parser.add_argument("--first-fault", type=float, default=15,
                            help="seconds after play began that the first fault comes (15)")
        parser.add_argument("--gap", type=float, default=20,
                            help="seconds between one fault's end and the next (20)")
        parser.add_argument("--cut-seconds", type=float, default=30,
                            help="how long the worker host is cut off (30)")
        parser.add_argument("--timeout", type=float, default=600,
                            help="seconds after which the people give up (600)")
        parser.add_argument("--seed", type=int, default=0, help="seed of deals and choices (0)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["tables"] < 1 or min(options["first_fault"], options["gap"],
                                         options["cut_seconds"]) < 0 or options["timeout"] <= 0:
            raise CommandError("--tables must be at least 1, --first-fault, --gap and "
                               "--cut-seconds at least 0, --timeout above 0.")
        lacking = hosts.missing()
        if lacking:
            raise CommandError(f"several_hosts not run: {lacking}.")
        faults = [fault for fault in hosts.FAULTS if fault in options["fault"]]
        say = self.stdout.write
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        say(f"{os.cpu_count()} cores, load average {load} before the run")
        with hosts.stack(say) as running:
            outcome = hosts.play(running, tables=options["tables"], faults=faults,
                                 first=options["first_fault"], gap=options["gap"],
                                 cut_seconds=options["cut_seconds"],
                                 timeout=options["timeout"], seed=options["seed"], say=say)
        for line in outcome.lines():
            say(line)
        say(f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())} after the run")
        if not outcome.sound:
            raise CommandError("the round was not sound: see the figures above.")
