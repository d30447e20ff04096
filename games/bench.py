"""Engine speed figures for ``manage.py bench_engine`` (a benchmark, not a test)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass

from games.bots import make_bot
from games.engine import Record, deal_from_seed, play_game, verify


@dataclass(frozen=True)
class Rate:
    label: str
    items: int
    actions: int
    seconds: float

    def line(self, unit: str) -> str:
        return (f"{self.label}: {self.items / self.seconds:,.1f} {unit}/s, "
                f"{self.actions / self.seconds:,.0f} actions/s "
                f"({self.items} {unit}, {self.actions:,} actions, {self.seconds:.2f} s)")


def pin_to_one_core() -> str:
    """Run on a single core where the OS allows it; say which."""
    if hasattr(os, "sched_setaffinity"):
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        return f"pinned to core {core}"
    return "not pinned (no sched_setaffinity here)"


def median_of(runs: int, measure: Callable[[int], Rate]) -> Rate:
    """The run with the median action rate of ``measure(0)``, ``measure(1)``, ... (run ``k``
    plays other games than run 0, so no cache is warmed by an earlier run's exact games),
    so that one run slowed by the rest of the machine does not decide the figure."""
    rates = sorted((measure(k) for k in range(max(1, runs))),
                   key=lambda r: r.actions / r.seconds)
    return rates[len(rates) // 2]


def self_play(bot: str, games: int, seed: int = 0) -> tuple[Rate, list[Record]]:
    """Play ``games`` games with ``bot`` in every seat; legal-action generation included."""
    records = []
    start = time.perf_counter()
    for n in range(seed, seed + games):
        first_dealer, decks = deal_from_seed(n)
        records.append(play_game([make_bot(bot, n * 4 + s) for s in range(4)], first_dealer, decks))
    seconds = time.perf_counter() - start
    return Rate(f"{bot} self-play", games, _actions(records), seconds), records


def verification(records: list[Record]) -> Rate:
    """Verify the records from their JSON text, as an upload would be."""
    texts = [r.dumps() for r in records]
    start = time.perf_counter()
    for text in texts:
        if verify(text).status != "complete":
            raise AssertionError("a self-played record failed verification")
    return Rate("verification", len(texts), _actions(records), time.perf_counter() - start)


def _actions(records: list[Record]) -> int:
    return sum(len(h.actions) for r in records for h in r.hands)
