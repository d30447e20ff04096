"""The score-sheet check (R2.4, R9.1): what scores a game of Push can produce, as errors
a platform can translate (a template, its parameters and the hand concerned)."""

from typing import Any

import pytest

from games.engine import (
    CONTRACTS,
    HANDS_PER_GAME,
    PACK_VALUE,
    SheetError,
    full_pack,
    penalty,
    score_sheet_errors,
)
from games.engine.scoresheet import LEAST_HELD, VALUE_STEP

SHEET = [[0, 40], [30, 0], [0, 50], [40, 0], [0, 25]]
OUT = [0, 1, 2, 3, 0]


def test_the_limits_come_from_the_rules() -> None:
    assert HANDS_PER_GAME == len(CONTRACTS) == 5  # R3.1, R3.2
    assert PACK_VALUE == penalty(full_pack()) == 960  # R2.1, R2.4
    assert (VALUE_STEP, LEAST_HELD) == (5, 10)  # R2.4: every card 5 or more, in fives


def test_a_sheet_a_game_could_produce_has_no_errors() -> None:
    assert score_sheet_errors(SHEET, OUT) == []
    stock_ran_out = [*SHEET[:4], [480, 480]]  # both teams pay, up to the whole pack
    assert score_sheet_errors(stock_ran_out, [*OUT[:4], None]) == []


@pytest.mark.parametrize("sheet, out, text", [
    ([[5, 40], *SHEET[1:]], OUT, "hand 1: team 0 went out (seat 0), so it scores 0, not "
                                 "5 (R9.1)"),
    ([[0, 42], *SHEET[1:]], OUT, "hand 1: team 1 scored 42, which is not a sum of card "
                                 "values left in two hands: a multiple of 5, at least 10 "
                                 "(R2.4, R9.1)"),
    ([[0, 5], *SHEET[1:]], OUT, "hand 1: team 1 scored 5, which is not a sum of card "
                                "values left in two hands: a multiple of 5, at least 10 "
                                "(R2.4, R9.1)"),
    (SHEET[:4], OUT[:4], "a score sheet has 5 hands, one [team 0, team 1] pair each"),
    ("5 hands", OUT, "a score sheet has 5 hands, one [team 0, team 1] pair each"),
    (SHEET, OUT[:4], "name who went out in each of the 5 hands (or none, when the stock "
                     "ran out)"),
    (SHEET, [0, 1, 2, 3, 4], "hand 5: the seat that went out must be 0, 1, 2 or 3, not 4"),
    (SHEET, [0, 1, 2, 3, True], "hand 5: the seat that went out must be 0, 1, 2 or 3, "
                                "not True"),
    ([*SHEET[:4], [0, "x"]], OUT, "hand 5: scores must be two whole numbers, team 0 first"),
    ([*SHEET[:4], [0, 25, 25]], OUT, "hand 5: scores must be two whole numbers, team 0 first"),
    ([*SHEET[:4], None], OUT, "hand 5: scores must be two whole numbers, team 0 first"),
    ([[0, 40], *SHEET[1:4], [0, 970]], OUT,
     "hand 5: 970 is more than the whole pack is worth (960)"),
])
def test_an_impossible_sheet_says_what_and_where(sheet: Any, out: Any, text: str) -> None:
    assert [error.located() for error in score_sheet_errors(sheet, out)] == [text]


def test_r9_1_the_least_two_partners_can_hold_is_a_score() -> None:
    # a card each, of the lowest value (R2.4): 5 + 5
    assert score_sheet_errors([[0, LEAST_HELD], *SHEET[1:]], OUT) == []
    assert score_sheet_errors([*SHEET[:4], [LEAST_HELD, LEAST_HELD]], [*OUT[:4], None]) == []


def test_each_hand_is_checked_on_its_own() -> None:
    errors = score_sheet_errors([[0, 40], [30, 5], [20, 50], [40, 0], [0, 25]], OUT)
    assert [(e.hand, e.params) for e in errors] == [
        (2, {"team": 1, "seat": 1, "score": 5}), (3, {"team": 0, "seat": 2, "score": 20})]


def test_an_error_is_a_template_to_translate_and_its_parameters() -> None:
    (error,) = score_sheet_errors([[5, 40], *SHEET[1:]], OUT)
    assert error == SheetError(
        "%(team)s went out (seat %(seat)s), so it scores 0, not %(score)s (R9.1)",
        {"team": 0, "seat": 0, "score": 5}, hand=1)
    finnish = {error.template: "%(team)s pääsi ulos (paikka %(seat)s)",
               "hand %(hand)s: %(error)s": "jako %(hand)s: %(error)s",
               "team %(number)s": "joukkue %(number)s"}
    assert error.message(finnish.__getitem__) == "joukkue 0 pääsi ulos (paikka 0)"
    assert error.located(finnish.__getitem__) == "jako 1: joukkue 0 pääsi ulos (paikka 0)"


def test_an_error_names_the_teams_it_is_given() -> None:
    """With the teams' names, an error reads as a sentence about the team ("Blue Kings
    scored 37, ..."), never "team Blue Kings's 37"; without them, it says "team 1"."""
    errors = score_sheet_errors([[5, 40], [30, 0], [0, 37], *SHEET[3:]], OUT)
    teams = ["Red Queens", "Blue Kings"]
    assert [error.located(teams=teams) for error in errors] == [
        "hand 1: Red Queens went out (seat 0), so it scores 0, not 5 (R9.1)",
        "hand 3: Blue Kings scored 37, which is not a sum of card values left in two hands: "
        "a multiple of 5, at least 10 (R2.4, R9.1)"]
    assert errors[1].message().startswith("team 1 scored 37, which")
