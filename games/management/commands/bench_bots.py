"""``manage.py bench_bots [--seeds N] [--games N]``: how closely the search bot's rollouts
follow the greedy bot, and each level's decisions a second on the compiled and the pure
build (see :mod:`bench.bots`); a benchmark, not a test."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.bots import rollout_agreement, speeds
from games.bots import BOTS


class Command(BaseCommand):
    help = ("Play every hand of N seeded games out by a rollout and by the greedy bot "
            "through the engine; print how often they end alike, and the rollout speed; "
            "then each bot level's decisions a second, compiled and pure.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seeds", type=int, default=40,
                            help="games to deal, from seed 0 (default 40)")
        parser.add_argument("--games", type=int, default=4,
                            help="games each level plays for its speed (default 4; a "
                                 "searching level a quarter of them, at least one)")

    def handle(self, *args: Any, **options: Any) -> None:
        for option in ("seeds", "games"):
            if options[option] < 1:
                raise CommandError(f"--{option} must be at least 1, not {options[option]}")
        self.stdout.write(rollout_agreement(range(options["seeds"])).report())
        games = options["games"]
        self.stdout.write("\n".join(speeds({
            name: max(1, games // 4) if level.budgeted else games
            for name, level in BOTS.items()})))
