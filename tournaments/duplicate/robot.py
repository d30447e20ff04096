"""A robot duplicate's ranking: every entrant held seat 0 (a pair seats 0 and 2) on the same
five boards against the same bots, so each is compared with all the others in direction 0
alone (the bots' direction is nobody's, and `scoring` scores the direction it has).

A board a bot finished for a person who left is marked; the event's setting scores it as
played, or as not played: left out, so the board has one result fewer and Neuberg scales
the others, as for a table that did not finish.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .boards import BoardResult
from .scoring import BoardScore, score_boards, team_totals


@dataclass(frozen=True)
class EntryGame:
    """One entrant's finished game: `hand_scores` per hand (seats 0 and 2 first, R9.1) and,
    per hand, whether a bot finished it for a person (`bot_hands`)."""

    entry: int
    hand_scores: Sequence[tuple[int, int]]
    bot_hands: Sequence[bool]


@dataclass(frozen=True)
class Placing:
    """An entrant's line: `rank` (competition ranking: 1, 2, 2, 4; None with no board
    scored), `percentage` (None likewise) and `boards` scored."""

    entry: int
    rank: int | None
    percentage: Fraction | None
    boards: int


def entry_results(games: Sequence[EntryGame], bot_boards_played: bool) -> list[BoardResult]:
    """Each entrant's results on boards 1..5 in direction 0 (its score difference: the bots'
    penalty points minus its own), leaving out the boards a bot finished unless they count
    as played."""
    results: list[BoardResult] = []
    for game in games:
        for board, (own, bots) in enumerate(game.hand_scores, start=1):
            finished_by_bot = board <= len(game.bot_hands) and game.bot_hands[board - 1]
            if finished_by_bot and not bot_boards_played:
                continue
            results.append(BoardResult(board, 0, game.entry, bots - own))
    return results


def robot_scores(games: Sequence[EntryGame], bot_boards_played: bool) -> list[BoardScore]:
    """Every entrant's boards scored against the others; each board expects one result from
    every finished game (fewer: Neuberg)."""
    results = entry_results(games, bot_boards_played)
    return score_boards(results, max(1, len(games))) if results else []


def ranking(games: Sequence[EntryGame], bot_boards_played: bool) -> list[Placing]:
    """The entrants best first, on their matchpoint percentage; level ones share a rank and
    are listed in entry order; an entrant with no board scored comes last, unranked."""
    totals = team_totals(robot_scores(games, bot_boards_played))
    order = sorted(totals.values(), key=lambda t: (-t.percentage, t.team))
    placings: list[Placing] = []
    for position, total in enumerate(order, start=1):
        level = placings and placings[-1].percentage == total.percentage
        rank = placings[-1].rank if level else position
        placings.append(Placing(total.team, rank, total.percentage, total.boards))
    placings.extend(Placing(game.entry, None, None, 0) for game in games
                    if game.entry not in totals)
    return placings


def scores_by_entry(scores: Sequence[BoardScore]) -> Mapping[int, list[BoardScore]]:
    """Each entrant's board scores, in board order."""
    by_entry: dict[int, list[BoardScore]] = {}
    for score in scores:
        by_entry.setdefault(score.team, []).append(score)
    return by_entry
