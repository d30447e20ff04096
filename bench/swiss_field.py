"""A realistic Swiss field for the pairing benchmark (``bench_platform``) and the pairing
tests: teams with points, byes and the opponents they have met after some rounds."""

from __future__ import annotations

import math
import random

from tournaments.formats.swiss import SwissEntry


def bench_swiss_input(teams: int = 1024, rounds: int = 5, seed: int = 0) -> list[SwissEntry]:
    """A realistic field of ``teams`` teams after ``rounds`` Swiss rounds, for benchmarks.

    Seeds 1..teams; each round teams are sorted by points and seed and paired
    top half v bottom half within score groups (sliding to the next team that
    is not a rematch), the odd team out gets a bye (1 point). A game is won by
    the better seed with an Elo-like probability and drawn 3% of the time
    (win 1, draw 0.5). Deterministic for a given ``seed``.
    """
    rng = random.Random(seed)
    rating = {i: 2000.0 - 800.0 * i / teams for i in range(1, teams + 1)}
    points = dict.fromkeys(rating, 0.0)
    met: dict[int, set[int]] = {i: set() for i in rating}
    byes = dict.fromkeys(rating, 0)
    for _played in range(rounds):
        order = sorted(rating, key=lambda i: (-points[i], i))
        if len(order) % 2:
            odd = min(reversed(order), key=lambda i: byes[i])
            order.remove(odd)
            byes[odd] += 1
            points[odd] += 1.0
        for a, b in _fold_pairs(order, points, met):
            met[a].add(b)
            met[b].add(a)
            p_a = 1.0 / (1.0 + math.pow(10.0, (rating[b] - rating[a]) / 400.0))
            roll = rng.random()
            if roll < 0.03:
                points[a] += 0.5
                points[b] += 0.5
            else:
                points[a if roll < 0.03 + 0.97 * p_a else b] += 1.0
    return [SwissEntry(id=i, points=points[i], seed=i, previous_opponents=frozenset(met[i]),
                       byes=byes[i]) for i in rating]


def _fold_pairs(
    order: list[int], points: dict[int, float], met: dict[int, set[int]]
) -> list[tuple[int, int]]:
    """Greedy Dutch-like pairing for :func:`bench_swiss_input` (not for real rounds)."""
    pairs: list[tuple[int, int]] = []
    rest = list(order)
    while rest:
        a = rest.pop(0)
        group = [b for b in rest if points[b] == points[a]]
        ideal = len(group) // 2 if len(group) % 2 else max(len(group) // 2 - 1, 0)
        tries = rest[ideal:] + rest[:ideal]
        b = next((b for b in tries if b not in met[a]), tries[0])
        rest.remove(b)
        pairs.append((a, b))
    return pairs
