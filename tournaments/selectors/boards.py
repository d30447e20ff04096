"""Duplicate rounds as read: their boards, which rounds are still secret, and every table's
results on them, scored (the pure work is ``tournaments.duplicate``; what is secret, and
from whom, is ``visibility``'s rule).
"""

from __future__ import annotations

from collections import defaultdict

from games.engine import HANDS_PER_GAME
from tournaments.duplicate import (
    Board,
    BoardResult,
    BoardScore,
    TeamTotals,
    boards_from_seed,
    score_boards,
    table_results,
    team_totals,
)
from tournaments.models import Round, Tournament

from .counted import counted_results
from .visibility import hidden_rounds

BOT_TEAM = 0  # the house bot team's id in the standings' and the boards' input


def first_board(round_number: int) -> int:
    """Boards are numbered through the event: round 1 plays 1 to 5, round 2 6 to 10..."""
    return (round_number - 1) * HANDS_PER_GAME + 1


def round_boards(round: Round) -> tuple[Board, ...]:
    """A duplicate round's five boards (none for a round with its own deals per match)."""
    if round.seed is None:
        return ()
    return boards_from_seed(round.seed, first_board(round.number))


def hidden_round_numbers(tournament: Tournament) -> set[int]:
    """The numbers of the tournament's rounds whose boards are still secret
    (``visibility.boards_hidden``), in one query."""
    if not tournament.duplicate:
        return set()
    return set(hidden_rounds().filter(tournament=tournament).values_list("number", flat=True))


def round_board_results(round: Round) -> list[BoardResult]:
    """Every counted result on the round's boards (``counted``: confirmed, not left out for
    its bots' share): team A holds direction 0 (seats 0 and 2), team B direction 1."""
    numbers = [board.number for board in round_boards(round)]
    if not numbers:
        return []
    results: list[BoardResult] = []
    for team_a, team_b, hands in (counted_results(round.tournament).filter(match__round=round)
                                  .values_list("match__team_a_id", "match__team_b_id",
                                               "hand_scores")):
        results.extend(table_results(numbers, (team_a, team_b or BOT_TEAM),
                                     [(own_a, own_b) for own_a, own_b in hands]))
    return results


def tables_expected(round: Round) -> int:
    """How many results each board of the round should have in each direction: one from
    every table (a match that is not a bye); Neuberg scales a board that has fewer."""
    return max(1, round.matches.filter(is_bye=False).count())


def round_board_scores(round: Round) -> list[BoardScore]:
    """Every result on the round's boards scored against the round's other tables."""
    return score_boards(round_board_results(round), tables_expected(round))


def tournament_board_totals(tournament: Tournament,
                            rounds: set[int]) -> dict[tuple[int, int], TeamTotals]:
    """Each team's duplicate totals on each of ``rounds`` (numbers), keyed by (round number,
    team id): what the standings rank a duplicate tournament on."""
    by_round: dict[int, list[BoardScore]] = defaultdict(list)
    for round in tournament.rounds.filter(number__in=rounds, seed__isnull=False):
        by_round[round.number] = round_board_scores(round)
    return {(number, team): totals for number, scores in by_round.items()
            for team, totals in team_totals(scores).items()}
