"""``manage.py bench_notices``: the notifications of a round's start for 10,000 players."""

from __future__ import annotations

import os
import platform
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection

from bench import notices as bench


class Command(BaseCommand):
    help = ("Time writing the TABLE_READY notifications of a round's start for 10,000 "
            "players (one transaction, as an online round's publishing writes them) and "
            "telling their open pages after the commit.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=10_000)
        parser.add_argument("--mailed", type=float, default=0.0, metavar="SHARE",
                            help="the share of players (0 to 1) whose confirmed address takes "
                                 "the notification by mail (their mails are sent after the "
                                 "commit: by a worker, or here without a broker)")

    def handle(self, *args: Any, players: int, mailed: float, **options: Any) -> None:
        layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
        self.stdout.write(f"{platform.python_implementation()} {platform.python_version()}, "
                          f"{os.cpu_count()} cores, database {connection.vendor}, channel "
                          f"layer {layer}")
        times = bench.round_start_seconds(players, mailed)
        self.stdout.write(
            f"a round's start, {times.players:,} players: {times.rows:,} notifications "
            f"written in {times.written:.2f} s; with the commit and the pages told "
            f"{times.committed:.2f} s")
