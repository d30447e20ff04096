"""bot_match --duplicate (games/bots/duplicate.py): the two-table comparison against the
platform's duplicate scoring (tournaments/duplicate) on random hand scores, whole matches,
and the command."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots.duplicate import (
    BoardComparison,
    board_result,
    compare_boards,
    duplicate_report,
    duplicate_result,
)
from games.bots.match import MatchResult, match_bots
from games.engine import HANDS_PER_GAME
from tests.examples import examples
from tournaments.duplicate import score_boards, table_results, team_totals

# For tournaments.duplicate a team plays a board once, so each bot is two of its teams, as a
# team of four is two pairs: the first table seats A's pair 0 in direction 0 against B's pair
# 1, the second B's pair 2 in direction 0 against A's pair 3.
A_PAIRS = {0: 0, 1: 3}  # by the direction held
B_PAIRS = {0: 2, 1: 1}

# Hand scores from a narrow range as well as a wide one, so that ties are common.
hand_score = st.one_of(st.integers(0, 3), st.integers(0, 600))
game_hands = st.lists(st.tuples(hand_score, hand_score), min_size=HANDS_PER_GAME,
                      max_size=HANDS_PER_GAME).map(tuple)
pack_sets = st.lists(st.tuples(game_hands, game_hands), min_size=1, max_size=6)


def match_of(sets: list[tuple[tuple[tuple[int, int], ...], ...]]) -> MatchResult:
    """A match whose games had these hand scores (A in direction 0 first, then 1); the
    game totals are what duplicate scoring does not read."""
    hands = tuple(game for pair in sets for game in pair)
    zeros = (0,) * len(hands)
    return MatchResult("a", "b", zeros, zeros, zeros, hands, 1.5)


@settings(max_examples=examples(200), deadline=None)
@given(pack_sets)
def test_it_scores_each_board_as_the_tournaments_duplicate_scoring_does(
        sets: list[tuple[tuple[tuple[int, int], ...], ...]]) -> None:
    result = duplicate_result(match_of(sets))
    # the same games as two tables of a duplicate event: board 5k + h is hand h of pack set k
    board_results = []
    for k, (a_first, a_second) in enumerate(sets):
        boards = [HANDS_PER_GAME * k + hand for hand in range(1, HANDS_PER_GAME + 1)]
        board_results += table_results(boards, (A_PAIRS[0], B_PAIRS[1]), a_first)
        board_results += table_results(boards, (B_PAIRS[0], A_PAIRS[1]), a_second)
    scores = score_boards(board_results)
    expected = {(s.board, s.team): s for s in scores}

    assert len(result.comparisons) == len(scores) // 2 == 2 * HANDS_PER_GAME * len(sets)
    for c in result.comparisons:
        board = HANDS_PER_GAME * c.pack_set + c.hand
        a, b = expected[(board, A_PAIRS[c.direction])], expected[(board, B_PAIRS[c.direction])]
        assert a.direction == b.direction == c.direction and a.played == 2
        assert (c.result_a, c.result_b) == (a.result, b.result)
        assert c.percentage == a.percentage == 100 - b.percentage
    # A's two pairs played as many boards each, so A's percentage is the mean of theirs
    totals = team_totals(scores)
    a_percentage = (totals[A_PAIRS[0]].percentage + totals[A_PAIRS[1]].percentage) / 2
    assert result.percentage == pytest.approx(float(a_percentage))


def test_it_takes_each_side_of_a_board_from_the_table_where_the_team_held_it() -> None:
    # one hand: team 0 (seats 0 and 2) scored 10 and team 1 scored 0 at A's first table;
    # at the other table, with the seats exchanged, team 0 scored 0 and team 1 scored 30
    a_dir0, a_dir1 = list(compare_boards([(10, 0)], [(0, 30)], pack_set=3))

    assert board_result((10, 0), 0) == -10 and board_result((10, 0), 1) == 10
    # direction 0: A -10 at the first table against B +30 at the second; direction 1:
    # A -30 at the second table against B +10 at the first
    assert a_dir0 == BoardComparison(3, 1, 0, -10, 30) and a_dir0.percentage == 0
    assert a_dir1 == BoardComparison(3, 1, 1, -30, 10) and a_dir1.percentage == 0


def test_it_refuses_two_tables_that_played_different_hands() -> None:
    with pytest.raises(ValueError, match="played 2 and 1 hands"):
        list(compare_boards([(0, 5), (5, 0)], [(0, 5)]))


def test_the_same_bot_on_the_same_boards_ties_every_one() -> None:
    result = duplicate_result(match_bots(bot_a="greedy", bot_b="greedy", games=4, seed=2))

    assert result.boards == 2 * HANDS_PER_GAME and len(result.comparisons) == 20
    assert result.tally == (0, 0, 20)
    assert result.percentage == 50.0 and result.interval == (50.0, 50.0)


def test_one_pack_set_has_no_interval() -> None:
    result = duplicate_result(match_bots(bot_a="greedy", bot_b="random", games=2, seed=1))

    assert result.interval is None
    assert "n/a (needs at least two pack sets)" in duplicate_report(result)


def test_the_command_prints_the_matchpoints_then_the_usual_report() -> None:
    out = io.StringIO()
    call_command("bot_match", "greedy", "random", "--games", "6", "--seed", "3",
                 "--duplicate", stdout=out)
    text = out.getvalue()

    assert "A = greedy, B = random, scored as duplicate" in text
    assert "boards: 15 (each played at two tables), 30 board-directions" in text
    found = re.search(r"A's matchpoints: (\d+\.\d)%", text)
    assert found is not None and float(found.group(1)) > 50
    assert re.search(r"95% confidence interval: \[\d+\.\d%, \d+\.\d%\] \(t, over 3 pack "
                     r"sets' percentages\)", text)
    # the usual report of the same games follows
    assert text.index("scored as duplicate") < text.index("games: 6 (3 pack sets")


def test_the_command_refuses_no_games_with_duplicate() -> None:
    out = io.StringIO()
    with pytest.raises(CommandError, match="--games must be at least 1"):
        call_command("bot_match", "greedy", "random", "--games", "0", "--duplicate",
                     stdout=out)
    assert out.getvalue() == ""
