"""Duplicate scoring (tournaments/duplicate): hand-worked boards, with the arithmetic written
out, for ties, a missing table, a board played once and a board with one direction
missing; and the module against a naive computation on random results (hypothesis)."""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.engine import deal_from_seed, dealer_of
from tests.examples import examples
from tournaments.duplicate import (
    BoardResult,
    BoardScore,
    Direction,
    Expected,
    boards_from_seed,
    cross_differences,
    datum,
    matchpoints,
    percentage,
    score_boards,
    table_results,
    team_totals,
    top,
)

F = Fraction


def by_team(scores: list[BoardScore]) -> dict[tuple[int, int], BoardScore]:
    return {(s.board, s.team): s for s in scores}


# --------------------------------------------------------------------------
# Hand-worked examples
# --------------------------------------------------------------------------


def test_it_gives_two_matchpoints_per_team_beaten_and_one_per_tie() -> None:
    # Board 1, direction 0, four tables: +30, +10, +10, -20. Top = 2(4 - 1) = 6.
    # +30 beats all three: 2 + 2 + 2 = 6        -> 6/6 = 100%
    # +10 beats -20 (2), ties the other +10 (1) = 3 -> 3/6 = 50%
    # -20 beats no one                          = 0 -> 0%
    results = [BoardResult(1, 0, team, r) for team, r in ((1, 30), (2, 10), (3, 10), (4, -20))]
    scores = by_team(score_boards(results))
    assert [scores[(1, t)].matchpoints for t in (1, 2, 3, 4)] == [6, 3, 3, 0]
    assert [scores[(1, t)].percentage for t in (1, 2, 3, 4)] == [100, 50, 50, 0]
    assert {s.top for s in scores.values()} == {6}
    # Datum (fewer than 5, nothing left out): (30 + 10 + 10 - 20) / 4 = 30/4 = 7.5
    # Butler: 30 - 7.5 = 22.5, 10 - 7.5 = 2.5 (twice), -20 - 7.5 = -27.5
    assert {s.datum for s in scores.values()} == {F(15, 2)}
    assert [scores[(1, t)].butler for t in (1, 2, 3, 4)] == [F(45, 2), F(5, 2), F(5, 2),
                                                            F(-55, 2)]
    # Cross-difference, against each of the 3 others, averaged:
    # +30: (30-10) + (30-10) + (30+20) = 90, / 3 = 30
    # +10: (10-30) + (10-10) + (10+20) = 10, / 3 = 10/3
    # -20: (-20-30) + (-20-10) + (-20-10) = -110, / 3 = -110/3
    assert [scores[(1, t)].cross for t in (1, 2, 3, 4)] == [30, F(10, 3), F(10, 3),
                                                           F(-110, 3)]


def test_it_leaves_one_top_and_one_bottom_out_of_the_datum_from_five_results() -> None:
    # 100, 40, 20, 0, -60: without 100 and -60, (40 + 20 + 0) / 3 = 20
    assert datum([100, 40, 20, 0, -60]) == 20
    # two equal tops: only one of them is left out: (100 + 20 + 0) / 3 = 40
    assert datum([100, 100, 20, 0, -60]) == 40
    # four results: all kept, (100 + 40 + 20 + 0) / 4 = 40
    assert datum([100, 40, 20, 0]) == 40
    with pytest.raises(ValueError, match="at least one result"):
        datum([])


def test_it_scales_a_board_a_table_did_not_finish_by_neuberg() -> None:
    # Four results expected, three played: +30, +10, -20. Unscaled s: 4, 2, 0.
    # S = (N/n)(s + 1) - 1 = (4/3)(s + 1) - 1, against a top of 2(4 - 1) = 6:
    # +30: (4/3)(5) - 1 = 17/3 -> (17/3) / 6 = 17/18 = 94.44%
    # +10: (4/3)(3) - 1 = 3    -> 50%
    # -20: (4/3)(1) - 1 = 1/3  -> (1/3) / 6 = 1/18 = 5.56%
    # The three share 17/3 + 3 + 1/3 = 9 = 3 x (half the top): the average stays 50%.
    assert matchpoints([30, 10, -20], expected=4) == [F(17, 3), 3, F(1, 3)]
    assert [percentage(s, 6) for s in (F(17, 3), F(3), F(1, 3))] == [F(850, 9), 50, F(50, 9)]
    with pytest.raises(ValueError, match="3 results where 2 were expected"):
        matchpoints([30, 10, -20], expected=2)


def test_it_scores_a_round_table_by_table_with_a_table_that_did_not_finish() -> None:
    # Three tables play boards 1 and 2; table Z stops after board 1.
    #   table X: team 1 (seats 0, 2) v team 2 (seats 1, 3): hand scores (0, 40), (25, 0)
    #   table Y: team 3 v team 4:                            (0, 40), (10, 0)
    #   table Z: team 5 v team 6:                            (15, 0)
    results = (table_results([1, 2], (1, 2), [(0, 40), (25, 0)])
               + table_results([1, 2], (3, 4), [(0, 40), (10, 0)])
               + table_results([1, 2], (5, 6), [(15, 0)]))
    # A result is the opponents' points minus one's own: team 1 on board 1 is 40 - 0 = 40.
    assert BoardResult(1, 0, 1, 40) in results and BoardResult(1, 1, 2, -40) in results
    assert BoardResult(2, 0, 1, -25) in results and BoardResult(2, 1, 2, 25) in results
    scores = score_boards(results)  # expected: the most any group has, 3
    s = by_team(scores)
    # Board 1, direction 0: +40 (team 1), +40 (team 3), -15 (team 5); top 2(3 - 1) = 4
    #   team 1: beats team 5 (2), ties team 3 (1) = 3 -> 75%; team 3 the same; team 5: 0
    # Board 1, direction 1: -40 (team 2), -40 (team 4), +15 (team 6)
    #   team 6: 4 -> 100%; teams 2 and 4: a tie only, 1 -> 25%
    assert [(s[(1, t)].matchpoints, s[(1, t)].percentage) for t in (1, 3, 5, 2, 4, 6)] == [
        (F(3), F(75)), (F(3), F(75)), (F(0), F(0)), (F(1), F(25)), (F(1), F(25)),
        (F(4), F(100))]
    # Board 2, two of three results: Neuberg with N = 3, n = 2, S = (3/2)(s + 1) - 1
    #   direction 0: team 3 (-10) beats team 1 (-25): s = 2 -> 7/2 (87.5%); team 1: 1/2 (12.5%)
    #   direction 1: team 2 (+25) beats team 4 (+10): the same
    assert [(s[(2, t)].matchpoints, s[(2, t)].percentage) for t in (3, 1, 2, 4)] == [
        (F(7, 2), F(175, 2)), (F(1, 2), F(25, 2)), (F(7, 2), F(175, 2)), (F(1, 2), F(25, 2))]
    assert {(x.played, x.expected, x.top) for x in scores if x.board == 2} == {(2, 3, 4)}
    totals = team_totals(scores)
    # team 1: 3 + 1/2 = 7/2 of 4 + 4; (75 + 12.5) / 2 = 43.75%
    #   Butler: board 1 datum (40 + 40 - 15) / 3 = 65/3, 40 - 65/3 = 55/3;
    #           board 2 datum (-25 - 10) / 2 = -35/2, -25 + 35/2 = -15/2; 55/3 - 15/2 = 65/6
    #   cross: board 1 (0 + 55) / 2 = 55/2; board 2 -25 - (-10) = -15; 55/2 - 15 = 25/2
    one = totals[1]
    assert (one.boards, one.matchpoints, one.tops, one.percentage, one.butler, one.cross) == (
        2, F(7, 2), 8, F(175, 4), F(65, 6), F(25, 2))
    # team 3: 3 + 7/2 = 13/2; (75 + 87.5) / 2 = 81.25%; Butler 55/3 + 15/2 = 155/6;
    #   cross 55/2 + 15 = 85/2
    three = totals[3]
    assert (three.matchpoints, three.percentage, three.butler, three.cross) == (
        F(13, 2), F(325, 4), F(155, 6), F(85, 2))
    # team 5 played one board: 0 of 4, 0%; Butler -15 - 65/3 = -110/3;
    #   cross (-15 - 40) + (-15 - 40) = -110, / 2 = -55
    five = totals[5]
    assert (five.boards, five.tops, five.percentage, five.butler, five.cross) == (
        1, 4, F(0), F(-110, 3), F(-55))
    assert totals[6].percentage == 100


def test_it_gives_a_board_played_once_fifty_percent() -> None:
    # Alone and alone expected: no one to compare with, top 0 -> 50% by convention.
    alone = score_boards([BoardResult(7, 1, 9, 35)], expected=1)
    assert [(x.matchpoints, x.top, x.percentage, x.butler, x.cross) for x in alone] == [
        (F(0), 0, F(50), F(0), F(0))]
    # Alone of four expected: Neuberg gives (4/1)(0 + 1) - 1 = 3 of 2(4 - 1) = 6, also 50%.
    [scaled] = score_boards([BoardResult(7, 1, 9, 35)], expected=4)
    assert (scaled.matchpoints, scaled.top, scaled.percentage) == (F(3), 6, F(50))
    assert cross_differences([35]) == [0]


def test_it_scores_a_board_with_one_direction_missing_in_the_direction_it_has() -> None:
    # A robot duplicate scores only seat 0's side: board 3 has three results in direction 0
    # and none in direction 1. Direction 0: +20 (team 1), 0 (team 2), 0 (team 3); top 4.
    #   team 1: 2 + 2 = 4 (100%); teams 2 and 3: a tie, 1 each (25%)
    results = [BoardResult(3, 0, 1, 20), BoardResult(3, 0, 2, 0), BoardResult(3, 0, 3, 0)]
    scores = score_boards(results)
    assert [(x.team, x.direction, x.matchpoints, x.percentage) for x in scores] == [
        (1, 0, F(4), F(100)), (2, 0, F(1), F(25)), (3, 0, F(1), F(25))]
    assert set(team_totals(scores)) == {1, 2, 3}


def test_it_expects_a_number_per_board_when_given_one() -> None:
    results = [BoardResult(1, 0, 1, 10), BoardResult(1, 0, 2, 0), BoardResult(2, 0, 1, 5)]
    scores = by_team(score_boards(results, expected={1: 2, 2: 1}))
    assert (scores[(1, 1)].top, scores[(2, 1)].top, scores[(2, 1)].percentage) == (2, 0, F(50))
    with pytest.raises(ValueError, match="board 2: no expected number"):
        score_boards(results, expected={1: 2})
    with pytest.raises(ValueError, match="board 1, direction 0: 2 results where 1"):
        score_boards(results, expected=1)
    with pytest.raises(ValueError, match="at least one result must be expected"):
        score_boards(results, expected={1: 2, 2: 0})
    with pytest.raises(ValueError, match="at least one result must be expected"):
        top(0)


def test_it_refuses_a_team_with_two_results_on_one_board() -> None:
    with pytest.raises(ValueError, match="board 4: team 2 has more than one result"):
        score_boards([BoardResult(4, 0, 2, 10), BoardResult(4, 1, 2, -10)])


def test_it_refuses_bad_table_results() -> None:
    with pytest.raises(ValueError, match="direction must be 0"):
        BoardResult(1, 2, 1, 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="against itself"):
        table_results([1, 2], (3, 3), [(0, 10)])
    with pytest.raises(ValueError, match="never negative"):
        table_results([1, 2], (3, 4), [(0, -5)])
    with pytest.raises(ValueError, match="3 hand scores for 2 boards"):
        table_results([1, 2], (3, 4), [(0, 5), (5, 0), (0, 5)])


def test_it_deals_a_rounds_boards_as_a_match_with_the_same_seed_is_dealt() -> None:
    boards = boards_from_seed(1234, first_number=6)
    first_dealer, packs = deal_from_seed(1234)
    assert [b.number for b in boards] == [6, 7, 8, 9, 10]
    assert [b.hand for b in boards] == [1, 2, 3, 4, 5]
    assert [b.dealer for b in boards] == [dealer_of(first_dealer, h) for h in range(1, 6)]
    assert [list(b.pack) for b in boards] == packs
    assert boards_from_seed(1234, first_number=6) == boards != boards_from_seed(1235, 6)
    with pytest.raises(ValueError, match="start at 1"):
        boards_from_seed(1, first_number=0)


# --------------------------------------------------------------------------
# Against a naive computation on random results
# --------------------------------------------------------------------------


def naive_scores(results: list[BoardResult], expected: Expected) -> list[BoardScore]:
    """The definitions, written as directly as possible: every result against every other
    result of its board and direction, one pair at a time."""
    groups: dict[tuple[int, Direction], list[BoardResult]] = defaultdict(list)
    for r in results:
        groups[(r.board, r.direction)].append(r)
    most = max(len(g) for g in groups.values())
    out = []
    for (board, direction), group in groups.items():
        n = len(group)
        big_n = (most if expected is None else expected if isinstance(expected, int)
                 else expected[board])
        kept = [r.result for r in group]
        if n >= 5:
            kept.remove(max(kept))
            kept.remove(min(kept))
        middle = F(sum(kept), len(kept))
        for r in group:
            others = [o for o in group if o is not r]
            s = sum(2 if r.result > o.result else 1 if r.result == o.result else 0
                    for o in others)
            scaled = F(s) if big_n == n else F(big_n, n) * (s + 1) - 1
            the_top = 2 * (big_n - 1)
            cross = (F(sum(r.result - o.result for o in others), len(others)) if others
                     else F(0))
            out.append(BoardScore(board, direction, r.team, r.result, n, big_n, scaled,
                                  the_top, F(50) if the_top == 0 else scaled * 100 / the_top,
                                  middle, r.result - middle, cross))
    return sorted(out, key=lambda x: (x.board, x.direction, x.team))


@st.composite
def random_results(draw: st.DrawFn) -> tuple[list[BoardResult], Expected]:
    # up to 3 boards, each played by up to 14 of the teams (so that groups of 5 and more,
    # whose datum leaves two out, are common), in either direction; small results in steps
    # of 5 (R2.4's values are all multiples of 5), so that ties are common too
    results = [BoardResult(board, draw(st.sampled_from((0, 1))), team,
                           5 * draw(st.integers(-4, 4)))
               for board in range(1, draw(st.integers(1, 3)) + 1)
               for team in draw(st.lists(st.integers(1, 20), max_size=14, unique=True))]
    assume(results)
    sizes: dict[tuple[int, int], int] = defaultdict(int)
    for r in results:
        sizes[(r.board, r.direction)] += 1
    most = max(sizes.values())
    how = draw(st.sampled_from(("none", "one", "each")))
    if how == "none":
        return results, None
    if how == "one":
        return results, most + draw(st.integers(0, 3))
    per_board = {b: max(v for (bb, _), v in sizes.items() if bb == b)
                 + draw(st.integers(0, 3)) for b in {r.board for r in results}}
    return results, per_board


@settings(max_examples=examples(300), deadline=None)
@given(random_results(), st.randoms(use_true_random=False))
def test_it_scores_random_results_as_the_naive_definitions_do(
    case: tuple[list[BoardResult], Expected], rng: random.Random
) -> None:
    results, expected = case
    shuffled = list(results)
    rng.shuffle(shuffled)
    scores = score_boards(shuffled, expected)
    assert scores == naive_scores(results, expected)
    # Neuberg keeps every group's average at half its top
    for (board, direction) in {(x.board, x.direction) for x in scores}:
        group = [x for x in scores if (x.board, x.direction) == (board, direction)]
        assert sum(x.matchpoints for x in group) == F(len(group) * group[0].top, 2)
        assert all(0 <= x.percentage <= 100 for x in group)
    # each team's totals, summed and averaged one score at a time
    totals = team_totals(scores)
    assert set(totals) == {r.team for r in results}
    for team, t in totals.items():
        own = [x for x in scores if x.team == team]
        assert (t.boards, t.matchpoints, t.tops, t.butler, t.cross) == (
            len(own), sum(x.matchpoints for x in own), sum(x.top for x in own),
            sum(x.butler for x in own), sum(x.cross for x in own))
        assert t.percentage == sum(x.percentage for x in own) / len(own)
