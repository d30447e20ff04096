"""Engine speed figures for ``manage.py bench_engine`` (a benchmark, not a test)."""

from __future__ import annotations

import math
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from games.bots import make_bot
from games.bots.search import SearchBot
from games.engine import (
    Card,
    HandState,
    MeldSpec,
    Observation,
    Record,
    deal_from_seed,
    play_game,
    verify,
)
from games.engine.cards import parse_cards
from games.engine.melds import build_meld
from games.engine.state import CONTRACTS
from games.engine.ways import search
from games.live.state import advance, replay, seat_view
from games.vocabulary import contract_words


@dataclass(frozen=True)
class Rate:
    label: str
    items: int
    actions: int
    seconds: float

    def line(self, unit: str) -> str:
        return (f"{self.label}: {self.items / self.seconds:,.1f} {unit}/s, "
                f"{self.actions / self.seconds:,.0f} actions/s, "
                f"{self.seconds / self.actions * 1e6:,.1f} µs an action "
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


#: What a figure is timed by: wall time (``time.perf_counter``) or the thread's CPU time
#: (``time.thread_time``, ``--cpu-clock``).
Clock = Callable[[], float]


def self_play(bot: str, games: int, seed: int = 0,
              clock: Clock = time.perf_counter) -> tuple[Rate, list[Record]]:
    """Play ``games`` games with ``bot`` in every seat; legal-action generation included."""
    records = []
    start = clock()
    for n in range(seed, seed + games):
        first_dealer, decks = deal_from_seed(n)
        records.append(play_game([make_bot(bot, n * 4 + s) for s in range(4)], first_dealer, decks))
    seconds = clock() - start
    return Rate(f"{bot} self-play", games, _actions(records), seconds), records


def verification(records: list[Record], clock: Clock = time.perf_counter) -> Rate:
    """Verify the records from their JSON text, as an upload would be."""
    texts = [r.dumps() for r in records]
    start = clock()
    for text in texts:
        if verify(text).status != "complete":
            raise AssertionError("a self-played record failed verification")
    return Rate("verification", len(texts), _actions(records), clock() - start)


def live_replay(records: list[Record], first_seed: int) -> Rate:
    """Replay the games ``self_play(..., seed=first_seed)`` played as a live table does
    (``games.live.state.replay``: from the seed and the logged text of each action, each
    hand dealt when due), with a seat's view after each action, as each update makes."""
    logs = [[str(a) for h in r.hands for a in h.actions] for r in records]
    start = time.perf_counter()
    for seed, log in enumerate(logs, first_seed):
        live = replay(seed, [])
        for n, text in enumerate(log):
            advance(live, [text])
            seat_view(live, n % 4)
    return Rate("live table replay", len(logs), _actions(records), time.perf_counter() - start)


def search_decisions(games: int, rollouts: int, seed: int = 0) -> Rate:
    """Games of the search bot in every seat, each decision it searches by ``rollouts``
    deals (no time budget, so the work is the same on any machine)."""
    records = []
    start = time.perf_counter()
    for n in range(seed, seed + games):
        first_dealer, decks = deal_from_seed(n)
        bots = [SearchBot(n * 4 + s, budget=math.inf, rollouts=rollouts) for s in range(4)]
        records.append(play_game(bots, first_dealer, decks))
    return Rate(f"search bot ({rollouts} rollouts a decision)", games, _actions(records),
                time.perf_counter() - start)


def _actions(records: list[Record]) -> int:
    return sum(len(h.actions) for r in records for h in r.hands)


# -- ways: the worst selections a player can send -------------------------------------------

#: Eight wilds (R2.3), in three mixes: jokers and 2s differ where a 2 stands for itself (R5.4).
WAYS_WILDS = {"4 jokers, 4 twos": "JK JK JK JK 2C 2C 2S 2D",
              "2 jokers, 6 twos": "JK JK 2S 2S 2H 2D 2C 2C",
              "8 twos": "2S 2S 2H 2H 2D 2D 2C 2C"}
#: The natural cards beside them: 6 (a hand of 14) or 14 (of 22), for runs, sets or both.
WAYS_NATURALS = {
    6: {"runs": "3H 4H 5H 6H 7S 8S", "sets": "3H 3S 5H 5S 7H 7S", "both": "3H 4H 5H 5S 5D 8S"},
    14: {"runs": "3H 4H 5H 6H 7H 8H 9S TS JS QS 3D 4D 5D 6D",
         "sets": "3H 3S 3D 5H 5S 5C 7H 7S 7D 9C 9D 9S KH KD",
         "both": "3H 4H 5H 6H 5S 5D 5C 8S 9S TS KD KC KH AH"},
}
#: Melds of the other team to lay off onto: a run, a set, a run a 2C may extend naturally, and
#: more, as late in a hand (each check of a way looks at them all).
WAYS_TABLE = ("run(9H TH JH)", "set(QS QD QH)", "run(3C 4C 5C)", "set(7D 7C 7S)",
              "run(5D 6D 7D 8D)", "set(KS KH KD)", "run(TC JC QC KC)", "set(9H 9C JK=9)")
Situation = tuple[str, int, bool, str, int | None]
#: After the contracts (:func:`ways_situations`): (label, hand number, contract down,
#: naturals, target meld: None for the whole hand as new melds, else the 8 wilds alone laid
#: off onto that meld)
WAYS_SITUATIONS: tuple[Situation, ...] = (
    ("new melds of runs", 3, True, "runs", None),
    ("new melds of sets", 1, True, "sets", None),
    ("new melds of both", 2, True, "both", None),
    ("lay-off onto a run", 2, True, "both", 0),
    ("lay-off onto a set", 2, True, "both", 1),
    ("lay-off onto clubs", 2, True, "both", 2),
)
#: A card no selection or meld takes: taken from the discard it must stay for the discard
#: (R6.5), so every way that uses all the rest is refused and the search sees them all.
WAYS_SPARE = "JD"


@dataclass(frozen=True)
class WaysCase:
    """A selection of ``cards`` for seat 0 of ``state`` (to lay off onto ``meld``, if given)."""

    label: str
    state: HandState
    cards: tuple[Card, ...]
    meld: int | None

    @property
    def obs(self) -> Observation:
        return self.state.observation(0)


def ways_situations() -> list[Situation]:
    """Every hand's contract (R7.1), named by the engine's ``CONTRACTS``, laid from the
    naturals of its kinds of meld; then :data:`WAYS_SITUATIONS`."""
    contracts: list[Situation] = []
    for hand_no, need in CONTRACTS.items():
        kinds = {kind for kind, _size in need}
        naturals = "both" if len(kinds) > 1 else f"{kinds.pop()}s"
        contracts.append((f"contract {hand_no} ({contract_words(hand_no)})", hand_no, False,
                          naturals, None))
    return contracts + list(WAYS_SITUATIONS)


def ways_cases() -> list[WaysCase]:
    """Hands of 14 and 22 cards with 8 wilds (every mix of :data:`WAYS_WILDS`) and a spare
    card, taken this turn or not, in every situation of :func:`ways_situations`: the whole
    hand but the spare chosen, or its 8 wilds to lay off."""
    table = [build_meld(MeldSpec.parse(m), meld_id=i, owner=1) for i, m in enumerate(WAYS_TABLE)]
    cases = []
    for blocks in WAYS_NATURALS.values():
        for mix, wild_text in WAYS_WILDS.items():
            wilds = parse_cards(wild_text)
            for label, hand_no, down, block, meld in ways_situations():
                hand = parse_cards(blocks[block]) + wilds
                for taken in (True, False):
                    spare = Card.parse(WAYS_SPARE)
                    state = HandState(hand_no, 3, [[*hand, spare], [], [], []], [],
                                      parse_cards("9D"), list(table), [down, False, False, False],
                                      0, "play", spare if taken else None)
                    cases.append(WaysCase(
                        f"{len(hand)} cards, {mix}, {label}, {WAYS_SPARE} "
                        f"{'taken' if taken else 'spare'}", state,
                        tuple(hand if meld is None else wilds), meld))
    return cases


@dataclass(frozen=True)
class WaysTimes:
    hands: int
    runs: int
    slowest: str
    slowest_median_ms: float
    slowest_max_ms: float
    median_ms: float
    most_work: int
    allowed: int
    stopped: int

    def line(self) -> str:
        return (f"ways: {self.hands} hands of 14 and 22 cards with 8 wilds, each timed "
                f"{self.runs} times: slowest {self.slowest_median_ms:.1f} ms median, "
                f"{self.slowest_max_ms:.1f} ms max ({self.slowest}); the median hand "
                f"{self.median_ms:.1f} ms; at most {self.most_work:,} of {self.allowed:,} "
                f"work units, {self.stopped} hands stopped by the budget")


def ways_times(runs: int) -> WaysTimes:
    """Time ``games.engine.ways`` on each of :func:`ways_cases`, ``runs`` times each."""
    cases = ways_cases()
    medians, maxima, work, allowed, stopped = [], [], [], 0, 0
    for case in cases:
        times, obs = [], case.obs
        for _ in range(max(1, runs)):
            start = time.perf_counter()
            found = search(obs, case.cards, case.meld)
            times.append((time.perf_counter() - start) * 1000)
        medians.append(statistics.median(times))
        maxima.append(max(times))
        work.append(found.work)
        allowed = max(allowed, found.allowed)
        stopped += found.exhausted
    slowest = max(range(len(cases)), key=medians.__getitem__)
    return WaysTimes(len(cases), max(1, runs), cases[slowest].label, medians[slowest],
                     maxima[slowest], statistics.median(medians), max(work), allowed, stopped)
