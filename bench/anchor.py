"""``manage.py bench_engine --anchor``: the engine's speed as a ratio to OpenSpiel's gin rummy,
measured in one run on one core (a benchmark, not a test).

Machines of one kind differ by a third from one to the next, and a shared machine's load
comes and goes, so an absolute rate says little. OpenSpiel (C++, driven from Python) is the
anchor: rounds alternate between its uniformly random play of gin rummy and the engine's
random self-play and verification, each round's ratios are taken between measurements
seconds apart, and the medians over the rounds are printed.

What is counted: the decisions of the players (OpenSpiel's player nodes; the engine's
actions). OpenSpiel's chance nodes (its deal, and each card drawn from the stock) are played
and timed but not counted, as the engine's shuffled packs are not.

Both sides are timed by one clock, wall time or (``--cpu-clock``) the thread's CPU time,
which a machine busy with other work leaves alone: each side is single-threaded and does no
I/O, so its CPU time is the time it computes.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench.engine import Clock, Rate, self_play, verification

#: How to get the anchor: OpenSpiel is an optional benchmark dependency.
INSTALL_HINT = ("OpenSpiel is not installed; it is an optional benchmark dependency: "
                "pip install -e '.[bench]' (the open_spiel wheel)")


def load_openspiel() -> Any | None:
    """OpenSpiel's Python module, or None where it is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def openspiel_random_play(pyspiel: Any, games: int, seed: int,
                          clock: Clock = time.perf_counter) -> Rate:
    """``games`` games of gin rummy, every player choosing uniformly among
    ``legal_actions()``, each chance node's outcome drawn by its probabilities from
    ``chance_outcomes()`` (``pyspiel.sample_action``)."""
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    decisions = 0
    start = clock()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                # OpenSpiel's own sampler, by the outcomes' probabilities
                state.apply_action(pyspiel.sample_action(state.chance_outcomes(),
                                                         rng.random())[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
    return Rate("OpenSpiel gin rummy random play", games, decisions, clock() - start)


@dataclass(frozen=True)
class Round:
    openspiel: Rate
    self_play: Rate
    verification: Rate


def _per_second(rate: Rate) -> float:
    return rate.actions / rate.seconds


def anchor_rounds(pyspiel: Any, rounds: int, games: int, openspiel_games: int,
                  report: Callable[[str], None],
                  clock: Clock = time.perf_counter) -> list[Round]:
    """``rounds`` rounds, each OpenSpiel's play, then the engine's random self-play of
    ``games`` games, then the verification of those games' records; other games each round,
    all timed by ``clock``. ``report`` gets a line per round."""
    measured = []
    for k in range(max(1, rounds)):
        anchor = openspiel_random_play(pyspiel, openspiel_games, seed=k, clock=clock)
        played, records = self_play("random", games, seed=k * games, clock=clock)
        checked = verification(records, clock=clock)
        measured.append(Round(anchor, played, checked))
        report(f"round {k + 1}: OpenSpiel {_per_second(anchor):,.0f}, self-play "
               f"{_per_second(played):,.0f}, verification {_per_second(checked):,.0f} "
               f"actions/s")
    return measured


def anchor_lines(measured: list[Round]) -> list[str]:
    """The medians: OpenSpiel's rate, the engine's two, and the two ratios, each the median
    of the rounds' own ratios."""
    def median(f: Callable[[Round], float]) -> float:
        return statistics.median(f(r) for r in measured)

    anchor = median(lambda r: _per_second(r.openspiel))
    play = median(lambda r: _per_second(r.self_play))
    checked = median(lambda r: _per_second(r.verification))
    play_ratio = median(lambda r: _per_second(r.self_play) / _per_second(r.openspiel))
    check_ratio = median(lambda r: _per_second(r.verification) / _per_second(r.openspiel))
    n = len(measured)
    return [
        f"OpenSpiel gin rummy, uniformly random play: {anchor:,.0f} actions/s "
        f"(decisions; median of {n} rounds)",
        f"engine random self-play: {play:,.0f} actions/s; verification: {checked:,.0f} "
        f"actions/s (medians of {n} rounds)",
        f"ratio random self-play / OpenSpiel: {play_ratio:.2f}x (target 1.5x)",
        f"ratio verification / OpenSpiel: {check_ratio:.2f}x (target 4.0x)",
    ]
