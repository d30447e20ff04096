"""Duplicated matches between two bots: a pure function, used by ``manage.py bot_match``.

Team A plays seats 0 and 2, team B seats 1 and 3. Each set of packs
(``deal_from_seed``) is played twice, the second time with the teams' seats
exchanged, so both teams get the same cards; the luck of the deal cancels out of the
pair. The statistic is the game-score difference B minus A (positive: A better, as
the lower score wins, R9.2), with a 95% t interval over the pack-set means.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from games.engine.play import Policy, deal_from_seed, play_game

from . import make_bot
from .playout import Clock

#: t quantiles for a two-sided 95% interval, by degrees of freedom 1..30
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
         2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
         2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom."""
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959964  # Cornish-Fisher expansion; within 1e-3 of the exact value past 30
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


@dataclass(frozen=True, slots=True)
class MatchResult:
    """``diffs[i]`` is game i's score difference B minus A; games 2k and 2k + 1 share
    their packs, A holding seats 0 and 2 in the first and seats 1 and 3 in the second.
    ``hands[i]`` is game i's hand scores, team 0's (seats 0 and 2) first, as its record
    claims them (R9.1); ``games.bots.duplicate`` compares them board by board.
    ``interval`` bounds the mean (None with a single pack set)."""

    bot_a: str
    bot_b: str
    diffs: tuple[int, ...]
    scores_a: tuple[int, ...]
    scores_b: tuple[int, ...]
    hands: tuple[tuple[tuple[int, int], ...], ...]
    seconds: float

    @property
    def games(self) -> int:
        return len(self.diffs)

    @property
    def pair_means(self) -> list[float]:
        return [(self.diffs[i] + self.diffs[i + 1]) / 2 for i in range(0, len(self.diffs), 2)]

    @property
    def mean(self) -> float:
        return statistics.fmean(self.diffs)

    @property
    def interval(self) -> tuple[float, float] | None:
        pairs = self.pair_means
        if len(pairs) < 2:
            return None
        half = t975(len(pairs) - 1) * statistics.stdev(pairs) / math.sqrt(len(pairs))
        return (self.mean - half, self.mean + half)

    @property
    def wins(self) -> tuple[int, int, int]:
        """Games A won, B won, drawn (R9.2)."""
        a = sum(d > 0 for d in self.diffs)
        b = sum(d < 0 for d in self.diffs)
        return a, b, len(self.diffs) - a - b


def match_bots(*, bot_a: str, bot_b: str, games: int, seed: int = 0,
               budget: float | None = None, clock: Clock | None = None,
               progress: Callable[[int, MatchResult], None] | None = None,
               played: MatchResult | None = None) -> MatchResult:
    """Play ``games`` games (rounded up to a whole number of pack pairs) of ``bot_a``
    against ``bot_b`` on duplicated packs from ``seed``. ``budget`` is the thinking
    time per decision of the bots that search, read off ``clock`` (by default each bot's,
    wall time; ``time.thread_time`` counts only the deciding thread's CPU time, so that
    other work on the machine does not cut a bot's thinking short). ``ValueError`` for an
    unknown bot name or fewer than one game. ``progress`` is called after each pack pair.

    ``played`` is the same match's first pack pairs, played before (a run that stopped
    part way, read back from its record): the match goes on from the pack pair after
    them, and its wall time adds theirs."""
    if games < 1:
        raise ValueError(f"play at least one game, not {games}")
    make_bot(bot_a)  # fail early on an unknown name
    make_bot(bot_b)
    result = played or MatchResult(bot_a, bot_b, (), (), (), (), 0.0)
    if (result.bot_a, result.bot_b) != (bot_a, bot_b) or result.games % 2:
        raise ValueError(f"the games played before are {result.bot_a} against "
                         f"{result.bot_b} in {result.games} games, not whole pack pairs of "
                         f"{bot_a} against {bot_b}")
    started = time.perf_counter() - result.seconds
    diffs = list(result.diffs)
    scores_a = list(result.scores_a)
    scores_b = list(result.scores_b)
    hands = list(result.hands)
    for k in range(result.games // 2, (games + 1) // 2):
        pack_seed = seed * 1_000_003 + k
        first_dealer, decks = deal_from_seed(pack_seed)
        for a_team in (0, 1):
            policies: list[Policy] = []
            for seat in range(4):
                name = bot_a if seat % 2 == a_team else bot_b
                policies.append(make_bot(name, pack_seed * 8 + a_team * 4 + seat,
                                         budget=budget, clock=clock))
            totals = play_game(policies, first_dealer, decks).result
            assert totals is not None
            a, b = totals.totals[a_team], totals.totals[1 - a_team]
            scores_a.append(a)
            scores_b.append(b)
            diffs.append(b - a)
            hands.append(totals.hands)
        result = MatchResult(bot_a, bot_b, tuple(diffs), tuple(scores_a), tuple(scores_b),
                             tuple(hands), time.perf_counter() - started)
        if progress is not None:
            progress(k + 1, result)
    return result


def match_report(result: MatchResult) -> str:
    """The match in a few lines of text, with the sign convention spelled out."""
    interval = result.interval
    ci = (f"[{interval[0]:+.1f}, {interval[1]:+.1f}] (t, over {len(result.pair_means)} "
          "pack-pair means)" if interval else "n/a (needs at least two pack pairs)")
    a_won, b_won, drawn = result.wins
    return "\n".join([
        f"A = {result.bot_a} (seats 0 and 2, then exchanged), B = {result.bot_b}",
        f"games: {result.games} ({result.games // 2} pack sets, each played twice with "
        "the teams' seats exchanged)",
        f"mean game score: A {statistics.fmean(result.scores_a):.1f}, "
        f"B {statistics.fmean(result.scores_b):.1f} (lower wins, R9.2)",
        f"mean game-score difference B - A: {result.mean:+.1f} per game "
        "(positive = A better)",
        f"95% confidence interval: {ci}",
        f"games won: A {a_won}, B {b_won}, drawn {drawn}",
        f"wall time: {result.seconds:.1f} s",
    ])
