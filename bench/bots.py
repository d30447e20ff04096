"""The bots' figures for ``manage.py bench_bots``: how closely the rollouts follow the
greedy bot, and how many decisions each level makes a second on each build.

A benchmark, not a test: the simulator (``playout.py``) plays the greedy policy on its
light state, so it should end most hands as the greedy bot does through the engine,
but its choices among equal melds may differ. What must agree exactly, the scoring of
an end position, the tests check.

The decisions are timed in a fresh process per build (``python -m bench.bots LEVEL
GAMES``, the build chosen by ``PUSH_ENGINE_PURE`` when the engine is first imported):
each level's steady form (a searching bot with a fixed number of rollouts, so that both
builds do the same work) in all four seats of seeded games, only its ``choose`` timed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from games.bots import BOTS
from games.bots.greedy import GreedyBot
from games.bots.playout import world_of
from games.engine import BUILD, GameState, HandState, build, dealer_of
from games.engine.play import deal_from_seed, play_game

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True, slots=True)
class Agreement:
    """``same`` of ``hands`` hands, played out from the deal by a rollout and by four
    greedy bots through the engine, ended with the same two team scores; the rollouts
    took ``seconds``."""

    hands: int
    same: int
    seconds: float

    def report(self) -> str:
        rate = self.same / self.hands if self.hands else 0.0
        return "\n".join([
            f"rollouts ending a hand as the greedy bot does in the engine: {self.same} of "
            f"{self.hands} hands ({rate:.0%})",
            f"rollout speed: {self.hands / self.seconds:,.0f} hands played out per second"
            if self.seconds else "rollout speed: n/a",
        ])


def rollout_agreement(seeds: Iterable[int]) -> Agreement:
    """Every hand of the games ``deal_from_seed(seed)`` deals, for each seed."""
    hands = same = 0
    seconds = 0.0
    for seed in seeds:
        first_dealer, decks = deal_from_seed(seed)
        played = play_game([GreedyBot() for _ in range(4)], first_dealer, decks).result
        assert played is not None
        for hand_no, (deck, scores) in enumerate(zip(decks, played.hands, strict=True), 1):
            state = HandState.deal(hand_no, dealer_of(first_dealer, hand_no), deck)
            started = time.perf_counter()
            predicted = world_of(state).finish(state.seat)
            seconds += time.perf_counter() - started
            hands += 1
            same += predicted == scores
    return Agreement(hands, same, seconds)


def decisions(level: str, games: int, seed: int = 0) -> tuple[int, float]:
    """The decisions ``games`` seeded games of ``level`` (its steady form, in every seat)
    asked of it, and the seconds they took."""
    made, seconds = 0, 0.0
    for n in range(seed, seed + games):
        first_dealer, decks = deal_from_seed(n)
        bots = [BOTS[level].make_steady(n * 4 + s) for s in range(4)]
        game = GameState(first_dealer)
        for deck in decks:
            game.deal(deck)
            while (seat := game.to_move) is not None:
                obs, legal = game.observation(seat), game.legal_actions()
                started = time.perf_counter()
                action = bots[seat].choose(obs, legal)
                seconds += time.perf_counter() - started
                made += 1
                game.apply(action)
    return made, seconds


def speeds(games: dict[str, int]) -> list[str]:
    """A line a level and build: decisions a second, the compiled build's (where there is
    one) beside the pure one's, each timed in a process of its own."""
    builds = (["compiled"] if build.extension_files() else []) + ["pure"]
    lines = []
    for level, count in games.items():
        rates = {}
        for chosen in builds:
            env = {**os.environ, build.PURE_VARIABLE: "1" if chosen == "pure" else "0"}
            done = subprocess.run([sys.executable, "-m", "bench.bots", level, str(count)],
                                  cwd=ROOT, env=env, capture_output=True, text=True,
                                  check=True, timeout=3600)
            found = json.loads(done.stdout)
            rates[found["build"]] = found["decisions"] / found["seconds"]
        shown = ", ".join(f"{rate:,.0f} {name}" for name, rate in rates.items())
        gain = (f" ({rates['compiled'] / rates['pure']:.1f}x)"
                if {"compiled", "pure"} <= set(rates) else "")
        lines.append(f"{level}: decisions a second: {shown}{gain} ({count} games)")
    return lines


if __name__ == "__main__":
    made, took = decisions(sys.argv[1], int(sys.argv[2]))
    print(json.dumps({"build": BUILD, "decisions": made, "seconds": took}))
