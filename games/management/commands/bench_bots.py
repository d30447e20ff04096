"""``manage.py bench_bots [--seeds N]``: how closely the search bot's rollouts follow the
greedy bot (see :mod:`bench.bots`); a benchmark, not a test."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.bots import rollout_agreement


class Command(BaseCommand):
    help = ("Play every hand of N seeded games out by a rollout and by the greedy bot "
            "through the engine; print how often they end alike, and the rollout speed.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seeds", type=int, default=40,
                            help="games to deal, from seed 0 (default 40)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["seeds"] < 1:
            raise CommandError(f"--seeds must be at least 1, not {options['seeds']}")
        self.stdout.write(rollout_agreement(range(options["seeds"])).report())
